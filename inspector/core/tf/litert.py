"""LiteRT (ai-edge-litert) as the interpreter of every .tflite we run, ai-edge-quantizer's
recipes on a float .tflite, every tensor of a run (for per-tensor error) and the time of a run
on this machine. TensorFlow's deprecated tf.lite.Interpreter is used only where LiteRT cannot:
when LiteRT is not installed, and for Select-TF-ops (Flex) models, which LiteRT 2.3 has no
flex delegate for; the result then says which interpreter ran and why. These packages run
where TensorFlow runs (the worker, the CLI), never in the window's process."""

from __future__ import annotations

import contextlib
import hashlib
import io
import time
import warnings

from inspector.core.errors import InspectorError
from inspector.core.model.tflite_calls import check_calls, check_scales
from inspector.core.runtime.job import Job, of
from inspector.core.tf.runtime import _quiet_stderr, first_line, tf

LITERT_MISSING = "LiteRT is not installed: pip install ai-edge-litert"
QUANTIZER_MISSING = "ai-edge-quantizer is not installed: pip install ai-edge-quantizer"
_KEPT: dict = {}          # (digest, preserve) -> interpreter, the last few kept for re-runs


def litert_version() -> str | None:
    try:
        from importlib.metadata import version

        return version("ai-edge-litert")
    except Exception:  # noqa: BLE001  (not installed)
        return None


def _custom_codes(model: bytes) -> list:
    """The custom op codes of a .tflite (Flex<Op> for Select TF ops), from its flatbuffer."""
    tf()
    from tensorflow.lite.python import schema_py_generated as schema

    root = schema.Model.GetRootAs(model, 0)   # reads only the op codes, not the buffers
    codes = (root.OperatorCodes(k).CustomCode() for k in range(root.OperatorCodesLength()))
    return [c.decode() for c in codes if c]


def flex_codes(model: bytes) -> list:
    """The Select-TF-ops custom codes (Flex<Op>) of a .tflite, read from its flatbuffer."""
    return [c for c in _custom_codes(model) if c.startswith("Flex")]


@contextlib.contextmanager
def _quiet_python():
    with warnings.catch_warnings():   # the converter's MLIR notes go to fd 2 from C++
        warnings.simplefilter("ignore")
        with contextlib.redirect_stdout(io.StringIO()), _quiet_stderr():
            yield


def _quiet():
    return _quiet_python()


def refuse_cycles(model: bytes) -> None:
    """Raise InspectorError for a .tflite LiteRT could not prepare without crashing (a
    subgraph calling itself: its stack runs out; a quantization scale of 0: it aborts;
    model.tflite_calls)."""
    found = check_calls(model) or check_scales(model)
    if found:
        raise InspectorError(f"LiteRT cannot run this model: {found}")


def _litert(model: bytes, preserve: bool, delegates: bool):
    from ai_edge_litert.interpreter import Interpreter, OpResolverType

    resolver = OpResolverType.AUTO if delegates else \
        OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES
    return Interpreter(model_content=model, experimental_op_resolver_type=resolver,
                       experimental_preserve_all_tensors=preserve)


def _tf_interpreter(model: bytes, preserve: bool, delegates: bool):
    t = tf()
    from tensorflow.lite.python.interpreter import OpResolverType

    resolver = OpResolverType.AUTO if delegates else \
        OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES
    return t.lite.Interpreter(model_content=model, experimental_op_resolver_type=resolver,
                              experimental_preserve_all_tensors=preserve)


def interpreter(model: bytes, preserve: bool = False, delegates: bool = True,
                allocate: bool = False) -> tuple:
    """(interpreter, engine sentence): LiteRT, or TensorFlow's interpreter where LiteRT cannot
    (not installed; a model with Select TF ops). `preserve` keeps every tensor readable after
    invoke (and leaves XNNPACK out, which would fuse them away)."""
    refuse_cycles(model)    # a subgraph calling itself: LiteRT's stack would run out
    version = litert_version()
    flex = flex_codes(model)
    if version and not flex:
        makers = [(_litert, f"LiteRT {version}")]
    elif version:
        makers = [(_tf_interpreter, f"TensorFlow's tf.lite.Interpreter (LiteRT {version} "
                                    "has no Select TF ops delegate)")]
    else:
        makers = [(_tf_interpreter, f"TensorFlow's tf.lite.Interpreter ({LITERT_MISSING})")]
    make, engine = makers[0]
    with _quiet():
        try:
            interp = make(model, preserve, delegates)
        except Exception as exc:  # noqa: BLE001
            raise InspectorError(f"the TFLite interpreter refused the model: "
                                 f"{first_line(exc)}") from None
        if allocate:
            try:
                interp.allocate_tensors()
            except Exception as exc:  # noqa: BLE001
                if flex:
                    raise InspectorError(no_flex_message(flex, version)) from None
                raise InspectorError(f"the TFLite interpreter cannot prepare the model: "
                                     f"{first_line(exc)}") from None
    return interp, engine


