"""inspector.cli.main."""
