"""File > TensorFlow Python…'s check of the chosen program, in a task: which TensorFlow it
has (an import of TensorFlow takes seconds), its output read a bounded amount."""

from __future__ import annotations

import os
import re
import time

from inspector.core.runtime.lazy_import import later

subprocess = later("subprocess", globals(), "subprocess")   # not before the first picture
selectors = later("selectors", globals(), "selectors")

CHECK = "import tensorflow as tf; print(tf.__version__)"


def start_tf_python_check(tasks, python: str, done, failed) -> None:
    """done(TensorFlow's version in `python`) or failed(ValueError saying what is wrong),
    from a task."""
    tasks.submit("tf-python", lambda job: tensorflow_version_of(python, job=job), done,
                 failed, label=f"Checking {os.path.basename(python)} for TensorFlow")


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
                                env=dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3"),
                                start_new_session=True)     # its children end with it
    except OSError as exc:
        raise ValueError(f"{python}: could not run it ({exc})") from None
    try:
        out, err = _bounded(proc, timeout, job)
    finally:
        try:     # the program and whatever it started (a script's `sleep`, left running)
            os.killpg(proc.pid, 9)
        except OSError:
            pass
        proc.wait()
    if out is None and err == "on":
        raise ValueError(f"{python} wrote on and on without saying which TensorFlow it has: "
                         "is it a Python?")
    if out is None:
        raise ValueError(f"{python}: could not run it (no answer within {timeout:.0f} s)")
    if proc.returncode != 0:
        last = (err.strip().splitlines() or ["no output"])[-1]
        if len(last) > 300:      # one line of 64 kB filled the dialog
            last = f"{last[:200]}…({len(last) - 260:,} more characters)…{last[-60:]}"
        raise ValueError(f"{python} cannot import tensorflow: {last}")
    version = (out.strip().splitlines() or [""])[-1].strip()
    if not re.fullmatch(r"\d+\.\d+\S*", version):   # /usr/bin/true, /bin/echo: no Python
        raise ValueError(f"{python} did not say which TensorFlow it has: is it a Python?")
    return version


def _bounded(proc, timeout: float, job) -> tuple:
    """(stdout, stderr) text of `proc` once both end, the last OUTPUT_MOST bytes of each
    (None, "on" once it wrote 16 times that: killed), or (None, None) after `timeout`
    seconds."""
    got, seen, quiet = {proc.stdout: b"", proc.stderr: b""}, 0, 0.0
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
            ready = sel.select(min(left, 0.1))
            if not ready and proc.poll() is not None:
                quiet = quiet or time.monotonic()
                if time.monotonic() - quiet > 1.0:     # it ended; a child of it holds the
                    break                              # pipes open: what it wrote is read
            for key, _ in ready:
                chunk = os.read(key.fileobj.fileno(), 8192)
                if not chunk:
                    sel.unregister(key.fileobj)
                    continue
                got[key.fileobj] = (got[key.fileobj] + chunk)[-OUTPUT_MOST:]
                seen += len(chunk)
                if seen > 16 * OUTPUT_MOST:
                    proc.kill()       # (a program that writes for ever: what it wrote last)
                    return None, "on"
    while True:      # its outputs closed, it may still run: not waited for beyond `timeout`
        try:         # (hostile17: one that closed both and slept held the task for ever)
            proc.wait(timeout=0.1)
            break
        except subprocess.TimeoutExpired:
            if job is not None:
                job.check()
            if time.monotonic() >= end:
                return None, None
    return tuple(got[p].decode("utf-8", "replace") for p in (proc.stdout, proc.stderr))
