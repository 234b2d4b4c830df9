"""CLI: `graphdef-inspector explain MODEL` prints the model card (what goes in, what comes out,
how big and how fast) in plain words; --json gives every figure with its definition."""

from __future__ import annotations

import json
import os
import sys


def card_for(model, input_shapes: dict | None = None):
    """The model card of a loaded model: FLOPs and port shapes from TensorFlow's shape
    inference where TensorFlow can run the graph (the card says so when it cannot)."""
    from inspector.core.analysis.flops import count_flops, unknown_flops
    from inspector.core.analysis.metrics import infer_shapes
    from inspector.core.analysis.model_card import build_card, ports_with_shapes
    from inspector.core.analysis.summary import summarize
    from inspector.core.app import gc_policy

    graph = model.graph
    with gc_policy.paused():
        summary = summarize(graph, model.known_inputs, model.known_outputs)
    shapes, assumed, failure = infer_shapes(graph.graph_def, input_shapes)
    if failure:
        flops = unknown_flops(failure)
    else:
        flops = count_flops(graph, shapes)
        flops.assumed = assumed
    ins, outs = ports_with_shapes(summary, shapes)
    return build_card(graph, summary, os.path.basename(model.path.rstrip("/")), flops,
                      input_ports=ins, output_ports=outs)


def card_text(card) -> str:
    lines = [f"{card.title}", "=" * len(card.title), ""]
    for title, ports in (("What goes in", card.inputs), ("What comes out", card.outputs)):
        lines.append(f"{title}:")
        for p in ports or []:
            lines.append(f"  {p.plain}   ({p.name}: {p.dtype or '?'} {p.shape or ''})".rstrip())
        if not ports:
            lines.append("  (nothing stands out; mark it in the app or give it on the command "
                         "line)")
        lines.append("")
    lines.append("In numbers:")
    for fact in card.facts:
        lines.append(f"  {fact.text}")
    if card.layer_kinds:
        kinds = ", ".join(f"{n:,} {k}" for k, n in card.layer_kinds.items())
        lines.append(f"  (layers: {kinds})")
    lines.append("")
    lines.append("Definitions:")
    for fact in card.facts:
        lines.append(f"  {fact.label}: {fact.definition}")
    return "\n".join(lines) + "\n"


def cmd_explain(args) -> int:
    from inspector.cli.main import _load
    from inspector.cli.transform import parse_input_shapes

    model = _load(args)
    card = card_for(model, parse_input_shapes(args.input_shape))
    if args.json:
        sys.stdout.write(json.dumps(card.as_dict(), indent=2) + "\n")
    else:
        sys.stdout.write(card_text(card))
    return 0


def add_parsers(sub, add_load_args) -> None:
    p = sub.add_parser("explain", help="the model card: what goes in and out, size and speed, "
                                       "in plain words")
    add_load_args(p)
    p.add_argument("--input_shape", action="append", metavar="NAME=d0,d1,...",
                   help="the shape of an open input (repeat for several)")
    p.add_argument("--json", action="store_true", help="every figure with its definition")
    p.set_defaults(func=cmd_explain)
