"""The window's process imports numpy with one OpenBLAS thread (numpy's default, a thread per
CPU, spins them for a while after the import: CPU taken from the window right after its first
picture); the user's own setting stands, and the TensorFlow worker gets the environment as the
user had it."""

from __future__ import annotations

import subprocess
import sys

from inspector.core.runtime.blas_threads import (
    SET_BY_US,
    VARIABLE,
    as_the_user_had_it,
    one_blas_thread,
)
from inspector.worker.client import WorkerClient

THREADS_AROUND_NUMPY = r"""
import os
before = len(os.listdir("/proc/self/task"))
import numpy
numpy.ones((64, 64)) @ numpy.ones((64, 64))
print(len(os.listdir("/proc/self/task")) - before)
"""


def test_one_thread_unless_the_user_chose():
    env = {}
    assert one_blas_thread(env) and env == {VARIABLE: "1", SET_BY_US: "1"}
    mine = {VARIABLE: "4"}
    assert not one_blas_thread(mine) and mine == {VARIABLE: "4"}


def test_children_get_the_users_setting_back():
    assert as_the_user_had_it({VARIABLE: "1", SET_BY_US: "1", "A": "b"}) == {"A": "b"}
    assert as_the_user_had_it({VARIABLE: "4"}) == {VARIABLE: "4"}
    env = {"PATH": "/usr/bin"}
    one_blas_thread(env)
    assert VARIABLE not in WorkerClient(python=sys.executable, env=env).env


def test_numpy_starts_no_thread_of_its_own_under_it():
    env = {"PATH": "/usr/bin"}
    one_blas_thread(env)
    out = subprocess.run([sys.executable, "-c", THREADS_AROUND_NUMPY], env=env,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr[-2000:]
    assert int(out.stdout) == 0
