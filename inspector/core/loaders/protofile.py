"""Parse protobuf files (binary or text) into GraphDef, MetaGraphDef or SavedModel messages."""

from __future__ import annotations

from google.protobuf import message, text_format

from inspector.core.errors import ModelLoadError



CHUNKED_ABOVE = 8 * 2 ** 20


def _parse_graph_def_in_pieces(data: bytes, msg, path: str) -> None:
    """Parse a big binary GraphDef one top-level field at a time, so that no single C call
    holds the GIL for long (a 100 MB parse otherwise freezes the GUI thread for ~0.1 s)."""
    from inspector.core.loaders.sniff import top_level_fields

    view = memoryview(data)
    for number, wire, start, end in top_level_fields(data, path):
        piece = view[start:end]
        if number == 1 and wire == 2:
            msg.node.add().MergeFromString(piece)
        elif number == 2 and wire == 2:
            msg.library.MergeFromString(piece)
        elif number == 4 and wire == 2:
            msg.versions.MergeFromString(piece)


def parse(data: bytes, cls, is_text: bool, path: str):
    """Parse bytes into a new `cls` message with one-line errors."""
    what = cls.DESCRIPTOR.name
    msg = cls()
    if is_text:
        try:
            text_format.Parse(data.decode("utf-8", errors="replace"), msg,
                              allow_unknown_extension=True)
        except text_format.ParseError as exc:
            raise ModelLoadError(f"text {what} does not parse: {exc}", path=path) from None
        return msg
    try:
        if cls.DESCRIPTOR.name == "GraphDef" and len(data) > CHUNKED_ABOVE:
            _parse_graph_def_in_pieces(data, msg, path)
        else:
            msg.ParseFromString(data)
    except message.DecodeError as exc:
        raise ModelLoadError(f"binary {what} does not parse ({exc}); the file may be truncated "
                             "or not a TensorFlow model", path=path) from None
    return msg
