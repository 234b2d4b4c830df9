"""What the TFLite commands (`compat`, `tflite`, `tflite --recipe`, `overlay export --overlay
compat`) read from their arguments: ports, representative data, input shapes, and the
MODEL_NAME.tflite files they may write."""

from __future__ import annotations

import os
import sys

from inspector.core.errors import InspectorError


def split(text) -> list:
    """A comma list; '' or None is an empty list."""
    return [t for t in (text or "").split(",") if t]


def add_port_arguments(p) -> None:
    """--inputs and --outputs (node names; default: the likely ones)."""
    p.add_argument("--inputs", help="input node names (default: the likely inputs)")
    p.add_argument("--outputs", help="output node names (default: the likely outputs)")


def ports(model, args) -> tuple[list, list]:
    """--inputs/--outputs, the likely ones where not given (said on stderr), each checked."""
    from inspector.core.analysis.summary import summarize
    from inspector.core.app.demo import choose_ports

    ins, outs = split(getattr(args, "inputs", None)), split(getattr(args, "outputs", None))
    if not ins or not outs:
        s = summarize(model.graph, model.known_inputs, model.known_outputs)
        auto_ins, auto_outs = choose_ports(model.known_inputs, model.known_outputs, s)
        ins, outs = ins or auto_ins, outs or auto_outs
        print(f"note: using inputs {','.join(ins) or '(none)'} and outputs "
              f"{','.join(outs) or '(none)'} (give --inputs/--outputs to choose)",
              file=sys.stderr)
    for name in ins + outs:
        if name.split(":")[0] not in model.graph:
            raise InspectorError("no such node in the model", path=model.path,
                                 node=name.split(":")[0])
    return ins, outs


def source(args) -> dict:
    """--data/--samples -> the representative data's description."""
    if not args.data:
        return {"kind": "random", "count": args.samples, "seed": 0}
    paths = split(args.data)
    if len(paths) == 1 and os.path.isdir(paths[0]):
        return {"kind": "folder", "path": paths[0], "limit": args.samples}
    return {"kind": "npy", "paths": paths}


def input_shapes(args) -> dict | None:
    """--input-shape NAME=1,224,224,3 (repeatable) -> {name: [dims]}."""
    shapes = {}
    for text in getattr(args, "input_shape", None) or []:
        name, _, dims = text.partition("=")
        try:
            shapes[name.strip()] = [int(d) for d in dims.split(",") if d.strip()]
        except ValueError:
            raise InspectorError(f"--input-shape {text}: expected NAME=D,D,... with whole "
                                 "numbers") from None
        if not name.strip() or not shapes[name.strip()]:
            raise InspectorError(f"--input-shape {text}: expected NAME=D,D,...")
    return shapes or None


def output_targets(args, names) -> dict:
    """-o DIR: {name: DIR/MODEL_NAME.tflite}, each checked (--force) before any work; {}
    without -o."""
    from inspector.core.formats.writer import check_target

    if not args.output:
        return {}
    if not os.path.isdir(args.output):
        raise InspectorError("the output folder does not exist", path=args.output)
    stem = os.path.splitext(os.path.basename(args.model.rstrip("/")))[0]
    targets = {}
    for name in names:
        targets[name] = os.path.join(args.output, f"{stem}_{name}.tflite")
        check_target(targets[name], args.force, source=args.model)
    return targets
