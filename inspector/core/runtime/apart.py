"""Work on the other core: a function run in a forked copy of this process (its modules and
data already there, shared until written), its value sent back pickled. Only where forking
is safe: no other Python thread, no library that runs threads of its own (Qt, TensorFlow),
so the command line, never the window's process. Elsewhere, and when the copy fails, the
function runs here when its value is asked for. The copy collects no garbage: it leaves by
os._exit, and a collection would only walk (and write to) the heap it shares with this
process (measured: 300k-node fingerprints took 30 % longer with collection on)."""

from __future__ import annotations

import gc
import os
import pickle
import sys
import threading

THREADED = ("PySide6.QtCore", "tensorflow", "torch")   # libraries with threads of their own


def fork_safe() -> bool:
    """No other Python thread runs and no library with threads of its own that might hold
    locks is loaded (numpy's idle BLAS threads are fork-safe: it registers fork handlers)."""
    return hasattr(os, "fork") and threading.active_count() == 1 and \
        not any(m in sys.modules for m in THREADED)


def can_fork() -> bool:
    """fork_safe, and not turned off (INSPECTOR_APART=0)."""
    return os.environ.get("INSPECTOR_APART", "1") != "0" and fork_safe()


def start(fn):
    """fn() started in a forked process where forking is safe; returns the function that
    waits for its value (fn() here if the fork could not run it)."""
    if not can_fork():
        return fn
    try:
        read_fd, write_fd = os.pipe()
        pid = os.fork()
    except OSError:
        return fn
    if pid == 0:                      # the copy: compute, send, leave without any cleanup
        code = 0
        try:
            gc.disable()
            os.close(read_fd)
            data = memoryview(pickle.dumps(fn(), protocol=5))
            while data:
                data = data[os.write(write_fd, data):]
        except BaseException:  # noqa: BLE001 - the parent computes it again
            code = 1
        os._exit(code)
    os.close(write_fd)

    def value():
        parts = []
        with os.fdopen(read_fd, "rb") as fh:
            while True:
                part = fh.read(1 << 20)
                if not part:
                    break
                parts.append(part)
        _, status = os.waitpid(pid, 0)
        if status != 0 or not parts:
            return fn()
        return pickle.loads(b"".join(parts))

    value.pid = pid                   # (tests)
    return value
