"""Parse protobuf files (binary or text) into GraphDef, MetaGraphDef or SavedModel messages."""

from __future__ import annotations

import re

from google.protobuf import message, unknown_fields

from inspector.core.errors import ModelLoadError
from inspector.core.loaders.sniff import top_level_fields
from inspector.core.model import unparsed
from inspector.core.model.text_parse import parse_text_message
from inspector.core.runtime import executor

CHUNKED_ABOVE = 8 * 2 ** 20
TEXT_ELSEWHERE_ABOVE = 256 * 2 ** 10  # text this big is parsed in the worker, when there is one


def _parse_graph_def_in_pieces(data: bytes, msg, path: str) -> None:
    """Parse a big binary GraphDef one top-level field at a time, so that no single C call
    holds the GIL for long (a 100 MB parse otherwise freezes the GUI thread for ~0.1 s)."""
    view = memoryview(data)
    for number, wire, start, end, at in top_level_fields(data, path):
        piece = view[start:end]
        if number == 1 and wire == 2:
            msg.node.add().MergeFromString(piece)
        elif number == 2 and wire == 2:
            msg.library.MergeFromString(piece)
        elif number == 4 and wire == 2:
            msg.versions.MergeFromString(piece)
        elif number in (3, 5):  # version, debug_info: small, parsed with their keys
            msg.MergeFromString(view[at:end])
        else:
            raise ModelLoadError(f"not a GraphDef: the file holds protobuf data of another kind "
                                 f"(field {number} at the top level)", path=path)


_BINARY_NAME = re.compile(r"[\x00-\x08\x0e-\x1f]")


def check_kind(msg, what: str, path: str) -> None:
    """Another protobuf message parsed as ours keeps its fields as unknown ones, or makes
    nodes with binary names: say so instead of showing an empty or garbled graph."""
    unknown = unknown_fields.UnknownFieldSet(msg)
    if len(unknown):
        raise ModelLoadError(f"not a TensorFlow model: the file holds protobuf data of another "
                             f"kind (field {unknown[0].field_number} is not part of a {what})",
                             path=path)
    nodes = getattr(msg, "node", None)
    if what == "GraphDef" and nodes:
        for node in list(nodes[:3]):
            if _BINARY_NAME.search(node.name) or (node.name and not node.op and
                                                 not node.name.isprintable()):
                raise ModelLoadError(f"not a {what}: node names are binary data (the file may "
                                     "be another kind of protobuf message, e.g. a "
                                     "FunctionDefLibrary)", path=path)

def parse(data: bytes, cls, is_text: bool, path: str):
    """Parse bytes into a new `cls` message with one-line errors."""
    what = cls.DESCRIPTOR.name
    msg = cls()
    if is_text:
        isolated = executor.installed()
        if getattr(isolated, "isolated", False) and len(data) > TEXT_ELSEWHERE_ABOVE and \
                not isolated.busy():  # never queue a new model behind TF work on the last
            msg.ParseFromString(isolated.parse_text(data, what, path))
            return msg
        return parse_text_message(data, cls, path)
    try:
        if cls.DESCRIPTOR.name == "GraphDef" and len(data) > CHUNKED_ABOVE:
            _parse_graph_def_in_pieces(data, msg, path)
        else:
            msg.ParseFromString(data)
    except message.DecodeError as exc:
        named = unparsed.bad_node_error(data, path) if what == "GraphDef" else None
        if named is not None:       # say which node, as a big file's reader does
            raise named from None
        raise ModelLoadError(f"binary {what} does not parse ({exc}); the file may be truncated "
                             "or not a TensorFlow model", path=path) from None
    except RecursionError:
        raise ModelLoadError(f"binary {what} does not parse: nested too deeply",
                             path=path) from None
    check_kind(msg, what, path)
    return msg
