"""inspector.core.analysis."""
