"""TensorFlow Lite through the installed TensorFlow: the converter (with its located errors),
the interpreter, TF's model analyzer, the flex allowlist compiled into TensorFlow, and the
kernel classes TensorFlow registers for nodes (for selective registration headers)."""

from __future__ import annotations

import contextlib
import ctypes
import io
import logging
import os

from inspector.core.errors import InspectorError
from inspector.core.model import safety
from inspector.core.runtime.job import Job, of
from inspector.core.tf.litert import _custom_codes, _quiet_python, interpreter, invoke
from inspector.core.tf.runtime import first_line, serialized, tf, to_tf

VARIANTS = ("float", "dynamic", "float16", "int8")


def _concrete_function(graph_def, inputs: list, outputs: list, input_shapes: dict | None):
    t = tf()

    def body():
        t.compat.v1.import_graph_def(to_tf(graph_def), name="")

    wrapped = t.compat.v1.wrap_function(body, [])
    graph = wrapped.graph
    feeds = []
    for name in inputs:
        tensor = graph.get_tensor_by_name(name if ":" in name else name + ":0")
        shape = (input_shapes or {}).get(name.split(":")[0])
        if shape is not None:
            tensor.set_shape(shape)
        elif tensor.shape.rank is not None and tensor.shape.rank > 0 and \
                tensor.shape[0] is None:   # one example at a time, as a phone feeds it
            tensor.set_shape([1] + tensor.shape.as_list()[1:])
        feeds.append(tensor)
    fetches = [graph.get_tensor_by_name(n if ":" in n else n + ":0") for n in outputs]
    return wrapped.prune(feeds, fetches)


def _located(error_data) -> list:
    """Node names a ConverterErrorData's location holds (name and call-site locations)."""
    names = []

    def visit(loc):
        if loc is None:
            return
        for call in getattr(loc, "call", []):
            if call.name and call.name not in names:
                names.append(call.name)
        name = getattr(loc, "name", "")
        if isinstance(name, str) and name and name not in names:
            names.append(name)
    visit(error_data.location)
    return names


def _converter_errors(exc) -> list:
    out = []
    for data in getattr(exc, "errors", []) or []:
        message = data.error_message.split("\n")[0].strip()
        code = type(data).ErrorCode.Name(data.error_code) if data.error_code else ""
        out.append({"code": code, "message": message, "op": data.operator.name,
                    "nodes": _located(data)})
    if not out:
        out.append({"code": "", "message": first_line(exc), "op": "", "nodes": []})
    return out


@serialized
def convert_tflite(graph_def, inputs: list, outputs: list, variant: str = "float",
                   select_tf_ops: bool = False, allow_custom_ops: bool = False,
                   representative: list | None = None, input_shapes: dict | None = None,
                   allow_unsafe: bool = False) -> dict:
    """Convert a frozen graph to a .tflite flatbuffer. Returns {"model": bytes or None,
    "errors": [{code, message, op, nodes}]}. Conversion folds constants and, for int8, runs
    the model on the representative inputs: only graphs of pure computation (or with the
    user's yes). `representative` is a list of feed dicts (input name -> array)."""
    if variant not in VARIANTS:
        raise InspectorError(f"unknown TFLite variant '{variant}' (choose from "
                             f"{', '.join(VARIANTS)})")
    safety.require_safe(graph_def, outputs, inputs, allow=allow_unsafe,
                        what="the graph", action="convert it")
    t = tf()
    try:
        fn = _concrete_function(graph_def, inputs, outputs, input_shapes)
    except Exception as exc:  # noqa: BLE001  (names that are not in the graph, bad shapes)
        raise InspectorError(f"cannot prepare the graph for the converter: {first_line(exc)}") \
            from None

    logging.getLogger("absl").setLevel(logging.ERROR)   # "consider providing trackable_obj"
    converter = t.lite.TFLiteConverter.from_concrete_functions([fn])
    ops = [t.lite.OpsSet.TFLITE_BUILTINS]
    if variant in ("dynamic", "float16", "int8"):
        converter.optimizations = [t.lite.Optimize.DEFAULT]
    if variant == "float16":
        converter.target_spec.supported_types = [t.float16]
    if variant == "int8":
        if not representative:
            raise InspectorError("full int8 conversion needs representative inputs")
        samples = [[feeds[name.split(":")[0]] for name in inputs] for feeds in representative]
        converter.representative_dataset = lambda: iter(samples)
        ops = [t.lite.OpsSet.TFLITE_BUILTINS_INT8]
        converter.inference_input_type = t.int8
        converter.inference_output_type = t.int8
    if select_tf_ops:
        ops.append(t.lite.OpsSet.SELECT_TF_OPS)
    converter.target_spec.supported_ops = ops
    converter.allow_custom_ops = allow_custom_ops
    try:
        with _quiet_python():
            model = converter.convert()
    except Exception as exc:  # noqa: BLE001  (ConverterError and friends)
        return {"model": None, "errors": _converter_errors(exc)}
    return {"model": bytes(model), "errors": []}


