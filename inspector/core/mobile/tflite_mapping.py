"""TFLite <-> GraphDef: the converter names each TFLite tensor after the GraphDef nodes fused
into the op that makes it, joined by ';' (e.g. "relu;bn/add_1;conv/convolution"), so every
TFLite op maps to its nodes, and nodes that share an op were merged into it (Conv + BN +
Relu). What maps to no node (QUANTIZE / DEQUANTIZE the converter adds, constants folded away)
is listed rather than guessed. Per-layer quantization errors and per-channel weight scales
are attached to the ops when known."""

from __future__ import annotations

from dataclasses import dataclass, field

# Ops the converter adds around quantized parts, with no GraphDef node behind them.
ADDED_OPS = frozenset({"QUANTIZE", "DEQUANTIZE"})


@dataclass
class OpMap:
    index: int
    op: str
    tensor: str                         # its first output tensor's name
    nodes: list = field(default_factory=list)      # GraphDef nodes fused into it
    max_abs_error: float | None = None  # QuantizationDebugger, full int8 against float
    mean_squared_error: float | None = None
    weight_scales: tuple = ()           # (channels, smallest scale, largest scale)


@dataclass
class Mapping:
    ops: list                           # OpMap in the model's order
    unmapped_ops: list                  # OpMap with no node (added by the converter)
    merged: dict                        # node -> index of the op it was merged into

    def worst_first(self) -> list:
        return sorted(self.ops, key=lambda m: (m.max_abs_error is None,
                                               -(m.max_abs_error or 0.0), m.index))

    def op_of(self, node: str) -> OpMap | None:
        return next((m for m in self.ops if node in m.nodes), None)


def nodes_of(tensor: str, names, uniquified: bool = False) -> list:
    """GraphDef nodes named in a TFLite tensor name (';'-joined; ':N' ports dropped); with
    `uniquified`, a name the converter made unique with digits ("dw/depthwise2") too."""
    found = []
    for part in tensor.split(";"):
        name = part.split(":")[0]
        if uniquified and name not in names:
            name = _known_name(name, names) or name
        if name in names and name not in found:
            found.append(name)
    return found


def _known_name(name: str, known) -> str | None:
    """A debug model's tensor name made unique with digits ("sub11") -> the model's."""
    while name:
        if name in known:
            return name
        if not name[-1].isdigit():
            return None
        name = name[:-1]
    return None


def map_model(layers: dict, names, errors: dict | None = None) -> Mapping:
    """Map a .tflite's ops (lite.tflite_layers) onto the graph's node `names`; `errors` from
    lite.quantization_debug are attached to the op whose output tensor they measure."""
    tensors = {t["index"]: t for t in layers["tensors"]}
    by_name = {t["name"]: t for t in layers["tensors"]}
    ops, unmapped, merged = [], [], {}
    for op in layers["ops"]:
        if op["op"] == "DELEGATE":
            continue
        outs = [tensors[i]["name"] for i in op["outputs"] if i in tensors]
        nodes = []
        for tensor in outs:
            nodes += [n for n in nodes_of(tensor, names) if n not in nodes]
        m = OpMap(op["index"], op["op"], outs[0] if outs else "", nodes)
        weights = [tensors[i] for i in op["inputs"] if i in tensors and
                   len(tensors[i]["scales"]) > 1]             # per-channel quantized
        weights.sort(key=lambda t: t["dtype"] not in ("int8", "uint8", "int4"))  # not bias
        if weights:
            scales = weights[0]["scales"]
            m.weight_scales = (len(scales), min(scales), max(scales))
        added = op["op"] in ADDED_OPS
        (ops if nodes and not added else unmapped).append(m)
        if len(nodes) > 1 and not added:
            for n in nodes:
                merged[n] = m.index
    if errors:
        by_tensor = {m.tensor: m for m in ops + unmapped}
        for name, stats in errors.items():
            known = _known_name(name, by_name)
            m = by_tensor.get(known) if known else None
            if m is not None:
                m.max_abs_error = stats.get("max_abs_error")
                m.mean_squared_error = stats.get("mean_squared_error")
    return Mapping(ops, unmapped, merged)
