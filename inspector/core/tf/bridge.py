"""The only module that imports TensorFlow, lazily, for work that truly needs it."""

from __future__ import annotations

import os
import threading

from inspector.core.model import protos, safety
from inspector.core.errors import InspectorError, ModelLoadError, TensorFlowUnavailable


_IMPORT_LOCK = threading.Lock()
_READY = []
_WORK_LOCK = threading.RLock()


def serialized(fn):
    """TF graph building is not safe from several threads at once (two imports in parallel
    have crashed the process); bridge calls that build or run graphs take turns."""
    import functools

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        with _WORK_LOCK:
            return fn(*args, **kwargs)
    return wrapper


def tf():
    """Import TensorFlow quietly (one thread at a time), or explain that it is missing."""
    if _READY:
        return _READY[0]
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    try:
        with _IMPORT_LOCK:  # two workers importing TF at once trip Python's import deadlock check
            if _READY:
                return _READY[0]
            with _quiet_stderr():  # absl and oneDNN print banners at import time
                import tensorflow
            tensorflow.get_logger().setLevel("ERROR")
            _READY.append(tensorflow)
    except ImportError as exc:
        raise TensorFlowUnavailable(
            f"this needs TensorFlow, which cannot be imported ({exc}); "
            "install it with: pip install tensorflow-cpu") from None
    return tensorflow


class _quiet_stderr:
    """Send file descriptor 2 to /dev/null for a moment (C++ logging bypasses sys.stderr)."""

    def __enter__(self):
        import sys

        try:
            sys.stderr.flush()
            self.saved = os.dup(2)
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 2)
            os.close(devnull)
        except OSError:
            self.saved = None
        return self

    def __exit__(self, *exc):
        if self.saved is not None:
            os.dup2(self.saved, 2)
            os.close(self.saved)
        return False


def available() -> bool:
    try:
        tf()
    except TensorFlowUnavailable:
        return False
    return True


_BOILERPLATE = ("Graph execution error:", "Detected at node", "Node:", "Original stack trace",
                "[[{{node", "Additional GRPC", "Traceback")


def _first_line(exc: BaseException) -> str:
    """The line of a TF error that says what went wrong, with the node when TF names one
    (TF's own first line is often just "Graph execution error:")."""
    text = str(getattr(exc, "message", None) or exc).strip() or type(exc).__name__
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    useful = [ln for ln in lines if not ln.startswith(_BOILERPLATE) and
              not ln.startswith(("File ", "  File"))]
    line = useful[0] if useful else lines[0]
    import re

    line = re.sub(r"\{\{function_node [^}]*\}\}\s*", "", line)
    op = getattr(exc, "op", None)
    node = getattr(op, "name", None) if op is not None else None
    if node is None:
        m = re.search(r"\[\[\{\{node ([^}]+)\}\}\]\]", text)
        node = m.group(1) if m else None
    if node and f"'{node}'" not in line and f"node {node}" not in line:
        line += f" (node '{node}')"
    return line[:400]


def _to_ours(tf_graph_def):
    graph_def = protos.GraphDef.FromString(tf_graph_def.SerializeToString())
    _fix_function_refs(graph_def)
    return graph_def


def _fix_function_refs(graph_def) -> None:
    """TF's freezing turns ReadVariableOp into Const/Identity inside function bodies but
    leaves references such as `x:value:0`; both ops name their output `output`."""
    for fdef in graph_def.library.function:
        ops = {n.name: n.op for n in fdef.node_def}

        def fix(ref: str) -> str:
            parts = ref.lstrip("^").split(":")
            if len(parts) == 3 and ops.get(parts[0]) in ("Const", "Identity") \
                    and parts[1] != "output":
                return ("^" if ref.startswith("^") else "") + f"{parts[0]}:output:{parts[2]}"
            return ref

        for node in fdef.node_def:
            node.input[:] = [fix(r) for r in node.input]
        for key in list(fdef.ret):
            fdef.ret[key] = fix(fdef.ret[key])


