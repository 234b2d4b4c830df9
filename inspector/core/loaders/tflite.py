"""TensorFlow Lite models (.tflite FlatBuffers, "TFL3"), read without TensorFlow into a
read-only graph: one node per operator (op = its builtin name, e.g. CONV_2D, or its custom
code, e.g. FlexMatrixDeterminant), named after its output tensor (the converter names tensors
after the GraphDef nodes fused into them, ';'-joined: the node keeps the first and lists all),
inputs as placeholders, constant tensors as Const nodes whose bytes stay in the file until
someone looks at them, and each tensor's quantization (scale, zero point, per-channel axis)
as attributes. Field numbers follow tensorflow/lite/schema/schema.fbs."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources

from inspector.core.errors import ModelLoadError
from inspector.core.loaders.tflite_bytes import measure
from inspector.core.model.flatbuf import Buffer
from inspector.core.model.tflite_calls import call_problem, called, op_code

IDENTIFIERS = (b"TFL3", b"TFL2")
# TFLite tensor type name -> TF DataType enum (for attributes and sizes)
TF_DTYPES = {"FLOAT32": 1, "FLOAT64": 2, "INT32": 3, "UINT8": 4, "INT16": 5, "INT8": 6,
             "STRING": 7, "COMPLEX64": 8, "INT64": 9, "BOOL": 10, "BFLOAT16": 14,
             "UINT16": 17, "COMPLEX128": 18, "FLOAT16": 19, "RESOURCE": 20, "VARIANT": 21,
             "UINT32": 22, "UINT64": 23, "INT4": 29}


@lru_cache(maxsize=1)
def _codes() -> tuple[dict, dict]:
    ops, types = {}, {}
    text = resources.files("inspector.core.loaders").joinpath("tflite_codes.txt").read_text()
    for line in text.splitlines():
        if line and not line.startswith("#"):
            kind, code, name = line.split()
            (ops if kind == "op" else types)[int(code)] = name
    return ops, types


@dataclass
class Tensor:
    index: int
    name: str
    dtype: str
    shape: list
    buffer: int
    scales: list = field(default_factory=list)
    zero_points: list = field(default_factory=list)
    axis: int = 0
    data: tuple = (0, 0)          # (offset in the file, length) of its constant bytes
    variable: bool = False
    shape_signature: list = field(default_factory=list)   # -1: a dimension known at run time
    file_bytes: int = 0           # bytes of the file it takes (tflite_bytes.tensor_bytes)


@dataclass
class Operator:
    index: int
    op: str
    inputs: list
    outputs: list
    options: dict = field(default_factory=dict)   # the builtin options OPTIONS reads
    file_bytes: int = 0           # bytes of the file it takes (tflite_bytes.operator_bytes)
    calls: list = field(default_factory=list)     # the subgraphs it calls (WHILE, IF, ...)


ACTIVATIONS = {0: "NONE", 1: "RELU", 2: "RELU_N1_TO_1", 3: "RELU6", 4: "TANH", 5: "SIGN_BIT"}
_POOL = (("padding", "b"), ("stride_w", "i"), ("stride_h", "i"), ("filter_width", "i"),
         ("filter_height", "i"), ("fused_activation_function", "b"))
_ACT = (("fused_activation_function", "b"),)
# builtin options read for the ops whose arithmetic or picture needs them, fields in
# schema.fbs order: (name, format)
OPTIONS = {
    "CONV_2D": (("padding", "b"), ("stride_w", "i"), ("stride_h", "i"),
                ("fused_activation_function", "b"), ("dilation_w_factor", "i"),
                ("dilation_h_factor", "i")),
    "DEPTHWISE_CONV_2D": (("padding", "b"), ("stride_w", "i"), ("stride_h", "i"),
                          ("depth_multiplier", "i"), ("fused_activation_function", "b"),
                          ("dilation_w_factor", "i"), ("dilation_h_factor", "i")),
    "TRANSPOSE_CONV": (("padding", "b"), ("stride_w", "i"), ("stride_h", "i"),
                       ("fused_activation_function", "b")),
    "AVERAGE_POOL_2D": _POOL, "MAX_POOL_2D": _POOL, "L2_POOL_2D": _POOL,
    "FULLY_CONNECTED": _ACT, "ADD": _ACT, "SUB": _ACT, "MUL": _ACT, "DIV": _ACT,
    "CONCATENATION": (("axis", "i"), ("fused_activation_function", "b")),
    "BATCH_MATMUL": (("adj_x", "?"), ("adj_y", "?")),
}


def _options(op: str, o) -> dict:
    fields = OPTIONS.get(op)
    table = o.table(4) if fields else None
    if table is None:
        return {}
    out = {name: table.scalar(k, fmt, 1 if name.startswith("dilation") else 0)
           for k, (name, fmt) in enumerate(fields)}
    if "padding" in out:
        out["padding"] = "VALID" if out["padding"] == 1 else "SAME"
    if "fused_activation_function" in out:
        out["fused_activation_function"] = ACTIVATIONS.get(out["fused_activation_function"],
                                                           "NONE")
    return out


@dataclass
class Subgraph:
    name: str
    tensors: list
    operators: list
    inputs: list
    outputs: list


@dataclass
class TFLiteModel:
    version: int
    description: str
    subgraphs: list
    buffer_count: int
    signatures: list = field(default_factory=list)   # (key, {input name: tensor index}, ...)
    signature_subgraphs: list = field(default_factory=list)   # each signature's subgraph
    calls: str = ""     # '' or why LiteRT cannot prepare it (a subgraph calling itself)
    sized: bool = False  # its tensors' and operators' file_bytes are set (tflite_bytes)

    def op_histogram(self) -> Counter:
        return Counter(o.op for g in self.subgraphs for o in g.operators)


def is_tflite(head: bytes) -> bool:
    return len(head) >= 8 and head[4:8] in IDENTIFIERS


def _buffers(model, buf) -> list:
    """(offset, length) of every buffer's bytes: inline data, or offset/size past 2 GB."""
    spans = []
    for b in model.tables(4):
        start, n = b.bytes_span(0)
        if not n:
            offset, size = b.scalar(1, "Q"), b.scalar(2, "Q")
            if offset > 1 and size:
                if offset + size > buf.size:
                    buf.fail(f"buffer {len(spans)} lies past the end of the file")
                start, n = offset, size
        spans.append((start, n))
    return spans


