"""An empty dict made with room for many keys: a big graph's name index filled a piece at a
time grows by rehashing every name it holds so far (a 300k-node graph: ~18 of ~50 ms of the
window's inserts at normal speed, ~80 ms of the slow class's first picture)."""

from __future__ import annotations

import ctypes
import sys

_make = None
if sys.implementation.name == "cpython":
    try:
        _make = ctypes.pythonapi._PyDict_NewPresized
        _make.restype, _make.argtypes = ctypes.py_object, [ctypes.c_ssize_t]
    except AttributeError:      # (not exported by this build: a plain dict)
        _make = None


def presized(keys: int) -> dict:
    """An empty dict; made by CPython's _PyDict_NewPresized(keys) where it has one. It sizes
    the table for at most 87k keys: past them it grows as any dict does (3.11: at 87k and
    175k for 300k keys, also at 350k and 699k for 1M), and its table is of the general kind
    (a hash stored per entry, even for str keys: 24 bytes an entry, not 16; 300k str keys
    take 10.5 MB, not 7.7)."""
    return _make(keys) if _make is not None and keys > 0 else {}
