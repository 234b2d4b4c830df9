"""File > TensorFlow Python…: the setting behind `--tf-python PATH`. The chosen Python (any
Python with TensorFlow installed) runs the TensorFlow worker from now on and at later starts
(QSettings key "tf_python"; --tf-python on the command line wins); the light build's
disabled TensorFlow actions come back at once."""

from __future__ import annotations

import os
import re
import selectors
import time

from PySide6 import QtWidgets    # (its QFileDialog class made when first asked for)

from inspector.core.errors import Cancelled
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


OUTPUT_MOST = 1 << 16     # bytes of a checked program's output kept (a `yes` given: no more)


def tensorflow_version_of(python: str, timeout: float = 120.0, job=None) -> str:
    """TensorFlow's version in `python`, or raises ValueError saying what is wrong. Its
    output is read OUTPUT_MOST bytes at most (a program that writes for ever is stopped
    there), it reads nothing from us, and a cancelled job stops it."""
    if not (os.path.isfile(python) and os.access(python, os.X_OK)):
        raise ValueError(f"{python}: not an executable file")
    try:
        proc = subprocess.Popen([python, "-c", CHECK], stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                env=dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3"))
    except OSError as exc:
        raise ValueError(f"{python}: could not run it ({exc})") from None
    try:
        out, err = _bounded(proc, timeout, job)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
    if out is None and err == "on":
        raise ValueError(f"{python} wrote on and on without saying which TensorFlow it has: "
                         "is it a Python?")
    if out is None:
        raise ValueError(f"{python}: could not run it (no answer within {timeout:.0f} s)")
    if proc.returncode != 0:
        last = (err.strip().splitlines() or ["no output"])[-1]
        raise ValueError(f"{python} cannot import tensorflow: {last}")
    version = (out.strip().splitlines() or [""])[-1].strip()
    if not re.fullmatch(r"\d+\.\d+\S*", version):   # /usr/bin/true, /bin/echo: no Python
        raise ValueError(f"{python} did not say which TensorFlow it has: is it a Python?")
    return version


def _bounded(proc, timeout: float, job) -> tuple:
    """(stdout, stderr) text of `proc` once both end, the last OUTPUT_MOST bytes of each
    (None, "on" once it wrote 16 times that: killed), or (None, None) after `timeout`
    seconds."""
    got, seen = {proc.stdout: b"", proc.stderr: b""}, 0
    end = time.monotonic() + timeout
    with selectors.DefaultSelector() as sel:
        for pipe in got:
            sel.register(pipe, selectors.EVENT_READ)
        while sel.get_map():
            if job is not None:
                job.check()
            left = end - time.monotonic()
            if left <= 0:
                return None, None
            for key, _ in sel.select(min(left, 0.1)):
                chunk = os.read(key.fileobj.fileno(), 8192)
                if not chunk:
                    sel.unregister(key.fileobj)
                    continue
                got[key.fileobj] = (got[key.fileobj] + chunk)[-OUTPUT_MOST:]
                seen += len(chunk)
                if seen > 16 * OUTPUT_MOST:
                    proc.kill()       # (a program that writes for ever: what it wrote last)
                    return None, "on"
    proc.wait()
    return tuple(got[p].decode("utf-8", "replace") for p in (proc.stdout, proc.stderr))


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

    window.tasks.submit("tf-python", lambda job: tensorflow_version_of(python, job=job), done,
                        failed, label=f"Checking {os.path.basename(python)} for TensorFlow")
