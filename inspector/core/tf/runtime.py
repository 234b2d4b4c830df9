"""TensorFlow itself, imported lazily and quietly; one graph-building call at a time;
TF's errors turned into one line that says what failed and where."""

from __future__ import annotations

import functools
import os
import re
import sys
import threading

from inspector.core.errors import TensorFlowUnavailable
from inspector.core.model import protos

_IMPORT_LOCK = threading.Lock()


_READY = []


_WORK_LOCK = threading.RLock()


def serialized(fn):
    """TF graph building is not safe from several threads at once (two imports in parallel
    have crashed the process); bridge calls that build or run graphs take turns."""
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
            with _quiet_stderr(), _without_sklearn():  # absl and oneDNN print banners
                import tensorflow
            tensorflow.get_logger().setLevel("ERROR")
            _READY.append(tensorflow)
    except ImportError as exc:
        raise TensorFlowUnavailable(
            f"this needs TensorFlow, which cannot be imported ({exc}); "
            "install it with: pip install tensorflow-cpu") from None
    return tensorflow


class _without_sklearn:
    """TensorFlow imports Keras, and Keras imports scikit-learn for its sklearn wrappers
    (~1 s, a quarter of TF's import; we never use them): hidden while TF imports (Keras
    handles its absence); an import of sklearn afterwards works as usual."""

    def __enter__(self):
        self.hid = "sklearn" not in sys.modules
        if self.hid:
            sys.modules["sklearn"] = None  # `import sklearn` raises ImportError meanwhile
        return self

    def __exit__(self, *exc):
        if self.hid and "sklearn" in sys.modules and sys.modules["sklearn"] is None:
            del sys.modules["sklearn"]
        return False


class _quiet_stderr:
    """Send file descriptor 2 to /dev/null for a moment (C++ logging bypasses sys.stderr)."""

    def __enter__(self):
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


def tf_version() -> str:
    return tf().__version__


def available() -> bool:
    try:
        tf()
    except TensorFlowUnavailable:
        return False
    return True


_BOILERPLATE = ("Graph execution error:", "Detected at node", "Node:", "Original stack trace",
                "[[{{node", "Additional GRPC", "Traceback")


def first_line(exc: BaseException) -> str:
    """The line of a TF error that says what went wrong, with the node when TF names one
    (TF's own first line is often just "Graph execution error:")."""
    text = str(getattr(exc, "message", None) or exc).strip() or type(exc).__name__
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    useful = [ln for ln in lines if not ln.startswith(_BOILERPLATE) and
              not ln.startswith(("File ", "  File"))]
    line = useful[0] if useful else lines[0]

    line = re.sub(r"\{\{function_node [^}]*\}\}\s*", "", line)
    op = getattr(exc, "op", None)
    node = getattr(op, "name", None) if op is not None else None
    if node is None:
        m = re.search(r"\[\[\{\{node ([^}]+)\}\}\]\]", text)
        node = m.group(1) if m else None
    if node and f"'{node}'" not in line and f"node {node}" not in line:
        line += f" (node '{node}')"
    return line[:400]


def to_ours(tf_graph_def):
    graph_def = protos.GraphDef.FromString(tf_graph_def.SerializeToString())
    _fix_function_refs(graph_def)
    return graph_def


def to_tf(graph_def):
    return tf().compat.v1.GraphDef.FromString(graph_def.SerializeToString())


def tensor_name(name: str) -> str:
    return name if ":" in name else name + ":0"


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
