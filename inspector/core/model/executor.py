"""Who runs TensorFlow work. Code above the TF layer never imports TensorFlow or the TF layer:
it asks `tensorflow()` for the current executor and calls one of OPERATIONS on it. The command
line and the tests install an in-process executor (inspector.core.tf.executor); the app
installs one that sends the work to its TensorFlow worker process. Same code, either way."""

from __future__ import annotations

import contextlib
import threading

from inspector.core.errors import TensorFlowUnavailable

# name -> what it returns (arguments are GraphDef messages, names, dicts and numpy arrays)
OPERATIONS = {
    "available": "bool: TensorFlow can be imported",
    "tf_version": "str: the version of the TensorFlow that runs the work",
    "freeze_saved_model": "(GraphDef, inputs, outputs, note on how) of one signature, frozen",
    "freeze_keras": "(GraphDef, inputs, outputs, note on how) of a Keras file, frozen",
    "freeze_metagraph": "GraphDef of a .meta restored from a checkpoint and frozen",
    "stateful_ops": "set of the given op types TF registers as stateful (or does not know)",
    "default_attrs": "{op: {attr: serialized default AttrValue}}",
    "evaluate_tensors": "values of tensors of a pure, constant graph",
    "run_native_transform": "GraphDef after TF's own graph transform engine",
    "optimize_for_inference": "GraphDef after TF's optimize_for_inference",
    "infer_shapes": "{node: [output shape, ...]} from TF's shape inference",
    "profiler_float_ops": "int: tf.compat.v1.profiler's float operations",
    "output_types": "{node: [output dtype enum, ...]}",
    "op_doc": "str or None: the first paragraph of TF's tf.raw_ops docstring of an op",
    "io_types": "{node: ([input dtype enums], [output dtype enums])}",
    "run_graph": "list of fetched arrays after one run",
    "run_cached": "run_graph, the session kept for the next run on the same GraphDef object",
    "forget_sessions": "None: close the session run_cached kept, drop kept shape answers",
    "run_many": "one list of fetched arrays per feed dict, all in one session",
    "profile_runs": "(untraced µs, traced µs, serialized StepStats) of profiled runs",
    "convert_tflite": "{model: .tflite bytes or None, errors: [{code, message, op, nodes}]}",
    "tflite_details": "{inputs, outputs: [{name, dtype, shape, scale, zero_point}], ops, engine}",
    "tflite_run": "(one list of float output arrays per input list, interpreter name)",
    "tflite_analyze": "str: TF's TFLite model analyzer report with GPU compatibility",
    "tflite_layers": "{ops: [{index, op, inputs, outputs}], tensors: [{index, name, dtype, "
                     "shape, scales, zero_points, axis}]} of a .tflite",
    "quantization_debug": "{tflite tensor name: {max_abs_error, mean_squared_error, ...}} "
                          "from TF's QuantizationDebugger on a full-int8 conversion",
    "flex_allowlist": "sorted list of the TF ops this build's Select-TF-ops delegate runs",
    "kernel_classes": "[(op, kernel class or None)] of NodeDefs from TF's kernel registry",
    "parse_text": "binary serialization of a text GraphDef/MetaGraphDef/SavedModel (not TF, "
                  "but slow pure Python: the app runs it in its worker, off the window's way)",
}

_current = None
_local = threading.local()


@contextlib.contextmanager
def cancel_scope(event):
    """TensorFlow work started on this thread inside the block is cancelled by `event` (the
    task runner opens one per task; a worker executor kills a run that is cancelled)."""
    previous = getattr(_local, "cancel", None)
    _local.cancel = event
    try:
        yield
    finally:
        _local.cancel = previous


def current_cancel():
    """The cancel flag of the task running on this thread, or None."""
    return getattr(_local, "cancel", None)


def use(executor):
    """Install the process-wide TensorFlow executor; returns the previous one."""
    global _current
    previous, _current = _current, executor
    return previous


def installed():
    """The current executor, or None (never raises)."""
    return _current


def tensorflow():
    """The current executor (raises when none is installed: nothing imports TF silently)."""
    if _current is None:
        raise TensorFlowUnavailable("this needs TensorFlow, and no TensorFlow executor is set "
                                    "up in this process")
    return _current
