"""Entry point: subcommands go to the Qt-free CLI, anything else opens the desktop app."""

from __future__ import annotations

import sys


def diagnostics(argv: list) -> int | None:
    """`--version`, `--info` and `--smoke-test OUT.png` (the exit code), else None."""
    if argv[:1] in (["--version"], ["-V"]):
        from inspector.diagnostics import version_text

        sys.stdout.write(version_text())
        return 0
    if argv[:1] == ["--info"]:
        from inspector.diagnostics import info_text

        sys.stdout.write(info_text())
        return 0
    if argv[:1] == ["--smoke-test"] or (argv and argv[0].startswith("--smoke-test=")):
        out = argv[0].split("=", 1)[1] if "=" in argv[0] else (argv[1:2] or [""])[0]
        if not out or out.startswith("-"):
            print("graphdef-inspector: --smoke-test needs OUT.png", file=sys.stderr)
            return 2
        from inspector.gui.startup.smoke import main as smoke

        return smoke(out)
    return None


def main(argv: list | None = None) -> int:
    from inspector.core.runtime import gc_policy

    with gc_policy.paused():    # modules live as long as the process: collecting finds nothing
        from inspector.cli.main import SUBCOMMANDS
        from inspector.cli.main import main as cli_main

    argv = list(sys.argv[1:] if argv is None else argv)
    from inspector.offline import install_if_asked

    install_if_asked()   # INSPECTOR_FORBID_NETWORK=1: the offline tests
    diagnostic = diagnostics(argv)
    if diagnostic is not None:
        return diagnostic
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
