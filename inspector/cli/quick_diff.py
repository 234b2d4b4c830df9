"""`diff A B` of two files with the same bytes, answered before the command line is built: the
launcher asks here first, so the answer imports no parser, loader or subcommand (issue 47: an
identical diff <= 0.5 s from process start at any size). Only the plain forms are answered
here (`diff A B` with --json, --no-flops or --limit N); anything else, and files that differ,
go on to the full command (None)."""

from __future__ import annotations

import sys

from inspector.cli.wording import said
from inspector.core.errors import InspectorError
from inspector.core.runtime.lazy_import import later

identical = later("inspector.core.app.identical", globals(), "identical")   # `diff` only
FLAGS = ("--json", "--no-flops")


def plain_args(args: list) -> tuple | None:
    """(A, B, json, limit) of `diff`'s arguments when they are two files and only FLAGS or
    --limit N, else None (the limit of changes listed: none for equal files)."""
    paths, flags, limit = [], set(), 40
    k = 0
    while k < len(args):
        arg = args[k]
        if arg in FLAGS:
            flags.add(arg)
        elif arg == "--limit" or arg.startswith("--limit="):
            value = arg.split("=", 1)[1] if "=" in arg else (args[k + 1:k + 2] or [""])[0]
            k += arg == "--limit"
            if not value.isdigit():
                return None
            limit = int(value)
        elif arg.startswith("-") or not arg:
            return None
        else:
            paths.append(arg)
        k += 1
    if len(paths) != 2:
        return None
    return paths[0], paths[1], "--json" in flags, limit


def answer(argv: list) -> int | None:
    """The exit code of `diff` (argv without the program) when A and B hold the same bytes
    (0; 2 when a file changed while it was compared), else None."""
    plain = plain_args(argv[1:]) if argv[:1] == ["diff"] else None
    if plain is None:
        return None
    a, b, as_json, _ = plain
    try:
        size = identical.same_bytes(a, b)
        if size is None:
            return None
        sys.stdout.write(identical.identical_report(a, b, size, as_json) + ("\n" if as_json
                                                                           else ""))
        sys.stdout.flush()
    except InspectorError as exc:
        print(f"graphdef-inspector: error: {said(exc)}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        print("graphdef-inspector: interrupted", file=sys.stderr)
        return 130
    return 0
