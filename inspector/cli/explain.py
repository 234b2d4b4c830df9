"""CLI: `graphdef-inspector explain MODEL` prints the model card (what goes in, what comes out,
how big and how fast) in plain words; --json gives every figure with its definition."""

from __future__ import annotations

import json
import sys

from inspector.cli.loading import _load, of_one_model
from inspector.cli.run_args import parse_input_shapes


def card_for(model, input_shapes: dict | None = None):
    """The model card of a loaded model (core.app.card, TensorFlow's shapes in this process)."""
    from inspector.core.app import demo
    from inspector.core.app.card import card

    return card(model, demo.engine_here(model.graph.graph_def), input_shapes).card


def card_text(card) -> str:
    lines = [f"{card.title}", "=" * len(card.title), ""]
    for title, ports in (("What goes in", card.inputs), ("What comes out", card.outputs)):
        lines.append(f"{title}:")
        for p in ports or []:
            lines.append(f"  {p.plain}   ({p.title}: {p.dtype or '?'} {p.shape or ''})".rstrip())
        more = card.more_text(inputs=ports is card.inputs)
        if more:
            lines.append(f"  {more}")
        if not ports:
            lines.append("  (nothing stands out; mark it in the app or give it on the command "
                         "line)")
        lines.append("")
    lines.append("In numbers:")
    for fact in card.facts:
        lines.append(f"  {fact.text}")
    if card.layer_kinds:
        lines.append(f"  (layers: {card.layers_text()})")
    for note in card.assumed:
        lines.append(f"  (counted with {note}: --input_shape NAME=d0,d1,... for another size)")
    lines.append("")
    lines.append("Definitions:")
    for fact in card.facts:
        lines.append(f"  {fact.label}: {fact.definition}")
    return "\n".join(lines) + "\n"


def demo_for(model, input_path: str, labels_path: str | None = None,
             value_range: str | None = None, input_shapes: dict | None = None,
             allow_io: bool = False):
    """Run the model once on a photo, sound or array (in this process)."""
    from inspector.core.app.demo import run_on_file

    return run_on_file(model, input_path, labels_path, value_range, input_shapes, allow_io)


def demo_text(plan, result) -> str:
    from inspector.core.app.demo import answer_lines

    lines = [f"Run on {result.label}", "-" * (7 + len(result.label))]
    if result.seen is not None:
        lines.append(f"What the model sees: {result.seen.description}")
        lines.append(f"  values from {result.seen.low:.3g} to {result.seen.high:.3g}")
        lines += [f"  WARNING: {w}" for w in result.seen.warnings]
    lines += [f"  note: {n}" for n in result.notes]
    for view in result.outputs:
        lines.append("")
        lines.append(f"Answer ({view.name}, {view.scores or view.kind}):")
        if view.kind == "classes":
            lines += ["  " + t for t in answer_lines(view)]
            if view.note:
                lines.append(f"  ({view.note})")
        elif view.data is not None:
            flat = [str(v) for v in view.data.reshape(-1)[:12]]
            lines.append(f"  {view.kind} of shape {list(view.shape)}: {', '.join(flat)}"
                         + (" ..." if view.data.size > 12 else ""))
    if result.blocks:
        lines += ["", "Blocks (most active channels first):"]
        for fm in result.blocks:
            top = ", ".join(f"{c} ({fm.mean[c]:.3g})" for c in fm.order[:3])
            lines.append(f"  {fm.item}: {list(fm.shape)} -> {top}")
    return "\n".join(lines) + "\n"


def demo_json(result) -> dict:
    out = {"input": result.label, "notes": result.notes, "run_ms": result.run_ms}
    if result.seen is not None:
        out["sees"] = {"description": result.seen.description, "low": result.seen.low,
                       "high": result.seen.high, "expected": list(result.seen.expected),
                       "outside": result.seen.outside, "at_top": result.seen.at_edges,
                       "first_layer_at_limit": result.seen.squashed,
                       "warnings": result.seen.warnings}
    out["outputs"] = [{"name": v.name, "kind": v.kind, "shape": list(v.shape),
                       "scores": v.scores, "note": v.note,
                       "top": [{"class": i, "label": n, "probability": p}
                               for (i, p), n in zip(v.top, v.labels)]}
                      for v in result.outputs]
    out["blocks"] = [{"block": fm.item, "tensor": fm.tensor, "shape": list(fm.shape),
                      "most_active": [{"channel": c, "mean": float(fm.mean[c])}
                                      for c in fm.order[:5]]} for fm in result.blocks]
    return out


@of_one_model
def cmd_explain(args) -> int:
    model = _load(args)
    shapes = parse_input_shapes(args.input_shape)
    card = card_for(model, shapes)
    run = demo_for(model, args.input, args.labels, args.value_range, shapes,
                   getattr(args, "allow_io", False)) if args.input else None
    if args.json:
        out = card.as_dict()
        if run is not None:
            out["run"] = demo_json(run[1])
        sys.stdout.write(json.dumps(out, indent=2) + "\n")
    else:
        sys.stdout.write(card_text(card))
        if run is not None:
            sys.stdout.write("\n" + demo_text(*run))
    return 0


def add_parsers(sub, add_load_args) -> None:
    p = sub.add_parser("explain", help="the model card: what goes in and out, size and speed, "
                                       "in plain words")
    add_load_args(p)
    p.add_argument("--input_shape", "--input-shape", action="append", metavar="NAME=d0,d1,...",
                   help="the shape of an open input (repeat for several)")
    p.add_argument("--input", metavar="IMAGE|WAV|NPY",
                   help="run the model on this photo, sound or array: top-5 and blocks")
    p.add_argument("--labels", metavar="FILE", help="class names, one per line")
    p.add_argument("--value_range", choices=["0_1", "-1_1", "0_255", "imagenet", "caffe"],
                   help="how pixels are scaled for an input the graph does not scale itself")
    p.add_argument("--json", action="store_true", help="every figure with its definition")
    p.set_defaults(func=cmd_explain)
