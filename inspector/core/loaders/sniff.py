"""Decide what a file or directory holds from its content, not its extension."""

from __future__ import annotations

import os
import re

from inspector.core.errors import ModelLoadError

GRAPHDEF, METAGRAPH, SAVEDMODEL, KERAS_H5, KERAS_ZIP = (
    "graphdef", "metagraph", "savedmodel", "keras-h5", "keras-zip")

_TEXT_FIELDS = {
    "node": GRAPHDEF, "library": GRAPHDEF, "versions": GRAPHDEF, "version": GRAPHDEF,
    "meta_info_def": METAGRAPH, "graph_def": METAGRAPH, "saver_def": METAGRAPH,
    "collection_def": METAGRAPH, "signature_def": METAGRAPH, "asset_file_def": METAGRAPH,
    "object_graph_def": METAGRAPH,
    "saved_model_schema_version": SAVEDMODEL, "meta_graphs": SAVEDMODEL,
}
_OP_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_>]*$")
_COMMENT = re.compile(r"(\s|#[^\n]*)*")


def saved_model_file(directory: str) -> str:
    for name in ("saved_model.pb", "saved_model.pbtxt"):
        candidate = os.path.join(directory, name)
        if os.path.isfile(candidate):
            return candidate
    raise ModelLoadError("directory holds no model (no saved_model.pb or saved_model.pbtxt)",
                         path=directory)


def looks_like_text(data: bytes) -> bool:
    head = data[:65536]
    if head.translate(None, b"\t\n\r\x0b\x0c").translate(None, bytes(range(32, 256))):
        return False  # control bytes: protobuf tags and lengths, not text
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as exc:
        return exc.start >= len(head) - 3  # a multi-byte character cut by the slice
    return True


def sniff_text(data: bytes, path: str) -> str:
    text = data[:65536].decode("utf-8", errors="replace")
    start = _COMMENT.match(text).end()
    word = re.match(r"[A-Za-z_][A-Za-z0-9_]*", text[start:])
    kind = _TEXT_FIELDS.get(word.group(0)) if word else None
    if kind is None:
        first = text[start:start + 40].splitlines()[0] if text[start:].strip() else "nothing"
        raise ModelLoadError(
            f"text file is not a GraphDef, MetaGraphDef or SavedModel (it starts with {first!r})",
            path=path)
    return kind


def _varint(data: bytes, pos: int) -> tuple[int, int]:
    result = shift = 0
    while True:
        if pos >= len(data):
            raise EOFError(pos)
        b = data[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if not b & 0x80:
            return result, pos
        shift += 7
        if shift > 63:
            raise ValueError(pos)


def top_level_fields(data: bytes, path: str) -> list[tuple[int, int, int, int]]:
    """(field number, wire type, payload start, payload end) for each top-level field."""
    fields, pos = [], 0
    try:
        while pos < len(data):
            at = pos
            key, pos = _varint(data, pos)
            number, wire = key >> 3, key & 7
            if number == 0:
                raise ValueError(at)
            if wire == 0:
                _, end = _varint(data, pos)
                fields.append((number, wire, pos, end))
            elif wire == 2:
                length, pos = _varint(data, pos)
                end = pos + length
                if end > len(data):
                    raise ModelLoadError(
                        f"file is truncated: a field at byte {at} needs {length} bytes, "
                        f"only {len(data) - pos} remain", path=path)
                fields.append((number, wire, pos, end))
            elif wire in (1, 5):
                end = pos + (8 if wire == 1 else 4)
                if end > len(data):
                    raise EOFError(at)
                fields.append((number, wire, pos, end))
            else:
                raise ValueError(at)
            pos = end
    except EOFError as exc:
        raise ModelLoadError(f"file is truncated (cut inside a field at byte {exc.args[0]})",
                             path=path) from None
    except ValueError as exc:
        raise ModelLoadError(
            "not a TensorFlow model: neither a GraphDef, SavedModel, MetaGraphDef nor Keras file "
            f"(invalid protobuf data at byte {exc.args[0]})", path=path) from None
    return fields


def _payload_is_node(data: bytes, start: int, end: int) -> bool:
    from inspector.core.model.protos import NodeDef
    try:
        node = NodeDef.FromString(data[start:end])
    except Exception:
        return False
    return bool(node.name) and bool(_OP_NAME.match(node.op))


def sniff_binary(data: bytes, path: str) -> str:
    fields = top_level_fields(data, path)
    numbers = [f[0] for f in fields]
    if fields and fields[0][0] == 1 and fields[0][1] == 0:
        return SAVEDMODEL
    if any(n >= 5 for n in numbers) or any(n == 3 and w == 2 for n, w, _, _ in fields):
        return METAGRAPH
    if numbers.count(1) >= 2:
        return GRAPHDEF
    if numbers.count(4) >= 2:
        return METAGRAPH
    first = next((f for f in fields if f[0] == 1), None)
    if first is not None:
        return GRAPHDEF if _payload_is_node(data, first[2], first[3]) else METAGRAPH
    return METAGRAPH if 2 in numbers and 1 not in numbers and 4 not in numbers else GRAPHDEF


def sniff(path: str, data: bytes | None) -> tuple[str, bool]:
    """Kind of model at path and whether it is text. `data` is the file's bytes."""
    if data is None:
        return SAVEDMODEL, False
    if not data:
        raise ModelLoadError("file is empty", path=path)
    if data.startswith(b"\x89HDF\r\n\x1a\n"):
        return KERAS_H5, False
    if data.startswith(b"PK\x03\x04"):
        return KERAS_ZIP, False
    if looks_like_text(data):
        return sniff_text(data, path), True
    kind = sniff_binary(data, path)
    if kind == GRAPHDEF and os.path.basename(path) == "saved_model.pb":
        return SAVEDMODEL, False
    return kind, False
