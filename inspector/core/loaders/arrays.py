"""Input arrays from .npy files, with one-line errors (never a pickle, never a surprise)."""

from __future__ import annotations

import numpy as np

from inspector.core.errors import InspectorError
from inspector.core.loaders import files

NPY_LIMIT = 2 ** 31


def _declared(fh, path: str, size: int) -> None:
    """Refuse a header that declares more data than the file holds (or than the limit), a
    shape of negative or non-integer sizes, or values that are not numbers, booleans or
    strings (records, sub-arrays, dates) before numpy allocates anything: a 200-byte file
    can declare terabytes, or 10^12 records of no bytes each."""
    try:
        version = np.lib.format.read_magic(fh)
        reader = _HEADER_READERS.get(version)
        if reader is None:
            raise ValueError(f"format version {version[0]}.{version[1]}, which numpy "
                             f"{np.__version__} does not read")
        shape, _, dtype = reader(fh)
    except ValueError as exc:
        raise InspectorError(f"not a valid .npy file ({str(exc)[:120]})", path=path) from None
    if dtype.hasobject:
        fh.seek(0)                      # np.load names it: pickled objects
        return
    if not all(isinstance(d, int) and not isinstance(d, bool) and d >= 0 for d in shape):
        raise InspectorError(f"not a valid .npy file (its shape {str(shape)[:80]} has a size "
                             "that is not a whole number of 0 or more)", path=path)
    if dtype.kind not in "biufcSU" or dtype.subdtype is not None:
        raise InspectorError(f"holds {str(dtype)[:80]} values (records, sub-arrays or "
                             "dates), not numbers: save a plain numeric array", path=path)
    count = 1
    for d in shape:
        count *= d
    wanted = count * dtype.itemsize
    if wanted > NPY_LIMIT or wanted > size - fh.tell() or count > NPY_LIMIT:
        raise InspectorError(f"declares {list(shape)} {dtype} values ({wanted:,} bytes) but "
                             f"the file holds {max(size - fh.tell(), 0):,}", path=path)
    fh.seek(0)


def _v3(fh):
    """A version 3.0 header (UTF-8 field names), through numpy's reader where it has one."""
    impl = getattr(np.lib, "_format_impl", np.lib.format)       # numpy 2 / numpy 1
    read = getattr(impl, "_read_array_header", None)
    if read is None:
        raise ValueError("format version 3.0, which this numpy does not read")
    return read(fh, version=(3, 0))


_HEADER_READERS = {(1, 0): np.lib.format.read_array_header_1_0,
                   (2, 0): np.lib.format.read_array_header_2_0, (3, 0): _v3}


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
    except (OSError, EOFError, TypeError) as exc:
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
