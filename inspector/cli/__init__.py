"""The command line: subcommands over the Qt-free core (`graphdef-inspector SUBCOMMAND`)."""
