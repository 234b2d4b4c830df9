"""Shapes and dtypes for the marked inputs: given explicitly, declared by the graph, inferred
by TensorFlow, or known from an image-decoding chain (batch 1 where a dimension is unknown)."""

from __future__ import annotations

import re

from inspector.core.analysis.preprocessing import find_preprocessing_chains
from inspector.core.analysis.summary import dtype_of
from inspector.core.app.ports import ports_to_use
from inspector.core.app.session_file import size_misfit
from inspector.core.errors import InspectorError


def input_shapes_and_types(state, inputs=None) -> tuple[dict, dict]:
    """Shapes and dtypes of `inputs` (default: the marked ones): a use case that runs between
    the likely ports when none are marked passes those (profile, calibrate, the TFLite
    preview and confirm, quantization recipes), else they went with no shape at all."""
    bench = state.workbench
    view = state.original_view
    if view is None:
        return dict(bench.input_shapes), {}
    summary = state.summary
    inputs = bench.inputs if inputs is None else inputs
    shapes, types, _ = known_shapes(view.graph, inputs, bench.input_shapes,
                                    view.shapes or {}, summary.preprocessing if summary else [])
    return shapes, types


SWITCH = "a training switch: fed False, the inference branch"


def known_shapes(graph, inputs, given: dict, inferred, chains: list) -> tuple[dict, dict, dict]:
    """(shapes, dtypes, where each shape not given came from) of the inputs: given, else
    declared, else inferred (a dict, or a callable giving it, asked only when needed), else
    the feed shape of a decoding chain, else a scalar for a bool (a training switch);
    batch 1 where a dimension is unknown."""
    shapes, types, origin = dict(given or {}), {}, {}
    chain_shapes = {c.feed: c.feed_shape for c in chains}
    for text in inputs:
        name = text.split(":")[0]
        node = graph.get(name)
        if node is None:
            continue
        types[name] = dtype_of(node) or "float"
        if name in shapes:
            continue
        declared = node.declared_dims
        dims, origin[name] = None, "declared"
        if declared is not None:
            dims = declared
        else:
            if callable(inferred):
                inferred = inferred() or {}
            found = inferred.get(name)
            if found and found[0] is not None:
                dims, origin[name] = found[0], "inferred by TensorFlow"
            elif chain_shapes.get(name, "").startswith("["):
                dims = tuple(None if d == "?" else int(d)
                             for d in chain_shapes[name][1:-1].split(",") if d)
                origin[name] = "the decoding chain's output"
            elif types[name] == "bool":
                dims, origin[name] = (), SWITCH
        if dims is not None:
            shapes[name] = tuple(1 if d is None else d for d in dims)
        else:
            del origin[name]
    return shapes, types, origin


def strip_parameters(state) -> dict:
    """Parameters for a new strip_unused_nodes step: the type and known shape of each marked
    input that is not a Placeholder already (those are kept as they are), so the Placeholder
    that replaces it keeps what the graph knew instead of TF's default (float, scalar)."""
    view = state.original_view
    if view is None:
        return {}
    shapes, types = input_shapes_and_types(state)
    named = []
    for text in state.workbench.inputs:
        name = text.split(":")[0]
        node = view.graph.get(name)
        if node is None or node.op == "Placeholder" or name not in shapes:
            continue
        named.append((name, types.get(name, "float"), ",".join(str(d) for d in shapes[name])))
    if not named:
        return {}
    if len(named) == 1:
        return {"type": [named[0][1]], "shape": [named[0][2]]}
    return {"name": [n for n, _, _ in named], "type_for_name": [t for _, t, _ in named],
            "shape_for_name": [s for _, _, s in named]}


def read_array(path: str):
    """A .npy file the user gave, checked (size, dtype) before it is read."""
    from inspector.core.loaders.arrays import load_npy

    return load_npy(path)


def read_arrays(items) -> dict:
    """NAME=FILE.npy arguments -> {name: array}, each checked and read."""
    from inspector.core.loaders.arrays import load_npy, parse_npy_args

    return {name: load_npy(path) for name, path in parse_npy_args(items).items()}


def model_input_shapes(model, inputs, given: dict | None = None) -> tuple[dict, dict]:
    """For the command line, the shapes the window would use for every input (given, else
    declared, else TensorFlow's inference asked only then, else a decoding chain's):
    (shapes, where each one not given came from)."""
    from inspector.core.app.demo import engine_here

    def inferred():
        try:
            return engine_here(model.graph.graph_def).infer_shapes()
        except InspectorError:
            return {}

    shapes, _, origin = known_shapes(model.graph, inputs, given or {}, inferred,
                                     find_preprocessing_chains(model.graph))
    return shapes, origin