def _interpreter(model: bytes):
    """LiteRT (TensorFlow's own interpreter only where LiteRT cannot: see litert.py)."""
    return interpreter(model)


def _port(detail) -> dict:
    scale, zero = detail.get("quantization", (0.0, 0))
    return {"name": detail["name"], "dtype": detail["dtype"].__name__,
            "shape": [int(d) for d in detail["shape"]], "scale": float(scale),
            "zero_point": int(zero)}


def tflite_details(model: bytes) -> dict:
    """Inputs and outputs (dtype, shape, scale, zero point), the op names in order and the
    custom op codes."""
    interp, engine = _interpreter(model)
    return {"inputs": [_port(d) for d in interp.get_input_details()],
            "outputs": [_port(d) for d in interp.get_output_details()],
            "ops": [o["op_name"] for o in interp._get_ops_details()],
            "custom": _custom_codes(model), "engine": engine}


def _allocate(interp, model: bytes) -> None:
    from inspector.core.tf.litert import flex_codes, litert_version, no_flex_message

    try:
        with _quiet_python():
            interp.allocate_tensors()
    except Exception as exc:  # noqa: BLE001
        flex = flex_codes(model)
        if flex:
            raise InspectorError(no_flex_message(flex, litert_version())) from None
        raise InspectorError(f"the TFLite interpreter cannot prepare the model: "
                             f"{first_line(exc)}") from None


def tflite_run(model: bytes, feeds_list: list, job: Job | None = None) -> tuple[list, str]:
    """Run a .tflite model once per feed list (arrays in input order, float values: int8
    models are quantized here with their own scale and zero point, and their outputs
    dequantized). Returns (one list of float output arrays per feed list, engine name)."""
    import numpy as np

    interp, engine = _interpreter(model)
    _allocate(interp, model)
    ins, outs = interp.get_input_details(), interp.get_output_details()
    results = []
    for feeds in feeds_list:
        of(job).check()
        for detail, value in zip(ins, feeds):
            value = np.asarray(value)
            if tuple(detail["shape"]) != value.shape:
                interp.resize_tensor_input(detail["index"], value.shape)
                _allocate(interp, model)
            scale, zero = detail["quantization"]
            if detail["dtype"] in (np.int8, np.uint8, np.int16) and scale and \
                    value.dtype.kind == "f":      # integers come quantized already
                info = np.iinfo(detail["dtype"])
                value = np.clip(np.round(value / scale + zero), info.min, info.max)
            interp.set_tensor(detail["index"], value.astype(detail["dtype"]))
        invoke(interp, model)
        row = []
        for detail in outs:
            value = interp.get_tensor(detail["index"])
            scale, zero = detail["quantization"]
            if detail["dtype"] in (np.int8, np.uint8, np.int16) and scale:
                value = (value.astype(np.float32) - zero) * scale
            row.append(np.array(value, dtype=np.float32, copy=True))
        results.append(row)
    return results, engine


def tflite_analyze(model: bytes) -> str:
    """TF's model analyzer report with GPU-delegate compatibility (its printed text)."""
    t = tf()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        t.lite.experimental.Analyzer.analyze(model_content=model, gpu_compatibility=True)
    return out.getvalue()


_FLEX_SYMBOL = "_ZN6tflite4flex16GetFlexAllowlistB5cxx11Ev"


