"""Controllers: each gets the app state, the task runner and its own panel."""