def undeclared_shapes(model, inputs, given: dict) -> tuple[dict, dict]:
    """For the command line, the shapes the window would use for the inputs that declare
    none (TensorFlow's inference asked only then), beside the given ones: (shapes, where
    each came from). Inputs with a declared shape are left to it."""
    shapes, origin = model_input_shapes(model, inputs, given)
    keep = {n: s for n, s in shapes.items() if n in (given or {}) or
            origin.get(n, "declared") != "declared"}
    return keep, {n: w for n, w in origin.items() if n in keep}


MAX_SIZE = 2 ** 31 - 1      # a dimension TensorFlow and LiteRT hold
_WHOLE = re.compile(r"-?[0-9]+")


def parse_sizes(items, flag: str = "") -> dict:
    """NAME=D,D,... items (`--input-shape`'s values; the window's Input sizes field) ->
    {name: [dims]}; InspectorError naming the bad item (after `flag`, the option's name).
    NAME:0 (a tensor name, as TensorFlow writes them) is the node NAME; another port, or a
    node given twice (image=... image:0=...), is refused rather than one of them taken."""
    shapes, given = {}, {}
    for text in items or []:
        name, _, dims = text.partition("=")
        where = f"{flag} {text if len(text) <= 80 else text[:60] + '…' + text[-10:]}".strip()
        name, colon, port = name.strip().partition(":")
        if colon and name and not (port.isascii() and port.isdigit() and not port.strip("0")):
            raise InspectorError(f"{where}: an input is a node's output 0 ({name} or "
                                 f"{name}:0), not :{port}")
        if name in given:
            raise InspectorError(f"{where}: input {name} is given twice (also {given[name]})")
        sizes = [d.strip() for d in dims.split(",") if d.strip()]
        if not all(_WHOLE.fullmatch(d) for d in sizes):
            # (int() took '1_0', '+3' and '١٢'; a 20-digit size escaped as ValueError from
            # the protobuf that carries it, `tflite --input-shape` and Run both's question)
            raise InspectorError(f"{where}: expected NAME=D,D,... with whole numbers")
        shapes[name] = [int(d) if len(d) <= 12 else -1 if d[0] == "-" else MAX_SIZE + 1
                        for d in sizes]
        if not name or not shapes[name]:
            raise InspectorError(f"{where}: expected NAME=D,D,...")
        if min(shapes[name]) < 1:
            raise InspectorError(f"{where}: every size is 1 or more")
        if max(shapes[name]) > MAX_SIZE:
            raise InspectorError(f"{where}: a size is at most {MAX_SIZE:,} (a TensorFlow "
                                 "dimension's)")
        given[name] = text
    return shapes


def open_sizes(graph, inputs) -> dict:
    """{input: its declared shape ("[1,?,?,3]")} of the inputs whose declared shape leaves
    sizes open: converted, checked and counted at 1 for each, unless their sizes are given
    (--input-shape; the window's Input sizes)."""
    out = {}
    for text in inputs:
        node = graph.get(text.split(":")[0])
        dims = node.declared_dims if node is not None else None
        if dims is not None and None in dims:
            out[node.name] = "[" + ",".join("?" if d is None else str(d) for d in dims) + "]"
    return out


def open_size_notes(graph, inputs, shapes: dict | None) -> list:
    """What a command says of each input whose declared shape leaves sizes open and that
    `shapes` (--input-shape) does not size: the run takes 1 for each open size (as the window
    does until its Input sizes are given), so its figures are of a 1x1 image."""
    return [f"input {name} leaves sizes open ({declared}): using 1 for each; give "
            f"--input-shape {name}=D,D,... for meaningful figures"
            for name, declared in open_sizes(graph, inputs).items()
            if name not in (shapes or {})]


def set_input_sizes(state, text: str) -> dict:
    """The window's Input sizes field, as `tflite --input-shape` (parse_sizes): NAME=D,D,...
    items, spaces or ';' between them, given to the conversion, its check and the FLOPs of
    the marked (or likely) inputs from now on (input_shapes_and_types); kept in the session
    file, undoable. '' forgets them. InspectorError for a bad item, a node the model does not
    have, or sizes that do not fit its declared shape."""
    shapes = parse_sizes([t for t in text.replace(";", " ").split() if t])
    graph = state.original_view.graph if state.original_view is not None else None
    used = {t.split(":")[0] for t in ports_to_use(state.workbench.inputs, (), state.summary)[0]}
    for name, dims in shapes.items():
        node = graph.get(name) if graph is not None else None
        if graph is not None and node is None:
            raise InspectorError("no such node in the model", node=name)
        if used and name not in used:        # its size would be left out without a word
            raise InspectorError(f"not an input of the conversion ({', '.join(sorted(used))}):"
                                 " mark it as an input to give its size", node=name)
        misfit = size_misfit(node, dims) if node is not None else ""
        if misfit:
            raise InspectorError(misfit, node=name)
    state.workbench.set_input_shapes(shapes)
    return shapes