def invoke(interp, model: bytes) -> None:
    """interp.invoke(), its refusal an InspectorError: a model that needs Select TF ops may
    allocate (dynamic shapes, a WHILE) and fail only here (the TF.js SSD hand detector
    converted: a traceback ended `tflite`)."""
    try:
        interp.invoke()
    except RuntimeError as exc:
        flex = flex_codes(model)
        raise InspectorError(no_flex_message(flex, litert_version()) if flex else
                             f"the TFLite interpreter failed to run the model: "
                             f"{first_line(exc)}") from None


def no_flex_message(flex: list, version: str | None) -> str:
    """What the panel and the CLI say when a Select-TF-ops model cannot run here."""
    ops = ", ".join(sorted({c[4:] for c in flex}))
    litert = f"LiteRT {version} (ai-edge-litert) has no Select TF ops (flex) delegate" \
        if version else LITERT_MISSING
    return (f"cannot run it here: {litert}, and TensorFlow {tf().__version__}'s "
            f"tf.lite.Interpreter has none linked either; Select TF ops {ops} run only where "
            "the flex delegate is (Android: tensorflow-lite-select-tf-ops)")


def kept(model: bytes, preserve: bool = False) -> tuple:
    """An allocated interpreter for `model`, kept for the next call on the same bytes."""
    key = (hashlib.blake2b(model, digest_size=16).digest(), preserve)
    if key not in _KEPT:
        while len(_KEPT) >= 4:
            _KEPT.pop(next(iter(_KEPT)))
        _KEPT[key] = interpreter(model, preserve=preserve, delegates=not preserve,
                                 allocate=True)
    return _KEPT[key]


def tflite_prepare(model: bytes) -> dict:
    """Whether LiteRT can prepare the model with its default delegate (XNNPACK) and with its
    builtin kernels alone (what per-tensor figures use): {"default": problem or "",
    "builtin": problem or ""} (a file one of them refuses fails on some runtimes)."""
    out = {}
    for key, preserve in (("default", False), ("builtin", True)):
        try:
            kept(model, preserve=preserve)
            out[key] = ""
        except InspectorError as exc:
            out[key] = exc.one_line()
    return out


def _feed(interp, feeds: list) -> None:
    import numpy as np

    for detail, value in zip(interp.get_input_details(), feeds):
        value = np.asarray(value)
        if tuple(detail["shape"]) != value.shape:
            interp.resize_tensor_input(detail["index"], value.shape)
            interp.allocate_tensors()
        scale, zero = detail["quantization"]
        if detail["dtype"] in (np.int8, np.uint8, np.int16) and scale and \
                value.dtype.kind == "f":      # real values; integers come quantized already
            info = np.iinfo(detail["dtype"])
            value = np.clip(np.round(value / scale + zero), info.min, info.max)
        interp.set_tensor(detail["index"], value.astype(detail["dtype"]))


def dequantized(interp, detail) -> "object":
    """A tensor's value as float32 (int8/int16/uint8 ones through their scale and zero
    point, per-tensor; per-channel ones along their axis)."""
    import numpy as np

    value = interp.get_tensor(detail["index"])
    params = detail.get("quantization_parameters") or {}
    scales = np.asarray(params.get("scales", []), np.float32)
    zeros = np.asarray(params.get("zero_points", []), np.float32)
    if value.dtype in (np.int8, np.uint8, np.int16, np.int32) and scales.size:
        if scales.size > 1:
            axis = int(params.get("quantized_dimension", 0))
            shape = [1] * value.ndim
            shape[axis] = scales.size
            scales, zeros = scales.reshape(shape), zeros.reshape(shape)
        return ((value.astype(np.float32) - zeros) * scales).astype(np.float32)
    return np.array(value, dtype=np.float32, copy=True)


