"""Text protobuf (.pbtxt) parsing with one-line errors. Pure Python and slow (about 1 s for a
6.6k-node graph); the app runs it in its worker process (`parse_text`, which hands back the
binary form) so it never competes with the window for the interpreter."""

from __future__ import annotations

from google.protobuf import text_format

from inspector.core.errors import ModelLoadError
from inspector.core.model import protos

MESSAGES = ("GraphDef", "MetaGraphDef", "SavedModel")    # protos' classes of these names


def parse_text_message(data: bytes, cls, path: str):
    what = cls.DESCRIPTOR.name
    msg = cls()
    try:
        text_format.Parse(data.decode("utf-8"), msg, allow_unknown_extension=True)
    except UnicodeDecodeError as exc:
        raise ModelLoadError(f"the text file is not valid UTF-8 (offset {exc.start})",
                             path=path) from None
    except text_format.ParseError as exc:
        raise ModelLoadError(f"text {what} does not parse: {str(exc)[:300]}",
                             path=path) from None
    except RecursionError:
        raise ModelLoadError(f"text {what} does not parse: nested too deeply",
                             path=path) from None
    return msg


def parse_text(data: bytes, message: str, path: str) -> bytes:
    """The executor operation: text of a GraphDef, MetaGraphDef or SavedModel -> its binary
    serialization (fast to parse where it is needed)."""
    if message not in MESSAGES:
        raise ValueError(f"cannot parse text as {message}")
    return parse_text_message(data, getattr(protos, message), path).SerializeToString()
