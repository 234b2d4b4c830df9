"""Which node of some GraphDef bytes does not parse, as a one-line error naming it (a reader
of the whole file otherwise only knows the byte range its parse failed in)."""

from __future__ import annotations

from inspector.core.errors import ModelLoadError
from inspector.core.model import protos
from inspector.core.model.node_store import _fields, _varint


def bad_node_error(data, path: str, first: int = 0) -> ModelLoadError | None:
    """The error naming the first node field of `data` (top-level GraphDef fields; its first
    node is node #first of the file) that is not a valid NodeDef; None when each parses or
    the bytes are not fields at all."""
    data = bytes(data)
    try:
        fields = _fields(data)
    except (ValueError, IndexError):
        return None
    k = first
    for number, wire, start, end in fields:
        if number != 1 or wire != 2:
            continue
        try:
            ok = len(protos.GraphDef.FromString(data[start:end]).node) == 1
        except Exception:  # noqa: BLE001  (upb's DecodeError)
            ok = False
        if not ok:
            return ModelLoadError(f"node #{k} is not a valid NodeDef (its bytes in the file do "
                                  "not parse)", path=path, node=_name_of(data, start) or None)
        k += 1
    return None


def _name_of(data: bytes, start: int) -> str:
    """The name a node field starting at `start` gives first (writers put it first), or ""."""
    try:
        _, i = _varint(data, start)          # the node field's tag
        _, i = _varint(data, i)              # its length
        key, i = _varint(data, i)
        if key != (1 << 3 | 2):
            return ""
        n, i = _varint(data, i)
        return data[i:i + n].decode("utf-8", "replace")
    except (ValueError, IndexError):
        return ""