def _freeze_concrete(fn):
    """Freeze a concrete function: variables to constants, function calls inlined."""
    from tensorflow.python.framework.convert_to_constants import (
        convert_variables_to_constants_v2)

    frozen = convert_variables_to_constants_v2(fn)
    graph_def = _to_ours(frozen.graph.as_graph_def())
    return frozen, graph_def


def _output_keys(fn) -> list:
    from tensorflow.python.util import nest

    flat = nest.flatten_with_joined_string_paths(fn.structured_outputs)
    return [path or str(i) for i, (path, _) in enumerate(flat)]


def _io_names(fn, frozen) -> tuple[dict, dict]:
    t = tf()
    specs = t.nest.flatten(fn.structured_input_signature)
    placeholders = [x.name for x in frozen.inputs if x.dtype != t.resource]
    inputs = {}
    for i, name in enumerate(placeholders):
        spec_name = getattr(specs[i], "name", None) if i < len(specs) else None
        inputs[spec_name or name.split(":")[0]] = name
    outputs = dict(zip(_output_keys(fn), (x.name for x in frozen.outputs)))
    return inputs, outputs


@serialized
def freeze_saved_model(directory: str, tags: list, signature: str):
    """(GraphDef, inputs, outputs) of one SavedModel signature, frozen and inlined."""
    t = tf()
    try:
        loaded = t.saved_model.load(directory, tags=tags or None)
        fn = loaded.signatures[signature]
        frozen, graph_def = _freeze_concrete(fn)
        inputs, outputs = _io_names(fn, frozen)
        kw = fn.structured_input_signature[1]
        if kw:  # signature inputs are keyword arguments: name them by their keys
            names = list(inputs.values())
            inputs = {k: names[i] for i, k in enumerate(sorted(kw)) if i < len(names)}
    except Exception as exc:  # TF raises many types; report one line
        raise ModelLoadError(f"cannot freeze signature '{signature}': {_first_line(exc)}",
                             path=directory) from None
    return graph_def, inputs, outputs


@serialized
def freeze_keras(path: str):
    """(GraphDef, inputs, outputs) of a Keras model file, loaded with safe_mode on."""
    t = tf()
    import keras

    try:
        model = keras.saving.load_model(path, compile=False, safe_mode=True)
        specs = [t.TensorSpec(x.shape, x.dtype, name=x.name.split(":")[0])
                 for x in model.inputs]

        @t.function(input_signature=specs)
        def serve(*args):
            return model(list(args) if len(args) > 1 else args[0], training=False)

        fn = serve.get_concrete_function()
        frozen, graph_def = _freeze_concrete(fn)
        inputs = {s.name: x.name for s, x in zip(specs, frozen.inputs)}
        names = [x.name for x in frozen.outputs]
        outputs = {n.split(":")[0] if len(names) > 1 else "output": n for n in names}
    except Exception as exc:
        raise ModelLoadError(f"cannot load Keras model: {_first_line(exc)}", path=path) from None
    return graph_def, inputs, outputs


@serialized
def freeze_metagraph(meta_bytes: bytes, checkpoint: str, outputs: list, path: str):
    """What freeze_graph does: restore the checkpoint, turn variables into constants."""
    t = tf()
    v1 = t.compat.v1
    try:
        meta = v1.MetaGraphDef.FromString(meta_bytes)
        graph = t.Graph()
        with graph.as_default(), v1.Session(graph=graph) as sess:
            saver = v1.train.import_meta_graph(meta, clear_devices=True)
            if saver is None:
                raise ValueError("the MetaGraph has no saver, so no checkpoint can be restored")
            saver.restore(sess, checkpoint)
            missing = [o for o in outputs if o.split(":")[0] not in
                       {op.name for op in graph.get_operations()}]
            if missing:
                raise ValueError(f"output node '{missing[0]}' is not in the graph")
            from tensorflow.python.framework.convert_to_constants import (
                convert_variables_to_constants_from_session_graph)

            frozen = convert_variables_to_constants_from_session_graph(
                sess, graph.as_graph_def(), [o.split(":")[0] for o in outputs])
    except Exception as exc:
        raise ModelLoadError(f"cannot freeze with checkpoint '{checkpoint}': {_first_line(exc)}",
                             path=path) from None
    return _to_ours(frozen)


