"""Entry point: subcommands go to the Qt-free CLI, anything else opens the desktop app."""

from __future__ import annotations

import sys


def main(argv: list | None = None) -> int:
    from inspector.cli.main import SUBCOMMANDS
    from inspector.cli.main import main as cli_main

    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in SUBCOMMANDS:
        return cli_main(argv)
    try:
        from inspector.gui.app import main as gui_main
    except ImportError as exc:
        print(f"graphdef-inspector: the desktop app needs PySide6 and pyqtgraph ({exc}); "
              "subcommands work without them: graphdef-inspector summarize MODEL",
              file=sys.stderr)
        return 2
    return gui_main(argv)
