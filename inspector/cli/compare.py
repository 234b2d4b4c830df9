"""CLI: `graphdef-inspector diff A B [--json] [--html OUT] [--me-mapping OUT]` compares two
models (or A with what a pipeline makes of it: `diff A --pipeline "..."`). Exit codes as TF's
compare_graphs: 0 equal, 1 different, 2 bad input."""

from __future__ import annotations

import argparse
import json
import sys


def _open(path: str, args):
    ns = argparse.Namespace(**{**vars(args), "model": path})
    from inspector.cli.loading import _load

    return _load(ns)


def build_diff(args):
    """(diff, model A, graph B): B from a file, or from A through --pipeline (with the
    pipeline's own provenance)."""
    from inspector.core.compare import provenance
    from inspector.core.compare.diff import diff_graphs
    from inspector.core.errors import InspectorError
    from inspector.core.model.graph import Graph

    a = _open(args.model, args)
    prov = None
    if args.pipeline:
        from inspector.core.transforms.pipeline import run_pipeline

        if args.other:
            raise InspectorError("give B or --pipeline, not both")
        from inspector.cli.loading import _split

        steps = run_pipeline(a.graph.graph_def, args.pipeline, _split(args.inputs),
                             _split(args.outputs))
        gb, b_label = Graph(steps[-1].graph_def), f"{args.model} after {args.pipeline}"
        prov = provenance.from_steps(a.graph.names(), steps)
    elif args.other:
        b = _open(args.other, args)
        gb, b_label = b.graph, args.other
        if b.kind == "tflite" and a.kind != "tflite":
            prov = provenance.for_tflite(a.graph, gb)
    else:
        raise InspectorError("diff needs a second model (B) or --pipeline")
    d = diff_graphs(a.graph, gb, args.model, b_label, provenance=prov)
    return d, a, gb


def cmd_diff(args) -> int:
    from inspector.core.compare.document import dumps, me_mapping, text_report
    from inspector.core.formats.writer import atomic_write, check_target

    for target in (args.html, args.me_mapping):
        if target:
            check_target(target, args.force, source=args.model)
    d, a, gb = build_diff(args)
    if args.html:
        from inspector.core.compare.html_report import diff_html

        atomic_write(args.html, diff_html(d, a.graph, gb), force=args.force)
        print(f"Wrote {args.html}", file=sys.stderr)
    if args.me_mapping:
        atomic_write(args.me_mapping, json.dumps(me_mapping(d), indent=1), force=args.force)
        print(f"Wrote {args.me_mapping} (Model Explorer: sync navigation, upload mapping)",
              file=sys.stderr)
    if args.json:
        sys.stdout.write(dumps(d) + "\n")
    else:
        sys.stdout.write(text_report(d, args.limit))
    sys.stdout.flush()
    return 0 if d.equal else 1


def add_parsers(sub, add_load_args) -> None:
    p = sub.add_parser("diff", help="compare two models: what changed, matched by structure "
                                    "and names (exit 0 equal, 1 different, 2 bad input)")
    add_load_args(p)
    p.add_argument("other", nargs="?", help="model B (or use --pipeline)")
    p.add_argument("--pipeline", help="compare A with A after these transforms")
    p.add_argument("--inputs", help="inputs for --pipeline, comma separated")
    p.add_argument("--outputs", help="outputs for --pipeline, comma separated")
    p.add_argument("--json", action="store_true", help="the whole diff as JSON")
    p.add_argument("--html", metavar="OUT", help="write a one-file HTML report")
    p.add_argument("--me-mapping", metavar="OUT",
                   help="write Model Explorer's side-by-side mapping file")
    p.add_argument("--limit", type=int, default=40, help="changes listed in the text report")
    p.add_argument("--force", action="store_true", help="overwrite existing output files")
    p.set_defaults(func=cmd_diff)