def _tensor(k: int, t, spans: list, types: dict, buf) -> Tensor:
    ttype = t.scalar(1, "b")
    b = t.scalar(2, "I")
    if b >= len(spans) and b:
        buf.fail(f"tensor {k} names buffer {b}, which does not exist")
    q = t.table(4)
    tensor = Tensor(k, t.string(3), types.get(ttype, f"type{ttype}"), t.scalars(0, "i"), b,
                    variable=bool(t.scalar(5, "?", False)))
    if q is not None:
        tensor.scales, tensor.zero_points = q.scalars(2, "f"), q.scalars(3, "q")
        tensor.axis = q.scalar(6, "i")
    tensor.data = spans[b] if b else (0, 0)
    tensor.shape_signature = t.scalars(7, "i")
    return tensor


def read_model(data, path: str) -> TFLiteModel:
    if not is_tflite(bytes(data[:8])):
        raise ModelLoadError("not a TensorFlow Lite model (no TFL3 identifier)", path=path)
    ops_by_code, types = _codes()
    buf = Buffer(data, path, "TensorFlow Lite file")
    model = buf.root()
    codes, numbers = [], []
    for c in model.tables(1):
        code = op_code(c)           # the deprecated byte or the new int
        custom = c.string(1)
        codes.append(custom or ops_by_code.get(code, f"BUILTIN_{code}"))
        numbers.append(-1 if custom else code)
    spans = _buffers(model, buf)
    subgraphs = []
    for g in model.tables(2):
        tensors = [_tensor(k, t, spans, types, buf) for k, t in enumerate(g.tables(0))]
        operators = []
        for k, o in enumerate(g.tables(3)):
            index = o.scalar(0, "I")
            if index >= len(codes):
                buf.fail(f"operator {k} uses operator code {index} of {len(codes)}")
            ins, outs = o.scalars(1, "i"), o.scalars(2, "i")
            if any(i >= len(tensors) or i < -1 for i in ins + outs):
                buf.fail(f"operator {k} ({codes[index]}) names a tensor that does not exist")
            operators.append(Operator(k, codes[index], ins, outs,
                                      _options(codes[index], o)))
            operators[-1].calls = called(numbers[index], o)
        ins, outs = g.scalars(1, "i"), g.scalars(2, "i")
        if any(i >= len(tensors) or i < 0 for i in ins + outs):
            buf.fail("a subgraph input or output names a tensor that does not exist")
        subgraphs.append(Subgraph(g.string(4), tensors, operators, ins, outs))
    if not subgraphs:
        buf.fail("the model has no subgraph")
    signatures, owners = [], []
    for s in model.tables(7):
        signatures.append((s.string(2), {m.string(0): m.scalar(1, "I") for m in s.tables(0)},
                           {m.string(0): m.scalar(1, "I") for m in s.tables(1)}))
        owners.append(s.scalar(4, "I"))
    found = TFLiteModel(model.scalar(0, "I"), model.string(3), subgraphs, len(spans),
                        signatures, owners)
    found.calls = call_problem([[(o.index, o.op, o.calls) for o in g.operators]
                                for g in subgraphs])
    found.sized = measure(model, subgraphs)
    return found


def describe(model: TFLiteModel, limit: int = 15) -> str:
    """Ops, quantized tensors and the biggest buffers, as text."""
    main = model.subgraphs[0]
    lines = [f"TensorFlow Lite model, schema version {model.version}"
             + (f" ({model.description})" if model.description else ""),
             f"{len(model.subgraphs)} subgraph(s); main: {len(main.operators):,} operators, "
             f"{len(main.tensors):,} tensors, {model.buffer_count:,} buffers", "", "Operators:"]
    for op, n in model.op_histogram().most_common():
        lines.append(f"  {n:6,d}  {op}")
    quant = [t for t in main.tensors if t.scales]
    lines += ["", f"Quantized tensors ({len(quant):,}):"]
    for t in quant[:limit]:
        scale = f"scale {t.scales[0]:.6g}" if len(t.scales) == 1 else \
            f"{len(t.scales)} scales on axis {t.axis} ({min(t.scales):.3g} to " \
            f"{max(t.scales):.3g})"
        zero = t.zero_points[0] if len(set(t.zero_points)) == 1 else "per channel"
        lines.append(f"  {t.dtype:<8} {str(t.shape):<18} {scale}, zero point {zero}  "
                     f"{t.name}")
    biggest = sorted((t for t in main.tensors if t.data[1]), key=lambda t: -t.data[1])
    lines += ["", "Biggest buffers:"]
    for t in biggest[:limit]:
        lines.append(f"  {t.data[1]:12,d} B  {t.dtype:<8} {str(t.shape):<18} {t.name}")
    return "\n".join(lines) + "\n"

