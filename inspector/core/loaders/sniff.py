"""Decide what a file or directory holds from its content, not its extension."""

from __future__ import annotations

import os
import re
import struct

from inspector.core.errors import ModelLoadError
from inspector.core.loaders.files import require_regular
from inspector.core.loaders.packed import refuse_packed
from inspector.core.model.humanize import human_bytes
from inspector.core.runtime.lazy_import import later

protos = later("inspector.core.model.protos", globals(), "protos")   # a same-bytes diff: none
zipfile = later("zipfile", globals(), "zipfile")                     # nor this

GRAPHDEF, METAGRAPH, SAVEDMODEL, KERAS_H5, KERAS_ZIP, TFJS, TFLITE = (
    "graphdef", "metagraph", "savedmodel", "keras-h5", "keras-zip", "tfjs", "tflite")

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
        if os.path.lexists(candidate):
            require_regular(candidate)
            return candidate
    inside = model_like_names(directory)
    raise ModelLoadError("directory holds no model (no saved_model.pb or saved_model.pbtxt)" +
                         (f"; open a model file in it instead: {', '.join(inside)}" if inside
                          else ""), path=directory)


_MODEL_ENDS = (".meta", "model.json", ".pb", ".pbtxt", ".tflite", ".h5", ".hdf5", ".keras")


def model_like_names(directory: str, most: int = 3) -> list:
    """Up to `most` names in `directory` that look like a model file (a TF1 checkpoint's
    .meta, a TF.js model.json ...), for an error that says what to open instead: the
    checkpoint folder of a model from PyPI (musicnn) said only "holds no model"."""
    found = []
    try:
        with os.scandir(directory) as entries:
            for k, entry in enumerate(entries):
                if k >= 10000 or len(found) >= most:
                    break
                if entry.name.endswith(_MODEL_ENDS) and entry.is_file(follow_symlinks=False):
                    found.append(entry.name)
    except OSError:
        return []
    return sorted(found)


def text_encoding_problem(head: bytes) -> str | None:
    """Why a file that looks like text cannot be TF's text format (which is UTF-8), or None."""
    if head.startswith((b"\xff\xfe", b"\xfe\xff")) or \
            (len(head) > 8 and head[1:8:2] == b"\x00" * 4 and head[0:8:2].isascii()) or \
            (len(head) > 8 and head[0:8:2] == b"\x00" * 4 and head[1:8:2].isascii()):
        return "the text file is UTF-16; TensorFlow's text format needs UTF-8 (save it as UTF-8)"
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as exc:
        if exc.start < len(head) - 3:
            return (f"the text file is not valid UTF-8 (byte 0x{head[exc.start]:02x} at offset "
                    f"{exc.start}); TensorFlow's text format needs UTF-8")
    return None


def _mostly_text(head: bytes) -> bool:
    """Printable ASCII with a few stray bytes: a text file in a wrong encoding."""
    sample = head[:4096]
    if not sample:
        return False
    printable = sum(1 for b in sample if 32 <= b < 127 or b in (9, 10, 13))
    return printable >= 0.95 * len(sample) and (sample.lstrip()[:1].isalpha() or
                                                sample.lstrip()[:1] == b"#")


def looks_like_text(data: bytes) -> bool:
    head = data[:65536]
    if head.translate(None, b"\t\n\r\x0b\x0c").translate(None, bytes(range(32, 256))):
        return False  # control bytes: protobuf tags and lengths, not text
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as exc:
        return exc.start >= len(head) - 3  # a multi-byte character cut by the slice
    return True


def clearly_binary(head: bytes) -> bool:
    """Protobuf data, not text in any encoding (what `sniff` would call binary)."""
    return not (looks_like_text(head) or head.startswith((b"\xff\xfe", b"\xfe\xff")) or
                _mostly_text(head) or _mostly_text(head[:8192].replace(b"\x00", b"")))


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


