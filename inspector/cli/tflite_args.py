"""What the TFLite commands (`compat`, `tflite`, `tflite --recipe`, `overlay export --overlay
compat`) read from their arguments: ports, representative data, input shapes, and the
MODEL_NAME.tflite files they may write."""

from __future__ import annotations

import os
import sys

from inspector.core.app.inputs import open_size_notes, parse_sizes, undeclared_shapes
from inspector.core.app.ports import model_ports
from inspector.core.errors import InspectorError


def split(text) -> list:
    """A comma list; '' or None is an empty list."""
    return [t for t in (text or "").split(",") if t]


def add_port_arguments(p) -> None:
    """--inputs and --outputs (node names; default: the likely ones)."""
    p.add_argument("--inputs", help="input node names (default: the likely inputs)")
    p.add_argument("--outputs", help="output node names (default: the likely outputs)")


def convertible(model):
    """The model, when the converter can take it; a .tflite (its reader says it cannot be
    converted) refused in one line, as `compat` refuses it: the consent check listed its
    LiteRT ops as 'not pure computation' and TensorFlow then refused 'CONV_2D'."""
    if "convert" not in model.capabilities:
        raise InspectorError("this is already a TensorFlow Lite model: open the TensorFlow "
                             "model it came from to convert it", path=model.path)
    return model


def ports(model, args, required: bool = False) -> tuple[list, list]:
    """--inputs/--outputs, the likely ones where not given (said on stderr), each checked:
    every command that runs or converts a model from its ports (compat, tflite, profile,
    calibrate; core.app.ports.model_ports, as `check`). `required`: no likely input or output
    found is an error naming the flag."""
    return model_ports(model, split(getattr(args, "inputs", None)) or None,
                       split(getattr(args, "outputs", None)) or None, required,
                       say=lambda text: print(f"note: {text}", file=sys.stderr))


def source(args) -> dict:
    """--data/--samples -> the representative data's description: a folder of photos, a
    folder of .npy files (its .npy files, by name), or .npy files."""
    if not args.data:
        return {"kind": "random", "count": args.samples, "seed": 0}
    paths = split(args.data)
    if len(paths) == 1 and os.path.isdir(paths[0]):
        try:
            names = sorted(n for n in os.listdir(paths[0]) if not n.startswith("."))
        except OSError as exc:
            raise InspectorError(f"cannot list the folder: {exc.strerror or exc}",
                                 path=paths[0]) from None
        arrays = [os.path.join(paths[0], n) for n in names if n.lower().endswith(".npy")]
        if not arrays:
            return {"kind": "folder", "path": paths[0], "limit": args.samples}
        if len(arrays) < len(names):
            print(f"note: using the {len(arrays)} .npy files of {paths[0]} (other files "
                  "left out)", file=sys.stderr)
        return {"kind": "npy", "paths": arrays, "limit": args.samples}
    return {"kind": "npy", "paths": paths, "limit": args.samples}


def input_shapes(args, model, inputs) -> dict | None:
    """--input-shape NAME=1,224,224,3 (repeatable) -> {name: [dims]}, with the shape the
    window would use for each input that declares none (said on stderr); an input without
    any is an error naming the option."""
    shapes = parse_sizes(getattr(args, "input_shape", None), "--input-shape")
    shapes, origin = undeclared_shapes(model, inputs, shapes)
    for name, where in origin.items():
        print(f"note: input {name} has no declared shape: using "
              f"{','.join(str(d) for d in shapes[name]) or 'a scalar'} ({where}; give "
              f"--input-shape {name}=D,D,... to choose)", file=sys.stderr)
    for text in inputs:
        name = text.split(":")[0]
        node = model.graph.get(name)
        if node is not None and name not in shapes and node.declared_dims is None:
            raise InspectorError(f"the input has no declared shape: give it with "
                                 f"--input-shape {name}=D,D,...", path=model.path, node=name)
    return shapes or None


def note_open_sizes(model, inputs, shapes: dict | None) -> None:
    """Say on stderr each input that leaves sizes open and is not sized (open_size_notes)."""
    for text in open_size_notes(model.graph, inputs, shapes):
        print(f"note: {text}", file=sys.stderr)


def output_targets(args, names) -> dict:
    """-o DIR (made if missing): {name: DIR/MODEL_NAME.tflite}, each checked (--force)
    before any work; {} without -o."""
    from inspector.core.app.exports import check_target

    if args.output is None:
        return {}
    if not args.output.strip():      # (`-o ""` ran the conversion and wrote nothing: hostile17)
        raise InspectorError("-o needs a folder name (it was empty)")
    if os.path.lexists(args.output) and not os.path.isdir(args.output):
        what = "names a file"
        if os.path.islink(args.output) and not os.path.exists(args.output):
            what = "is a symbolic link to nothing (or a link loop)"    # (not a file: hostile17)
        raise InspectorError(f"-o {what}: it takes a folder", path=args.output)
    if not os.path.isdir(args.output) and args.output.lower().endswith(".tflite"):
        # `-o model.tflite` made a folder of that name with MODEL_VARIANT.tflite inside
        raise InspectorError("-o takes a folder (each variant is written in it as "
                             f"{os.path.basename(args.model.rstrip('/')).rsplit('.', 1)[0]}"
                             "_VARIANT.tflite), not a .tflite file name", path=args.output)
    try:
        os.makedirs(args.output, exist_ok=True)
    except OSError as exc:
        raise InspectorError(f"cannot create the output folder: {exc.strerror or exc}",
                             path=args.output) from None
    stem = os.path.splitext(os.path.basename(args.model.rstrip("/")))[0]
    targets = {}
    for name in names:
        targets[name] = os.path.join(args.output, f"{stem}_{name}.tflite")
        check_target(targets[name], args.force, source=args.model)
    return targets
