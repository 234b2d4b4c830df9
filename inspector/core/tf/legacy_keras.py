"""Keras 2 files through legacy Keras (tf-keras), which cannot share a process with Keras 3:
freezing runs in a second Python started with TF_USE_LEGACY_KERAS=1, and hands back the
frozen GraphDef through a file.

    python -m inspector.core.tf.legacy_keras MODEL OUT   (what the parent runs)
"""

from __future__ import annotations

import ctypes
import json
import os
import signal
import subprocess
import sys
import tempfile
from importlib.util import find_spec

from inspector.core.errors import ModelLoadError
from inspector.core.model import protos
from inspector.core.tf.keras_graph import freeze_loaded_keras
from inspector.core.tf.runtime import first_line

TIMEOUT = 900


def available() -> bool:
    return find_spec("tf_keras") is not None


def freeze_in_child(path: str) -> tuple:
    """(GraphDef, inputs, outputs, notes) of a Keras file, loaded by tf-keras in a child
    process; notes say what was repaired in its config (repair_config)."""
    if not available():
        raise ModelLoadError("this Keras 2 file needs the legacy Keras package, which is not "
                             "installed (pip install --no-deps tf-keras matching your "
                             "TensorFlow version)", path=path)
    with tempfile.TemporaryDirectory(prefix="inspector-keras2-") as tmp:
        out = os.path.join(tmp, "frozen")
        root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
            os.path.abspath(__file__)))))
        env = dict(os.environ, TF_USE_LEGACY_KERAS="1", TF_CPP_MIN_LOG_LEVEL="3",
                   PYTHONPATH=os.pathsep.join([root] + [p for p in os.environ.get(
                       "PYTHONPATH", "").split(os.pathsep) if p]))
        try:
            # -P and cwd: nothing beside the model (a stray tf_keras.py) can be imported
            safe_path = ["-P"] if sys.version_info >= (3, 11) else []   # cwd=tmp covers 3.10
            proc = subprocess.run([sys.executable, *safe_path, "-m", __name__,
                                   os.path.abspath(path),
                                   out, str(os.getpid())], env=env, cwd=tmp,
                                  capture_output=True, text=True, timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            raise ModelLoadError(f"legacy Keras did not load the file within {TIMEOUT} s",
                                 path=path) from None
        if proc.returncode != 0 or not os.path.exists(out + ".pb"):
            lines = [ln for ln in proc.stderr.splitlines() if ln.strip()]
            said = next((ln for ln in reversed(lines) if ln.startswith("error: ")),
                        lines[-1] if lines else f"exit code {proc.returncode}")
            raise ModelLoadError(f"legacy Keras cannot load it: "
                                 f"{said.removeprefix('error: ')}", path=path)
        with open(out + ".pb", "rb") as fh:
            graph_def = protos.GraphDef.FromString(fh.read())
        with open(out + ".json") as fh:
            names = json.load(fh)
    return graph_def, names["inputs"], names["outputs"], names.get("notes", [])


GRU_CLASSES = ("GRU", "GRUCell", "GRUV2")


def repair_config(config) -> list:
    """Settings an old Keras 2 config leaves out that legacy Keras would default otherwise
    than the Keras that saved it, put back in place; one note per change. A GRU saved before
    `reset_after` existed (Keras < 2.1.3) computed what reset_after=False computes now (its
    bias has 3 x units values), while tf-keras defaults to True and then refuses the weights:
    'GRU(reset_after=False) is not compatible with GRU(reset_after=True)'."""
    names, stack, seen = [], [config], 0
    while stack and seen < 1_000_000:
        item = stack.pop()
        seen += 1
        if isinstance(item, dict):
            conf = item.get("config")
            if item.get("class_name") in GRU_CLASSES and isinstance(conf, dict) and \
                    "reset_after" not in conf:
                conf["reset_after"] = False
                names.append(f"'{conf.get('name', '?')}'")
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    if not names:
        return []
    return [f"{'GRU' if len(names) == 1 else 'GRUs'} {', '.join(sorted(names))} saved before "
            "Keras had reset_after: read as reset_after=False, what "
            f"{'it' if len(names) == 1 else 'they'} computed then."]


def _load_h5_repaired(path: str):
    """(model, notes) of a Keras 2 .h5 whose config needs repair_config, else (None, [])."""
    import h5py

    with h5py.File(path, "r") as h5:
        raw = h5.attrs.get("model_config")
        if raw is None or "model_weights" not in h5:
            return None, []
        config = json.loads(raw.decode() if isinstance(raw, bytes) else raw)
        notes = repair_config(config)
        if not notes:
            return None, []
        # what tf-keras's load_model_from_hdf5 does, with the repaired config
        from tf_keras.src.saving.legacy import hdf5_format
        from tf_keras.src.saving.legacy import model_config as model_config_lib
        from tf_keras.src.saving.legacy.saved_model import json_utils

        model = model_config_lib.model_from_config(json_utils.decode(json.dumps(config)))
        hdf5_format.load_weights_from_hdf5_group(h5["model_weights"], model)
    return model, notes


def _is_h5(path: str) -> bool:
    with open(path, "rb") as fh:
        return fh.read(8) == b"\x89HDF\r\n\x1a\n"


def _die_with_parent(parent: int) -> None:
    """Linux: this child is killed when its parent dies (a cancelled worker is killed, and
    its legacy Keras child must not live on). Set here, not between fork and exec, where
    loading a library could deadlock on a lock another thread held at fork time."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
    if os.getppid() != parent:   # the parent died before the line above
        os._exit(3)


def _child(path: str, out: str) -> int:
    try:
        import tf_keras
        from tf_keras.src.saving import serialization_lib

        # safe_mode=True alone covers only .keras files in tf-keras; the scope covers .h5
        # too: no Python bytecode stored in the file is ever turned into a function
        with serialization_lib.SafeModeScope(True):
            model, notes = _load_h5_repaired(path) if _is_h5(path) else (None, [])
            if model is None:
                model = tf_keras.models.load_model(path, compile=False, safe_mode=True)
        graph_def, inputs, outputs = freeze_loaded_keras(model)
    except Exception as exc:  # noqa: BLE001  (one line back to the parent)
        print(f"error: {first_line(exc)}", file=sys.stderr)
        return 2
    with open(out + ".pb", "wb") as fh:
        fh.write(graph_def.SerializeToString())
    with open(out + ".json", "w") as fh:
        json.dump({"inputs": inputs, "outputs": outputs, "notes": notes}, fh)
    return 0


if __name__ == "__main__":
    _die_with_parent(int(sys.argv[3]))
    sys.exit(_child(sys.argv[1], sys.argv[2]))