# -- transforms ---------------------------------------------------------------------------
def _to_tf(graph_def):
    return tf().compat.v1.GraphDef.FromString(graph_def.SerializeToString())


@serialized
def stateful_ops(ops) -> set:
    """The op types among `ops` that TF registers as stateful (or does not know at all)."""
    tf()
    from tensorflow.python.framework import op_def_registry

    out = set()
    for op in ops:
        op_def = op_def_registry.get(op)
        if op_def is None or op_def.is_stateful:
            out.add(op)
    return out


@serialized
def evaluate_tensors(graph_def, tensor_names: list) -> list:
    """Run a (constant) graph in TensorFlow and return the values of the named tensors.
    Only ever for pure computation: nothing here asks for permission."""
    safety.require_safe(graph_def, tensor_names, (), allow=False, what="the constant subgraph",
                        action="evaluate it")
    t = tf()
    graph = t.Graph()
    with graph.as_default():
        t.compat.v1.import_graph_def(_to_tf(graph_def), name="")
    with t.compat.v1.Session(graph=graph) as sess:
        return sess.run(list(tensor_names))


@serialized
def run_native_transform(graph_def, inputs: list, outputs: list, transforms: str):
    """Apply transforms with TensorFlow's own C++ graph transform engine."""
    tf()
    from tensorflow.python.util._pywrap_transform_graph import TransformGraphWithStringInputs

    safety.check_no_recursion(graph_def)
    try:
        out = TransformGraphWithStringInputs(graph_def.SerializeToString(),
                                             ",".join(inputs).encode(),
                                             ",".join(outputs).encode(), transforms.encode())
    except Exception as exc:
        raise InspectorError(_first_line(exc)) from None
    return protos.GraphDef.FromString(out)


@serialized
def optimize_for_inference(graph_def, inputs: list, outputs: list, toco_compatible: bool):
    safety.check_no_recursion(graph_def)
    tf()
    from tensorflow.python.tools import optimize_for_inference_lib

    out = optimize_for_inference_lib.optimize_for_inference(
        _to_tf(graph_def), [i.split(":")[0] for i in inputs], [o.split(":")[0] for o in outputs],
        [_placeholder_type(graph_def, i) for i in inputs], toco_compatible)
    return protos.GraphDef.FromString(out.SerializeToString())


def _placeholder_type(graph_def, name: str) -> int:
    for node in graph_def.node:
        if node.name == name.split(":")[0]:
            for key in ("dtype", "T"):
                if key in node.attr and node.attr[key].type:
                    return node.attr[key].type
    return 1


def _with_input_shapes(graph_def, input_shapes: dict):
    gd = protos.GraphDef()
    gd.CopyFrom(graph_def)
    for node in gd.node:
        dims = input_shapes.get(node.name)
        if dims is not None and node.op in ("Placeholder", "PlaceholderWithDefault"):
            shape = node.attr["shape"].shape
            shape.Clear()
            for d in dims:
                shape.dim.add(size=-1 if d is None else d)
    return gd


@serialized
def import_graph(graph_def, input_shapes: dict | None = None):
    """A tf.Graph holding the GraphDef (Placeholders reshaped as given), names unprefixed.
    Importing runs nothing, but a recursive function library crashes TF: refused first."""
    safety.check_no_recursion(graph_def)
    t = tf()
    graph = t.Graph()
    gd = _with_input_shapes(graph_def, input_shapes or {})
    try:
        with graph.as_default():
            t.compat.v1.import_graph_def(_to_tf(gd), name="")
    except Exception as exc:
        from inspector.core.errors import InspectorError
        raise InspectorError(f"TensorFlow cannot import the graph: {_first_line(exc)}") from None
    return graph