def flex_allowlist() -> list:
    """The TF ops the Select-TF-ops (flex) delegate of this TensorFlow build can run, read
    from the allowlist compiled into libtensorflow_cc (tflite::flex::GetFlexAllowlist, a
    std::set<std::string> walked in order with libstdc++'s red-black tree layout)."""
    t = tf()
    lib = ctypes.CDLL(os.path.join(os.path.dirname(t.__file__), "libtensorflow_cc.so.2"))
    get = getattr(lib, _FLEX_SYMBOL)
    get.restype = ctypes.c_void_p
    tree = get()
    ptr = lambda address: ctypes.c_void_p.from_address(address).value or 0  # noqa: E731
    header = tree + 8                     # after the (empty, padded) comparator
    count = ctypes.c_size_t.from_address(header + 32).value
    if not 0 < count < 100_000:
        raise InspectorError("cannot read the flex allowlist of this TensorFlow build")

    def text(node):
        base = node + 32                  # std::string after the 32-byte node header
        size = ctypes.c_size_t.from_address(base + 8).value
        return ctypes.string_at(ptr(base), size).decode()

    names, node = [], ptr(header + 16)    # leftmost node
    while node != header and len(names) <= count:
        names.append(text(node))
        right = ptr(node + 24)
        if right:
            node = right
            while ptr(node + 16):
                node = ptr(node + 16)
        else:
            parent = ptr(node + 8)
            while node == ptr(parent + 24):
                node, parent = parent, ptr(parent + 8)
            if ptr(node + 24) != parent:
                node = parent
    if len(names) != count or names != sorted(names):
        raise InspectorError("cannot read the flex allowlist of this TensorFlow build")
    return names


def kernel_classes(node_defs: list) -> list:
    """(op, kernel class or None) for each NodeDef, as TensorFlow's kernel registry of this
    build answers for the CPU (what print_selective_registration_header asks)."""
    tf()
    from tensorflow.python.util import _pywrap_kernel_registry

    out = []
    for node in node_defs:
        node = type(node).FromString(node.SerializeToString())
        if not node.device:
            node.device = "/cpu:0"
        found = _pywrap_kernel_registry.TryFindKernelClass(node.SerializeToString())
        out.append((node.op, found.decode() if found else None))
    return out


def _quant(detail) -> dict:
    params = detail.get("quantization_parameters") or {}
    scales = [float(s) for s in params.get("scales", [])]
    zeros = [int(z) for z in params.get("zero_points", [])]
    return {"scales": scales, "zero_points": zeros,
            "axis": int(params.get("quantized_dimension", 0))}


def tflite_layers(model: bytes) -> dict:
    """The operators (before any delegate takes them) and tensors of a .tflite: ops
    [{index, op, inputs, outputs}], tensors [{index, name, dtype, shape, scales,
    zero_points, axis}] (tensor names are the ;-joined names of the fused GraphDef nodes)."""
    interp, _ = _interpreter(model)
    ops = [{"index": int(o["index"]), "op": o["op_name"],
            "inputs": [int(i) for i in o["inputs"]], "outputs": [int(i) for i in o["outputs"]]}
           for o in interp._get_ops_details()]
    tensors = [dict({"index": int(d["index"]), "name": d["name"],
                     "dtype": d["dtype"].__name__, "shape": [int(x) for x in d["shape"]]},
                    **_quant(d)) for d in interp.get_tensor_details()]
    return {"ops": ops, "tensors": tensors}


@serialized
def quantization_debug(graph_def, inputs: list, outputs: list, representative: list,
                       input_shapes: dict | None = None, allow_unsafe: bool = False) -> dict:
    """TF's QuantizationDebugger on a full-int8 conversion: per quantized tensor (named as
    in the .tflite) its error against float on the representative inputs:
    {tensor name: {max_abs_error, mean_squared_error, mean_error, stddev, num_elements}}."""
    import numpy as np

    safety.require_safe(graph_def, outputs, inputs, allow=allow_unsafe,
                        what="the graph", action="quantize it")
    t = tf()
    fn = _concrete_function(graph_def, inputs, outputs, input_shapes)
    converter = t.lite.TFLiteConverter.from_concrete_functions([fn])
    converter.optimizations = [t.lite.Optimize.DEFAULT]
    samples = [[feeds[name.split(":")[0]] for name in inputs] for feeds in representative]
    converter.representative_dataset = lambda: iter(samples)
    try:
        with _quiet_python():
            debugger = t.lite.experimental.QuantizationDebugger(
                converter=converter, debug_dataset=lambda: iter(samples[:16]))
            debugger.run()
    except Exception as exc:  # noqa: BLE001
        raise InspectorError(f"TF's quantization debugger failed: {first_line(exc)}") from None
    out = {}
    for key, stats in debugger.layer_statistics.items():
        name = key[len("NumericVerify/"):] if key.startswith("NumericVerify/") else key
        name = name.rsplit(":", 1)[0]
        out[name] = {k: float(np.asarray(v)) for k, v in stats.items() if np.ndim(v) == 0}
    return out
