"""Parse protobuf files (binary or text) into GraphDef, MetaGraphDef or SavedModel messages."""

from __future__ import annotations

from google.protobuf import message, text_format

from inspector.core.errors import ModelLoadError

_WHAT = {"GraphDef": "GraphDef", "MetaGraphDef": "MetaGraphDef", "SavedModel": "SavedModel"}


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
        msg.ParseFromString(data)
    except message.DecodeError as exc:
        raise ModelLoadError(f"binary {what} does not parse ({exc}); the file may be truncated "
                             "or not a TensorFlow model", path=path) from None
    return msg