def skeleton(graph_def, keep_elements: int = 64):
    """A copy whose big constants keep dtype and shape but no values: enough for shape
    inference, and ~1000x smaller to hand to TF (whose import holds the GIL throughout)."""
    gd = protos.GraphDef()
    gd.versions.CopyFrom(graph_def.versions)
    gd.library.CopyFrom(graph_def.library)
    from inspector.core.model import tensors

    for node in graph_def.node:
        new = gd.node.add()
        if node.op == "Const" and "value" in node.attr and \
                tensors.element_count(node.attr["value"].tensor) > keep_elements and \
                node.attr["value"].tensor.dtype != 7:
            new.name, new.op, new.device = node.name, node.op, node.device
            new.input.extend(node.input)
            for key in node.attr:
                if key != "value":
                    new.attr[key].CopyFrom(node.attr[key])
            t = new.attr["value"].tensor
            t.dtype = node.attr["value"].tensor.dtype
            t.tensor_shape.CopyFrom(node.attr["value"].tensor.tensor_shape)
        else:
            new.CopyFrom(node)
    return gd


@serialized
def infer_shapes(graph_def, input_shapes: dict | None = None) -> dict:
    """node name -> list of static output shapes (tuples, None for unknown dims/rank)."""
    graph = import_graph(skeleton(graph_def), input_shapes)
    out = {}
    for op in graph.get_operations():
        out[op.name] = [None if x.shape.rank is None else tuple(x.shape.as_list())
                        for x in op.outputs]
    return out


@serialized
def run_graph(graph_def, feeds: dict, fetches: list, input_shapes: dict | None = None,
              allow_unsafe: bool = False) -> list:
    """Execute the graph once: feeds tensor name -> array, returns the fetched arrays.
    Ops that are not pure computation run only with `allow_unsafe` (the user said yes)."""
    safety.require_safe(graph_def, fetches, list(feeds), allow=allow_unsafe)
    t = tf()
    graph = import_graph(graph_def, input_shapes)
    config = t.compat.v1.ConfigProto(inter_op_parallelism_threads=1)
    with t.compat.v1.Session(graph=graph, config=config) as sess:
        try:
            return sess.run([_tensor_name(f) for f in fetches],
                            {_tensor_name(k): v for k, v in feeds.items()})
        except Exception as exc:
            from inspector.core.errors import InspectorError
            raise InspectorError(f"TensorFlow failed to run the graph: {_first_line(exc)}") \
                from None


def _tensor_name(name: str) -> str:
    return name if ":" in name else name + ":0"


@serialized
def profiler_float_ops(graph_def, input_shapes: dict | None = None) -> int:
    """tf.compat.v1.profiler's float_operation total for the graph (the FLOPs oracle)."""
    t = tf()
    graph = import_graph(skeleton(graph_def), input_shapes)
    opts = t.compat.v1.profiler.ProfileOptionBuilder.float_operation()
    opts["output"] = "none"
    result = t.compat.v1.profiler.profile(graph, options=opts)
    return int(result.total_float_ops)


@serialized
def output_types(graph_def) -> dict:
    """node name -> list of output dtype enums, from TF's op registry via a graph import."""
    graph = import_graph(graph_def)
    return {op.name: [x.dtype.as_datatype_enum for x in op.outputs]
            for op in graph.get_operations()}


@serialized
def default_attrs(ops) -> dict:
    """op type -> {attr name: serialized default AttrValue} for the ops TF knows."""
    tf()
    from tensorflow.python.framework import op_def_registry

    out = {}
    for op in ops:
        op_def = op_def_registry.get(op)
        if op_def is not None:
            out[op] = {a.name: a.default_value.SerializeToString()
                       for a in op_def.attr if a.HasField("default_value")}
    return out