def tflite_tensors(model: bytes, feeds_list: list, names: list | None = None,
                   job: Job | None = None) -> tuple:
    """Every (or the named) tensor of the main subgraph after each run, as float32 (quantized
    ones dequantized): ({tensor name: [array per feed list]}, engine). Runs without XNNPACK
    so that no tensor is fused away."""
    interp, engine = kept(model, preserve=True)
    details = [d for d in interp.get_tensor_details()
               if names is None or d["name"] in names]
    out: dict = {d["name"]: [] for d in details}
    for feeds in feeds_list:
        of(job).check()
        _feed(interp, feeds)
        invoke(interp, model)
        for d in details:
            try:
                out[d["name"]].append(dequantized(interp, d))
            except ValueError:          # a tensor with no data (optional input)
                out.pop(d["name"], None)
    return out, engine


def tflite_host_ms(model: bytes, feeds: list, runs: int = 10) -> tuple:
    """(median ms of one invoke on this machine, engine) with the default delegates."""
    interp, engine = kept(model)
    _feed(interp, feeds)
    invoke(interp, model)                 # warm-up
    times = []
    for _ in range(max(1, runs)):
        start = time.perf_counter()
        invoke(interp, model)
        times.append((time.perf_counter() - start) * 1000.0)
    times.sort()
    return times[len(times) // 2], engine


def with_signature(model: bytes) -> bytes:
    """The model with a 'serving_default' signature over its main subgraph's inputs and
    outputs when it has none (the converter gives none from concrete functions;
    ai-edge-quantizer's calibration asks for one)."""
    from ai_edge_litert import schema_py_generated as schema
    from ai_edge_litert.tools import flatbuffer_utils as fb

    root = fb.convert_bytearray_to_object(bytearray(model))
    if root.signatureDefs:
        return model
    main = root.subgraphs[0]

    def maps(indices):
        return [schema.TensorMapT(name=main.tensors[i].name.decode()
                                  if isinstance(main.tensors[i].name, bytes)
                                  else main.tensors[i].name, tensorIndex=int(i))
                for i in indices]
    root.signatureDefs = [schema.SignatureDefT(inputs=maps(main.inputs),
                                               outputs=maps(main.outputs),
                                               signatureKey="serving_default",
                                               subgraphIndex=0)]
    return bytes(fb.convert_object_to_bytearray(root))


def tflite_quantize(model: bytes, recipe: list, calibration: list | None = None,
                    job: Job | None = None) -> bytes:
    """ai-edge-quantizer on a float .tflite: `recipe` is its JSON recipe (a list of
    {regex, operation, algorithm_key, op_config}); `calibration` a list of input lists (in the
    model's input order) for recipes that quantize activations."""
    try:
        from ai_edge_quantizer import quantizer
    except ImportError as exc:           # the quantizer, or LiteRT under it
        missing = LITERT_MISSING if "ai_edge_litert" in str(getattr(exc, "name", "") or exc) \
            else QUANTIZER_MISSING
        raise InspectorError(missing) from None
    model = with_signature(model)
    with _quiet():
        try:
            qz = quantizer.Quantizer(bytearray(model), recipe)
            found = None
            if qz.need_calibration:
                if not calibration:
                    raise InspectorError("this recipe quantizes activations: it needs "
                                         "calibration data")
                interp, _ = interpreter(model)
                signature = interp.get_signature_list()["serving_default"]["inputs"]
                names = {d["index"]: d["name"] for d in interp.get_input_details()}
                order = [names[i] for i in sorted(names)]
                runner = interp.get_signature_runner("serving_default")
                keys = {runner.get_input_details()[k]["index"]: k for k in signature}
                by_name = [keys.get(i, n) for i, n in zip(sorted(names), order)]
                of(job).check()
                found = qz.calibrate({"serving_default": [dict(zip(by_name, feeds))
                                                          for feeds in calibration]})
            of(job).check()
            result = qz.quantize(found, enable_progress_report=False)
        except InspectorError:
            raise
        except Exception as exc:  # noqa: BLE001  (ValueError, RuntimeError of the quantizer)
            raise InspectorError(f"ai-edge-quantizer failed: {first_line(exc)}") from None
    return bytes(result.quantized_model)
