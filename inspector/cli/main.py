"""Command line: `graphdef-inspector SUBCOMMAND ...` over the same core as the app."""

from __future__ import annotations

import argparse
import importlib
import sys

from inspector.cli.loading import DEMO_MODEL, _add_load_args, _load, _split  # noqa: F401
from inspector.cli.wording import said
from inspector.core.errors import InspectorError, UnsafeGraphError, printable_text
from inspector.core.app.words import count
from inspector.core.runtime import front_end, gc_policy


def cmd_summarize(args) -> int:
    from inspector.core.app.opening import summary_text

    fmt = "json" if args.json and args.format != "tf" else args.format
    front_end.FEW_NODES = fmt != "tf"     # (TF's text walks every NodeDef)
    try:                                  # for this load only: main() may run again here
        model = _load(args)
    finally:
        front_end.FEW_NODES = False
    text, warnings, error = summary_text(model, args.model, fmt, args.print_structure)
    sys.stdout.write(printable_text(text))    # a model's names never reach a terminal raw
    if error is not None:  # TF's tool stops here: one error line naming the first bad input
        raise error
    for line in warnings:
        print(printable_text(line), file=sys.stderr)
    # what TensorFlow would refuse the graph for (--format=tf does as TF's tool: above)
    problems = model.graph.problems() if fmt != "tf" else []
    if problems:     # listed above, all of it: and a script learns the graph is broken
        where = "in its 'problems'" if fmt == "json" else "listed above"
        line = InspectorError(f"{count(len(problems), 'problem')} ({where}; the first: "
                              f"{problems[0]}): TensorFlow would refuse this graph",
                              path=args.model).one_line()   # the file, the node, escaped
        print(f"graphdef-inspector: {line}", file=sys.stderr)
        return 1
    return 0


def cmd_dot(args) -> int:
    from inspector.core.app.exports import check_target, write_dot

    check_target(args.output, args.force, source=args.model)
    model = _load(args)
    written = write_dot(model.graph, args.output, force=args.force, tf_style=args.style == "tf",
                        inputs=_split(args.inputs), outputs=_split(args.outputs),
                        fold_constants=not args.show_consts, rankdir=args.rankdir,
                        clusters=not args.no_clusters)
    print(f"Created {written}.")
    return 0


def cmd_signatures(args) -> int:
    from inspector.core.app.opening import metagraphs

    metas = metagraphs(args.model)
    if not metas:
        raise InspectorError("the SavedModel has no MetaGraphs", path=args.model)
    for meta in metas:
        print(f"MetaGraph with tags: {','.join(meta['tags'])}")
        for key, sig in meta["signatures"].items():
            print(f"  signature '{key}' ({sig['method']})")
            for side in ("inputs", "outputs"):
                for k, t in sig[side].items():
                    print(f"    {side[:-1]:<6} {k}: {t['name']} {t['dtype']} {t['shape']}")
    return 0


def cmd_convert(args) -> int:
    from inspector.core.app.exports import check_target, write_graph

    check_target(args.output, args.force, source=args.model)
    model = _load(args)
    path = write_graph(model.graph.graph_def, args.output, as_text=args.output_as_text,
                       force=args.force, source=args.model)
    print(f"Wrote {count(len(model.graph), 'node')} to {path}.")
    return 0


class Parser(argparse.ArgumentParser):
    """argparse with one-line errors (`graphdef-inspector: error: ...`, exit 2)."""

    def error(self, message):
        print(f"graphdef-inspector: error: {' '.join(message.split())}", file=sys.stderr)
        sys.exit(2)


# the modules adding the other subcommands, in the order --help lists them: (module, its
# subcommands, whether its add_parsers takes the model-loading arguments' adder)
PARSER_MODULES = (
    ("inspector.cli.transform", ("transform", "flops", "check"), False),
    ("inspector.cli.overlays", ("profile", "calibrate", "ranges"), False),
    ("inspector.cli.explain", ("explain",), True),
    ("inspector.cli.tour", ("tour",), True),
    ("inspector.cli.mobile", ("tflite-info", "compat", "tflite", "ops-header"), True),
    ("inspector.cli.memmapped", ("memmapped",), True),
    ("inspector.cli.sizes", ("sizes",), True),
    ("inspector.cli.compare", ("diff",), True),
    ("inspector.cli.node_data", ("overlay",), True),
    ("inspector.cli.targets", ("targets",), True),
)
OWN = ("summarize", "dot", "signatures", "convert")
# every subcommand (the launcher sends these to the CLI, --help lists them)
SUBCOMMANDS = OWN + tuple(name for _, names, _ in PARSER_MODULES for name in names)


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole command line; `only`: a parser with just that subcommand (the same one),
    so that running it imports none of the other subcommands' modules."""
    parser = Parser(prog="graphdef-inspector", description="Look inside TensorFlow GraphDefs.")
    sub = parser.add_subparsers(dest="command")
    if only is None or only in OWN:
        _own_parsers(sub)
    for module, names, load_args in PARSER_MODULES:
        if only is None or only in names:
            add = importlib.import_module(module).add_parsers
            add(sub, _add_load_args) if load_args else add(sub)
    return parser


