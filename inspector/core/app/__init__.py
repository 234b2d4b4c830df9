"""inspector.core.app."""
