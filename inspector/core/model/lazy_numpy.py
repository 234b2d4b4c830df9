"""numpy, imported on first need: big graphs only (a small one opens without it, and the
demo's first picture imports no numpy). One place for the model's modules to ask for it."""

from __future__ import annotations


def numpy():
    """The numpy module (imported by the first call)."""
    import numpy as np     # heavy

    return np