def _own_parsers(sub) -> None:
    p = sub.add_parser("summarize", help="likely inputs/outputs, parameters, op histogram "
                                         "(exit 0; 1 the graph has problems TensorFlow would "
                                         "refuse it for, listed; 2 bad input)",
                       description="Likely inputs and outputs, variables, parameters, op "
                                   "histogram. A graph with problems TensorFlow would refuse "
                                   "it for (an input naming no node, a malformed input, a node "
                                   "without a name or op) is summarized all the same, its "
                                   "problems listed, and exits 1; --format=tf exits 2 there, "
                                   "as summarize_graph fails. Exit 2: the file cannot be read.")
    _add_load_args(p)
    p.add_argument("--format", choices=("text", "tf", "json"), default="text",
                   help="tf = exactly what TF's summarize_graph prints")
    p.add_argument("--json", action="store_true", help="same as --format=json")
    p.add_argument("--print_structure", action="store_true",
                   help="with --format=tf: every node in execution order, as summarize_graph")
    p.set_defaults(func=cmd_summarize)
    p = sub.add_parser("dot", help="export the graph as Graphviz DOT (or SVG/PNG/PDF)")
    _add_load_args(p)
    p.add_argument("-o", "--output", required=True, help=".dot, .gv, .svg, .png or .pdf")
    p.add_argument("--style", choices=("styled", "tf"), default="styled",
                   help="tf = exactly what TF's graph_to_dot wrote")
    p.add_argument("--inputs", help="restrict to the subgraph from these nodes ...")
    p.add_argument("--outputs", help="... to these nodes (comma lists)")
    p.add_argument("--show-consts", action="store_true", help="draw constants as nodes")
    p.add_argument("--no-clusters", action="store_true", help="do not group name scopes")
    p.add_argument("--rankdir", choices=("TB", "LR"), default="TB")
    p.add_argument("--force", action="store_true", help="overwrite an existing output file")
    p.set_defaults(func=cmd_dot)
    p = sub.add_parser("signatures", help="list a SavedModel's tags and signatures")
    p.add_argument("model")
    p.set_defaults(func=cmd_signatures)
    p = sub.add_parser("convert", help="write the loaded (frozen) graph as a GraphDef")
    _add_load_args(p)
    p.add_argument("-o", "--output", required=True)
    p.add_argument("--output_as_text", action="store_true")
    p.add_argument("--force", action="store_true", help="overwrite an existing output file")
    p.set_defaults(func=cmd_convert)


class _Printable:
    """A command's stdout (or stderr) with the characters a terminal acts on (a model's ESC [2J, NUL, bidi
    override in a node name) written as escapes (errors.printable_text); the rest is the
    stream's own."""

    def __init__(self, stream):
        self._stream = stream

    def write(self, text):
        return self._stream.write(printable_text(text) if isinstance(text, str) else text)

    def __getattr__(self, name):
        return getattr(self._stream, name)


def main(argv: list | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)

    with gc_policy.paused():     # the subcommand's modules: they live as long as the process
        parser = build_parser(argv[0] if argv and argv[0] in SUBCOMMANDS else None)
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    from inspector.core.runtime.executor import install_in_process

    install_in_process()  # the CLI runs TensorFlow in its own process, imported when used
    out, err = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = _Printable(out), _Printable(err)   # a model's names: never raw
    keras_before, front_end.KERAS_IN_CHILD = front_end.KERAS_IN_CHILD, True   # a capped child
    try:
        return args.func(args)
    except InspectorError as exc:
        text = said(exc)        # what to do in the command line's options
        if isinstance(exc, UnsafeGraphError) and "--allow_io" not in text and any(
                f.why != "calls itself" for f in exc.findings):   # recursion: nothing gives it
            text += " (--allow_io gives it)"
        print(f"graphdef-inspector: error: {text}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("graphdef-inspector: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    finally:
        front_end.KERAS_IN_CHILD = keras_before     # (main() may run again in this process)
        for end in list(front_end.AT_COMMAND_END):
            end()
        if isinstance(sys.stdout, _Printable):
            sys.stdout = out
        if isinstance(sys.stderr, _Printable):
            sys.stderr = err
