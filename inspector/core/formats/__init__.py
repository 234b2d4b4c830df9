"""inspector.core.formats."""
