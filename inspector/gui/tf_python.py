"""File > TensorFlow Python…: the setting behind `--tf-python PATH`. The chosen Python (any
Python with TensorFlow installed) runs the TensorFlow worker from now on and at later starts
(QSettings key "tf_python"; --tf-python on the command line wins); the light build's
disabled TensorFlow actions come back at once."""

from __future__ import annotations

import os
import re

from PySide6 import QtWidgets    # (its QFileDialog class made when first asked for)

from inspector.core.runtime.executor import installed
from inspector.core.runtime.lazy_import import later
from inspector.worker.client import WorkerClient
from inspector.worker.process import python_path

subprocess = later("subprocess", globals(), "subprocess")   # not before the first picture

KEY = "tf_python"
CHECK = "import tensorflow as tf; print(tf.__version__)"


def saved(settings) -> str | None:
    value = settings.value(KEY) if settings is not None else None
    return str(value) if value else None


def tensorflow_version_of(python: str, timeout: float = 120.0) -> str:
    """TensorFlow's version in `python`, or raises ValueError saying what is wrong."""
    if not (os.path.isfile(python) and os.access(python, os.X_OK)):
        raise ValueError(f"{python}: not an executable file")
    try:
        out = subprocess.run([python, "-c", CHECK], capture_output=True, text=True,
                             timeout=timeout, env=dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3"))
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise ValueError(f"{python}: could not run it ({exc})") from None
    if out.returncode != 0:
        last = (out.stderr.strip().splitlines() or ["no output"])[-1]
        raise ValueError(f"{python} cannot import tensorflow: {last}")
    version = (out.stdout.strip().splitlines() or [""])[-1].strip()
    if not re.fullmatch(r"\d+\.\d+\S*", version):   # /usr/bin/true, /bin/echo: no Python
        raise ValueError(f"{python} did not say which TensorFlow it has: is it a Python?")
    return version


def use(python: str) -> None:
    """Send TensorFlow work to `python` from the next request on (the worker restarts)."""
    os.environ["INSPECTOR_TF_PYTHON"] = python
    client = installed()
    if isinstance(client, WorkerClient):
        client.stop()
        client.python = python
        client.env["PYTHONPATH"] = python_path(python, os.environ)


def choose(window, python: str | None = None) -> str | None:
    """Ask for a Python (unless given), check that it has TensorFlow, save and use it, and
    lift the gate. Returns the TensorFlow version, or None (cancelled or refused: said)."""
    from inspector.gui import tf_gate

    if python is None:
        python, _ = QtWidgets.QFileDialog.getOpenFileName(
            window, "A Python with TensorFlow for the worker", "/usr/bin")
        if not python:
            return None
    try:
        version = tensorflow_version_of(python)
    except ValueError as exc:
        window.show_error(str(exc))
        return None
    window.settings.setValue(KEY, python)
    use(python)
    tf_gate.lift(window)
    window._say(f"TensorFlow {version} from {python} runs the worker")
    return version
