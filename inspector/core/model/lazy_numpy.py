"""numpy, imported on first need: big graphs only (a small one opens without it, and the
demo's first picture imports no numpy). One place for the model's modules to ask for it."""

from __future__ import annotations


def numpy():
    """The numpy module (imported by the first call)."""
    import numpy as np     # heavy

    return np


def distinct(np, values):
    """np.unique(values) of an integer array (its sorted distinct values) without numpy.ma:
    numpy 2's unique asks np.ma.is_masked when no index, inverse or count is wanted, and
    that imports numpy.ma (~7 ms of CPU at normal speed, in the first picture's layout)."""
    ordered = np.sort(values, axis=None)
    if len(ordered) < 2:
        return ordered
    keep = np.empty(len(ordered), np.bool_)
    keep[0] = True
    np.not_equal(ordered[1:], ordered[:-1], out=keep[1:])
    return ordered[keep]