@serialized
def io_types(graph_def) -> dict:
    """node name -> (data input dtype enums, output dtype enums), as TF's op registry says."""
    graph = import_graph(graph_def)
    return {op.name: ([x.dtype.as_datatype_enum for x in op.inputs],
                      [x.dtype.as_datatype_enum for x in op.outputs])
            for op in graph.get_operations()}


@serialized
def profile_runs(graph_def, feeds: dict, fetches: list, warmup: int, runs: int, intra: int,
                 inter: int, input_shapes=None, cancel=None, progress=None,
                 allow_unsafe: bool = False) -> tuple:
    """Run the graph: warm-up runs, untimed-trace runs (wall µs), then FULL_TRACE runs.
    Returns (untraced wall µs list, traced wall µs list, serialized StepStats list)."""
    import time

    safety.require_safe(graph_def, fetches, list(feeds), allow=allow_unsafe)
    t = tf()
    v1 = t.compat.v1
    graph = import_graph(graph_def, input_shapes)
    config = v1.ConfigProto(intra_op_parallelism_threads=intra,
                            inter_op_parallelism_threads=inter)
    fetch_names = [_tensor_name(f) for f in fetches]
    feed = {_tensor_name(k): v for k, v in feeds.items()}
    plain, traced, stats = [], [], []
    total = warmup + 2 * runs
    done = 0
    with v1.Session(graph=graph, config=config) as sess:
        def step(options=None, metadata=None):
            nonlocal done
            if cancel is not None and cancel.is_set():
                from inspector.core.errors import Cancelled
                raise Cancelled()
            start = time.perf_counter()
            try:
                sess.run(fetch_names, feed, options=options, run_metadata=metadata)
            except Exception as exc:
                from inspector.core.errors import InspectorError
                raise InspectorError(f"TensorFlow failed to run the graph: "
                                     f"{_first_line(exc)}") from None
            done += 1
            if progress is not None:
                progress(done, total)
            return (time.perf_counter() - start) * 1e6

        for _ in range(warmup):
            step()
        for _ in range(runs):
            plain.append(step())
        for _ in range(runs):
            options = v1.RunOptions(trace_level=v1.RunOptions.FULL_TRACE)
            metadata = v1.RunMetadata()
            traced.append(step(options, metadata))
            stats.append(metadata.step_stats.SerializeToString())
    return plain, traced, stats


@serialized
def chrome_trace(step_stats_bytes: bytes) -> str:
    """TF's own Chrome trace JSON for one run's StepStats (for tests and export)."""
    tf()
    from tensorflow.core.framework import step_stats_pb2
    from tensorflow.python.client import timeline

    stats = step_stats_pb2.StepStats.FromString(step_stats_bytes)
    return timeline.Timeline(stats).generate_chrome_trace_format()


def decode_image(path: str, channels: int, size) -> "object":
    """An image file as a float32 array of the given height and width."""
    t = tf()
    img = t.io.decode_image(t.io.read_file(path), channels=channels, expand_animations=False)
    return t.image.resize(t.cast(img, t.float32), list(size)).numpy()


class session_for:
    """`with session_for(graph_def) as run: run(feeds, fetches)`: one session, many runs."""

    def __init__(self, graph_def, input_shapes=None, allow_unsafe: bool = False):
        self.graph_def, self.input_shapes = graph_def, input_shapes
        self.allow_unsafe = allow_unsafe
        self.checked: set = set()

    def __enter__(self):
        safety.check_no_recursion(self.graph_def)
        t = tf()
        self.graph = import_graph(self.graph_def, self.input_shapes)
        self.sess = t.compat.v1.Session(graph=self.graph)

        def run(feeds: dict, fetches: list):
            key = (tuple(fetches), tuple(feeds))
            if key not in self.checked:
                safety.require_safe(self.graph_def, fetches, list(feeds),
                                    allow=self.allow_unsafe)
                self.checked.add(key)
            return self.sess.run([_tensor_name(f) for f in fetches],
                                 {_tensor_name(k): v for k, v in feeds.items()})
        return run

    def __exit__(self, *exc):
        self.sess.close()
        return False
