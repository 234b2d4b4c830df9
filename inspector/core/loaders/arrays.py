"""Input arrays from .npy files, with one-line errors (never a pickle, never a surprise)."""

from __future__ import annotations

import numpy as np

from inspector.core.errors import InspectorError
from inspector.core.loaders import files

NPY_LIMIT = 2 ** 31


def load_npy(path: str) -> np.ndarray:
    files.read_file(path, NPY_LIMIT, "the .npy file", error=InspectorError, count=0)
    try:
        with open(path, "rb") as fh:
            return np.load(fh, allow_pickle=False)
    except ValueError as exc:
        if "allow_pickle" in str(exc) or "Object arrays" in str(exc):
            raise InspectorError("holds pickled Python objects, which are never loaded; save a "
                                 "numeric array instead", path=path) from None
        raise InspectorError(f"not a valid .npy file ({str(exc)[:120]})", path=path) from None
    except (OSError, EOFError) as exc:
        raise InspectorError(f"not a valid .npy file ({type(exc).__name__}: "
                             f"{str(exc)[:120]})", path=path) from None


def parse_npy_args(items) -> dict:
    """NAME=FILE.npy arguments -> {name: path}."""
    out = {}
    for item in items or []:
        name, sep, path = item.partition("=")
        if not sep or not name or not path:
            raise InspectorError(f"--npy wants NAME=FILE.npy (got '{item}')")
        out[name.split(":")[0]] = path
    return out
