"""inspector.core.model."""