def varint_at(data: bytes, pos: int, end: int | None = None) -> tuple[int, int]:
    """(value, next position) of the varint at pos; EOFError when it runs past `end` (the
    data's length by default), ValueError when it is longer than 64 bits."""
    end = len(data) if end is None else end
    result = shift = 0
    while True:
        if pos >= end:
            raise EOFError(pos)
        b = data[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if not b & 0x80:
            return result, pos
        shift += 7
        if shift > 63:
            raise ValueError(pos)


def top_level_fields(data: bytes, path: str) -> list[tuple[int, int, int, int, int]]:
    """(field number, wire type, payload start, payload end, key start) for each top-level
    field."""
    fields, pos = [], 0
    try:
        while pos < len(data):
            at = pos
            key, pos = varint_at(data, pos)
            number, wire = key >> 3, key & 7
            if number == 0:
                raise ValueError(at)
            if wire == 0:
                _, end = varint_at(data, pos)
                fields.append((number, wire, pos, end, at))
            elif wire == 2:
                length, pos = varint_at(data, pos)
                end = pos + length
                if end > len(data):
                    raise ModelLoadError(
                        f"file is truncated: a field at byte {at} needs {length} bytes, "
                        f"only {len(data) - pos} remain", path=path)
                fields.append((number, wire, pos, end, at))
            elif wire in (1, 5):
                end = pos + (8 if wire == 1 else 4)
                if end > len(data):
                    raise EOFError(at)
                fields.append((number, wire, pos, end, at))
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
    try:
        node = protos.NodeDef.FromString(data[start:end])
    except Exception:
        return False
    return bool(node.name) and bool(_OP_NAME.match(node.op))


def _payload_is_versions(data: bytes, start: int, end: int) -> bool:
    """A GraphDef's `versions` (VersionDef: varints 1-3 only), not a MetaGraphDef's
    `collection_def` entry (its key is a string)."""
    try:
        fields = top_level_fields(data[start:end], "")
    except ModelLoadError:
        return False
    return bool(fields) and all(wire == 0 and 1 <= number <= 3 for number, wire, *_ in fields)


def sniff_binary(data: bytes, path: str) -> str:
    fields = top_level_fields(data, path)
    numbers = [f[0] for f in fields]
    if fields and fields[0][0] == 1 and fields[0][1] == 0:
        return SAVEDMODEL
    if any(n >= 6 for n in numbers) or numbers.count(5) > 1 or \
            any(f[0] == 3 and f[1] == 2 for f in fields):
        return METAGRAPH
    if 5 in numbers:  # a GraphDef's debug_info or a MetaGraphDef's one signature_def
        first = next((f for f in fields if f[0] == 1), None)
        graph_def = numbers.count(1) >= 2 or any(
            f[0] == 4 and f[1] == 2 and _payload_is_versions(data, f[2], f[3]) for f in fields) \
            or (first is not None and _payload_is_node(data, first[2], first[3]))
        return GRAPHDEF if graph_def else METAGRAPH
    if numbers.count(1) >= 2:
        return GRAPHDEF
    if numbers.count(4) >= 2:
        return METAGRAPH
    first = next((f for f in fields if f[0] == 1), None)
    if first is not None:
        return GRAPHDEF if _payload_is_node(data, first[2], first[3]) else METAGRAPH
    return METAGRAPH if 2 in numbers and 1 not in numbers and 4 not in numbers else GRAPHDEF


def graphdef_by_first_fields(fields) -> bool:
    """True when a binary file's first top-level (number, wire type) pairs are repeated nodes
    and nothing a MetaGraphDef or SavedModel would hold."""
    numbers = []
    for number, wire in fields:
        if number == 0 or (number == 1 and wire != 2) or number >= 6 or \
                (number == 3 and wire == 2) or (number == 5 and wire != 2):
            return False
        numbers.append(number)
    # field 5 once is debug_info: a MetaGraphDef never holds two field-1 entries
    return numbers.count(1) >= 2 and numbers.count(5) <= 1


def sniff_head(path: str, head: bytes) -> tuple[str, bool]:
    """Formats recognised from the first bytes alone (Keras files are not read by us);
    GRAPHDEF stands for "read it all and look closer"."""
    if not head:
        raise ModelLoadError("file is empty (0 bytes): copy or download the model again",
                             path=path)
    if head.startswith(b"\x89HDF\r\n\x1a\n"):
        return KERAS_H5, False
    if head.startswith(b"PK\x03\x04"):
        refuse_archive(path)
        return KERAS_ZIP, False
    if head.lstrip()[:1] == b"{":           # JSON: TF.js's reader says (imported only then)
        from inspector.core.loaders.tfjs import looks_like_tfjs

        if looks_like_tfjs(head):
            return TFJS, True
    if head[4:8] in (b"TFL3", b"TFL2"):
        return TFLITE, False
    refuse_foreign(path, head)
    return GRAPHDEF, False


def holds_whole_model(path: str, head: bytes) -> bool:
    """The first bytes (`head`) are those of a model read from this file alone: a .tflite,
    or a GraphDef (binary: its first top-level fields are nodes; or text). Anything else
    (a MetaGraphDef, a SavedModel's, Keras, garbage) is not."""
    try:
        kind, _ = sniff_head(path, head[:65536])
        if kind == TFLITE:
            return True
        if kind != GRAPHDEF:
            return False
        if looks_like_text(head[:65536]):
            return sniff_text(head[:65536], path) == GRAPHDEF
        return graphdef_by_first_fields(_head_fields(head))
    except Exception:  # noqa: BLE001  (sniff's refusals: whoever opens the file reports them)
        return False


_HTML = re.compile(rb"(\xef\xbb\xbf)?\s*(<!--.*?-->\s*)*<(!doctype\s+html|html|head|body)\b",
                   re.IGNORECASE | re.DOTALL)
_TABLE_MAGIC = struct.pack("<Q", 0xDB4775248B80FB57)  # the end of a checkpoint's .index


def _head_fields(head: bytes) -> list:
    """(number, wire type) of the top-level protobuf fields that fit in head."""
    out, pos = [], 0
    try:
        while pos < len(head) and len(out) < 16:
            key, pos = varint_at(head, pos)
            number, wire = key >> 3, key & 7
            if wire == 0:
                _, pos = varint_at(head, pos)
            elif wire == 2:
                length, pos = varint_at(head, pos)
                pos += length
            else:
                break
            out.append((number, wire))
    except (EOFError, ValueError):
        pass
    return out


def _looks_onnx(head: bytes) -> bool:
    """An ONNX ModelProto: ir_version (1) first, then fields 3-8 (producer, graph,
    opset_import), which a SavedModel (1 and 2 only) never holds."""
    fields = _head_fields(head)
    return bool(fields) and fields[0] == (1, 0) and any(3 <= n <= 8 for n, _ in fields) and \
        all(1 <= n <= 32 for n, _ in fields)


def _ends_with(path: str, tail: bytes) -> bool:
    try:
        with open(path, "rb") as fh:
            fh.seek(0, os.SEEK_END)
            if fh.tell() < len(tail):
                return False
            fh.seek(-len(tail), os.SEEK_END)
            return fh.read(len(tail)) == tail
    except OSError:
        return False


def refuse_archive(path: str) -> None:
    """A zip that is not a Keras file: a PyTorch model, or an archive to unpack first (a
    damaged zip is left to the Keras reader, which says so)."""
    try:
        with zipfile.ZipFile(path) as zf:
            names = zf.namelist()
    except (zipfile.BadZipFile, OSError, ValueError, EOFError):
        return
    if "config.json" in names:
        return
    if any(os.path.basename(n) in ("data.pkl", "constants.pkl") for n in names):
        raise ModelLoadError("this is a PyTorch model (a torch.save archive), not a TensorFlow "
                             "one: convert it first (e.g. to ONNX, then with onnx2tf)", path=path)
    inside = sorted((n for n in names if n.endswith(
        (".pb", ".pbtxt", ".meta", ".tflite", ".keras", ".h5", "model.json"))), key=len)
    if inside:
        open_this = os.path.dirname(inside[0]) if inside[0].endswith("saved_model.pb") \
            else inside[0]
        raise ModelLoadError(f"this is a zip archive, not a model: unpack it and open "
                             f"{open_this or inside[0]} from it", path=path)
    raise ModelLoadError("this is a zip archive without a Keras config.json or any model file: "
                         "unpack it and open the model it came with", path=path)


def refuse_foreign(path: str, head: bytes) -> None:
    """One plain line, with what to do, for files that are not a TensorFlow graph: other
    models, a Git LFS pointer, a web page saved by a failed download, checkpoints."""
    name = os.path.basename(path)
    if head.startswith(b"version https://git-lfs.github.com/spec/"):
        size = re.search(rb"\nsize (\d{1,20})", head[:1024])
        of = f" (for a file of {human_bytes(int(size.group(1)))})" if size else ""
        raise ModelLoadError(f"this is a Git LFS pointer{of}, not the model itself: run "
                             "`git lfs pull` in its repository to fetch the file", path=path)
    if _HTML.match(head[:4096]):
        raise ModelLoadError("this is an HTML page, not a model: the download failed and saved "
                             "a web page instead; download the model file again", path=path)
    if head[:1] == b"\x80" and head[1:2] in (b"\x02", b"\x03", b"\x04", b"\x05"):
        raise ModelLoadError("this is a Python pickle (e.g. a PyTorch model), not a TensorFlow "
                             "model, and it is not opened (unpickling runs code): convert the "
                             "model to TensorFlow first", path=path)
    refuse_packed(path, head)
    if name.endswith(".onnx") or _looks_onnx(head):
        raise ModelLoadError("this is an ONNX model, not a TensorFlow graph: convert it first "
                             "(e.g. with onnx2tf, which writes a SavedModel)", path=path)
    if name.endswith(".mlmodel"):
        raise ModelLoadError("this is a Core ML model, not a TensorFlow graph", path=path)
    stem = name[:-len(".index")] if name.endswith(".index") else None
    if re.search(r"\.data-\d{5}-of-\d{5}$", name) or (stem is not None and os.path.exists(
            os.path.join(os.path.dirname(path), stem + ".data-00000-of-00001"))) or \
            _ends_with(path, _TABLE_MAGIC):
        raise ModelLoadError("this is part of a TensorFlow checkpoint (variable values only, "
                             "no graph): open the .meta file or SavedModel it belongs to",
                             path=path)


def sniff(path: str, data: bytes | None) -> tuple[str, bool]:
    """Kind of model at path and whether it is text. `data` is the file's bytes."""
    if data is None:
        return SAVEDMODEL, False
    kind, _ = sniff_head(path, data[:65536])
    if kind != GRAPHDEF:
        return kind, kind == TFJS
    problem = text_encoding_problem(data[:65536])
    if problem and (data.startswith((b"\xff\xfe", b"\xfe\xff")) or _mostly_text(data) or
                    _mostly_text(data[:8192].replace(b"\x00", b""))):
        raise ModelLoadError(problem, path=path)
    if looks_like_text(data):
        return sniff_text(data, path), True
    kind = sniff_binary(data, path)
    if kind == GRAPHDEF and os.path.basename(path) == "saved_model.pb":
        return SAVEDMODEL, False
    return kind, False
