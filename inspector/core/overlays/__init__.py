"""inspector.core.overlays."""
