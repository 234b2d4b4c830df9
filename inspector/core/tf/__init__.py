"""inspector.core.tf."""
