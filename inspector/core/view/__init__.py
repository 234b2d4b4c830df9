"""inspector.core.view."""
