"""Keras 2 files through legacy Keras (tf-keras), which cannot share a process with Keras 3:
freezing runs in a second Python started with TF_USE_LEGACY_KERAS=1, and hands back the
frozen GraphDef through a file.

    python -m inspector.core.tf.legacy_keras MODEL OUT   (what the parent runs)
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile

from inspector.core.errors import ModelLoadError

TIMEOUT = 900


def available() -> bool:
    from importlib.util import find_spec

    return find_spec("tf_keras") is not None


def freeze_in_child(path: str) -> tuple:
    """(GraphDef, inputs, outputs) of a Keras file, loaded by tf-keras in a child process."""
    from inspector.core.model import protos

    if not available():
        raise ModelLoadError("this Keras 2 file needs the legacy Keras package, which is not "
                             "installed (pip install --no-deps tf-keras matching your "
                             "TensorFlow version)", path=path)
    with tempfile.TemporaryDirectory(prefix="inspector-keras2-") as tmp:
        out = os.path.join(tmp, "frozen")
        env = dict(os.environ, TF_USE_LEGACY_KERAS="1", TF_CPP_MIN_LOG_LEVEL="3")
        try:
            proc = subprocess.run([sys.executable, "-m", __name__, path, out], env=env,
                                  capture_output=True, text=True, timeout=TIMEOUT,
                                  preexec_fn=_die_with_parent)
        except subprocess.TimeoutExpired:
            raise ModelLoadError(f"legacy Keras did not load the file within {TIMEOUT} s",
                                 path=path) from None
        if proc.returncode != 0 or not os.path.exists(out + ".pb"):
            lines = [ln for ln in proc.stderr.splitlines() if ln.strip()]
            said = next((ln for ln in reversed(lines) if ln.startswith("error: ")),
                        lines[-1] if lines else f"exit code {proc.returncode}")
            raise ModelLoadError(f"cannot load Keras model with legacy Keras either: "
                                 f"{said.removeprefix('error: ')}", path=path)
        with open(out + ".pb", "rb") as fh:
            graph_def = protos.GraphDef.FromString(fh.read())
        with open(out + ".json") as fh:
            names = json.load(fh)
    return graph_def, names["inputs"], names["outputs"]


def _die_with_parent() -> None:
    """Linux: the child is killed when its parent dies (a cancelled worker is killed, and
    its legacy Keras child must not live on)."""
    try:
        import ctypes
        import signal

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def _child(path: str, out: str) -> int:
    from inspector.core.tf.freeze import freeze_loaded_keras
    from inspector.core.tf.runtime import first_line

    try:
        import tf_keras

        model = tf_keras.models.load_model(path, compile=False, safe_mode=True)
        graph_def, inputs, outputs = freeze_loaded_keras(model)
    except Exception as exc:  # noqa: BLE001  (one line back to the parent)
        print(f"error: {first_line(exc)}", file=sys.stderr)
        return 2
    with open(out + ".pb", "wb") as fh:
        fh.write(graph_def.SerializeToString())
    with open(out + ".json", "w") as fh:
        json.dump({"inputs": inputs, "outputs": outputs}, fh)
    return 0


if __name__ == "__main__":
    sys.exit(_child(sys.argv[1], sys.argv[2]))
