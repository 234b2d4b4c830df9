"""lazy_numpy.distinct: np.unique's answer for integer arrays, without numpy.ma."""

from __future__ import annotations

import subprocess
import sys

import numpy as np

from conftest import ROOT
from inspector.core.model.lazy_numpy import distinct


def test_distinct_equals_numpys_unique():
    rng = np.random.default_rng(7)
    for values in (np.array([], np.int64), np.array([5], np.int32), np.array([3, 3, 3]),
                   rng.integers(-5, 5, 1000), rng.integers(0, 1 << 40, 5000),
                   rng.integers(0, 50, (20, 30)).astype(np.int32)):
        got = distinct(np, values)
        want = np.unique(values)
        assert got.dtype == want.dtype and got.tolist() == want.tolist()
    values = np.array([4, 1, 4])
    distinct(np, values)
    assert values.tolist() == [4, 1, 4]       # the input is left as it was


def test_distinct_imports_no_numpy_ma():
    proc = subprocess.run(
        [sys.executable, "-c", "import sys, numpy as np\n"
         "from inspector.core.model.lazy_numpy import distinct\n"
         "print(distinct(np, np.array([2, 1, 2])).tolist(), 'numpy.ma' in sys.modules)"],
        cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert proc.stdout.split("\n")[0] == "[1, 2] False", proc.stderr[-2000:]
