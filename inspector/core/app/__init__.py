"""Application state (top layer): session, marks and pipeline workbench, live preview."""
