"""File > TensorFlow Python…: the setting behind `--tf-python PATH`. The chosen Python (any
Python with TensorFlow installed) runs the TensorFlow worker from now on and at later starts
(QSettings key "tf_python"; --tf-python on the command line wins); the light build's
disabled TensorFlow actions come back at once."""

from __future__ import annotations

import os

from PySide6 import QtWidgets    # (its QFileDialog class made when first asked for)

from inspector.core.app.tf_python_check import start_tf_python_check
from inspector.core.errors import Cancelled
from inspector.core.runtime.executor import installed
from inspector.worker.client import WorkerClient
from inspector.worker.process import python_path


KEY = "tf_python"


def saved(settings) -> str | None:
    value = settings.value(KEY) if settings is not None else None
    return str(value) if value else None


def use(python: str) -> None:
    """Send TensorFlow work to `python` from the next request on (the worker restarts)."""
    os.environ["INSPECTOR_TF_PYTHON"] = python
    client = installed()
    if isinstance(client, WorkerClient):
        client.stop()
        client.python = python
        client.env["PYTHONPATH"] = python_path(python, os.environ)


def choose(window, python: str | None = None, then=None) -> None:
    """Ask for a Python (unless given), check in a task that it has TensorFlow (an import
    of TensorFlow takes seconds: not on the GUI thread), save and use it, and lift the gate.
    then(version, or None when refused: said), once the check is over."""
    from inspector.gui import tf_gate

    if python is None:
        python, _ = QtWidgets.QFileDialog.getOpenFileName(
            window, "A Python with TensorFlow for the worker", "/usr/bin")
        if not python:
            return

    def done(version: str) -> None:
        window.settings.setValue(KEY, python)
        use(python)
        tf_gate.lift(window)
        window._say(f"TensorFlow {version} from {python} runs the worker")
        if then is not None:
            then(version)

    def failed(exc) -> None:
        if not isinstance(exc, Cancelled):
            window.show_error(str(exc))
        if then is not None:
            then(None)

    start_tf_python_check(window.tasks, python, done, failed)
