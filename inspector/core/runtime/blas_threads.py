"""One BLAS thread in the window's process. numpy's OpenBLAS starts a thread per CPU when it
is imported, and each spins for a while before it sleeps: ~80 ms of CPU here (~0.35 s on the
slow machine class) taken from the window right after its first picture, when pyqtgraph and
numpy are imported for the charts. The window's numpy work is small (charts, tensor stats);
the TensorFlow worker gets the environment as it was (worker/client.py)."""

from __future__ import annotations

import os

VARIABLE = "OPENBLAS_NUM_THREADS"
SET_BY_US = "INSPECTOR_ONE_BLAS_THREAD"     # marks the value as ours, not the user's


def one_blas_thread(environ=os.environ) -> bool:
    """Before numpy is imported: one OpenBLAS thread, unless the user chose a number."""
    if VARIABLE in environ:
        return False
    environ[VARIABLE] = "1"
    environ[SET_BY_US] = "1"
    return True


def as_the_user_had_it(env: dict) -> dict:
    """A child process's environment without the window's BLAS setting (the user's stays)."""
    if env.pop(SET_BY_US, None) is not None:
        env.pop(VARIABLE, None)
    return env
