"""Input arrays from .npy files, with one-line errors (never a pickle, never a surprise)."""

from __future__ import annotations

import numpy as np

from inspector.core.errors import InspectorError
from inspector.core.loaders import files

NPY_LIMIT = 2 ** 31


def _declared(fh, path: str, size: int) -> None:
    """Refuse a header that declares more data than the file holds (or than the limit)
    before numpy allocates it: a 200-byte file can declare terabytes."""
    try:
        version = np.lib.format.read_magic(fh)
        reader = {(1, 0): np.lib.format.read_array_header_1_0,
                  (2, 0): np.lib.format.read_array_header_2_0}.get(version)
        if reader is None:
            return                      # numpy's own reader names the problem
        shape, _, dtype = reader(fh)
    except ValueError as exc:
        raise InspectorError(f"not a valid .npy file ({str(exc)[:120]})", path=path) from None
    if dtype.hasobject:
        return
    count = 1
    for d in shape:
        count *= int(d)
    wanted = count * dtype.itemsize
    if wanted > NPY_LIMIT or wanted > size - fh.tell():
        raise InspectorError(f"declares {list(shape)} {dtype} values ({wanted:,} bytes) but "
                             f"the file holds {max(size - fh.tell(), 0):,}", path=path)
    fh.seek(0)


def load_npy(path: str) -> np.ndarray:
    st = files.require_regular(path, error=InspectorError)
    if st.st_size > NPY_LIMIT:
        raise InspectorError(f"the .npy file is {st.st_size / 2 ** 30:.1f} GB, over the "
                             f"{NPY_LIMIT / 2 ** 30:.0f} GB limit", path=path)
    try:
        with open(path, "rb") as fh:
            _declared(fh, path, st.st_size)
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
