"""Entry point: subcommands go to the Qt-free CLI, anything else opens the desktop app."""

from __future__ import annotations

import os
import sys

from inspector.core.runtime import dataclass_code
from inspector.core.runtime.lazy_import import later

quick_diff = later("inspector.cli.quick_diff", globals(), "quick_diff")     # `diff` only

QUICK_EXIT = ("summarize",)     # subcommands whose process ends without freeing the model
# and those that do so unless TensorFlow was loaded (its own exit handlers run then): `diff`
# (a 100k-node pair's graphs, matching and entries took ~0.3 s to free one by one)
QUICK_EXIT_WITHOUT_TF = ("diff",)


def quick_exit(code: int) -> None:
    """End the process with its output flushed but without freeing a big graph's objects one
    by one (a million nodes' names, index and messages: ~0.3-0.7 s after the report)."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):       # a closed pipe: nothing more to say
            pass
    os._exit(code)


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


def wants_help(argv: list) -> bool:
    """-h/--help for the whole command (not a subcommand's, nothing after `--`)."""
    before = argv[:argv.index("--")] if "--" in argv else argv
    return any(a in ("-h", "--help") for a in before)


def help_text() -> str:
    """The desktop app's options, every subcommand (from the CLI's registry, with its one
    line) and the diagnostics: what `graphdef-inspector --help` prints, without Qt."""
    import argparse
    import shutil
    import textwrap

    from inspector.cli.main import build_parser as cli_parser
    from inspector.gui.app import build_parser as app_parser

    parser = app_parser()
    parser.usage = ("graphdef-inspector [MODEL] [options]     (the desktop app)\n"
                    "       graphdef-inspector SUBCOMMAND ...      (the command line)\n"
                    "       graphdef-inspector --version | --info | --smoke-test OUT.png")
    group = parser.add_argument_group("diagnostics (no window)")
    group.add_argument("-V", "--version", action="store_true",
                       help="the app's version and flavour (source, wheel, frozen); "
                            "--info has Python's, Qt's and TensorFlow's")
    group.add_argument("--info", action="store_true",
                       help="versions, folders (settings, cache, logs) and what is installed")
    group.add_argument("--smoke-test", metavar="OUT.png",
                       help="open the demo model, preview a pipeline and export it as OUT.png "
                            "and OUT.svg, then exit 0 (1 and a reason if anything failed)")
    sub = next(a for a in cli_parser()._actions if isinstance(a, argparse._SubParsersAction))
    width = max(shutil.get_terminal_size().columns - 2, 60)
    column = max(len(a.dest) for a in sub._choices_actions) + 4
    lines = ["subcommands (graphdef-inspector SUBCOMMAND --help: its options):"]
    for action in sub._choices_actions:
        wrapped = textwrap.wrap(action.help or "", width - column) or [""]
        lines.append(f"  {action.dest:<{column - 2}}{wrapped[0]}")
        lines += [" " * column + more for more in wrapped[1:]]
    parser.description = textwrap.fill(parser.description, width)
    parser.epilog = "\n".join(lines)
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    return parser.format_help()


def main(argv: list | None = None) -> int:
    own_process = argv is None      # the command itself (not a caller's main([...]))
    argv = list(sys.argv[1:] if argv is None else argv)
    from inspector.offline import install_if_asked

    install_if_asked()   # INSPECTOR_FORBID_NETWORK=1: the offline tests
    if argv[:1] == ["diff"]:        # two files with the same bytes: answered before the rest
        code = quick_diff.answer(argv)
        if code is not None:
            return code
    from inspector.core.runtime import gc_policy

    with gc_policy.paused():    # modules live as long as the process: collecting finds nothing
        from inspector.cli.main import SUBCOMMANDS
        from inspector.cli.main import main as cli_main
    # dataclasses made with the methods the last run of this command (or window) compiled
    dataclass_code.install(program=argv[0] if argv and argv[0] in SUBCOMMANDS else "window")

    diagnostic = diagnostics(argv)
    if diagnostic is not None:
        return diagnostic
    if argv and argv[0] in SUBCOMMANDS:
        # a command that ends by quick_exit keeps what it made till then (gc_policy)
        gc_policy.HOLD_TILL_EXIT = own_process and argv[0] in QUICK_EXIT + QUICK_EXIT_WITHOUT_TF
        code = cli_main(argv)
        dataclass_code.save()       # what this command compiled, for the next one
        if own_process and (argv[0] in QUICK_EXIT or argv[0] in QUICK_EXIT_WITHOUT_TF and
                            "tensorflow" not in sys.modules):
            quick_exit(code)
        gc_policy.release_held()
        return code
    if wants_help(argv):
        sys.stdout.write(help_text())
        return 0
    try:
        from inspector.gui.app import main as gui_main
    except ImportError as exc:
        print(f"graphdef-inspector: the desktop app needs PySide6 and pyqtgraph ({exc}); "
              "subcommands work without them: graphdef-inspector summarize MODEL",
              file=sys.stderr)
        return 2
    return gui_main(argv)
