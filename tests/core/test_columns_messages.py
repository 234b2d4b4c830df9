"""The columns' two helper messages (Raw, Flat: core/model/columns.py) come from a serialized
file descriptor, so the window's first open imports no descriptor_pb2 (dense15; its import
was ~1.3 ms of the load on the first picture's path, ~6 ms on the slow class). The bytes
are the descriptor built field by field, and the messages read what protobuf wrote."""

from __future__ import annotations

from google.protobuf import descriptor_pb2

from inspector.core.model import columns


def _built() -> bytes:
    f = descriptor_pb2.FileDescriptorProto(name="inspector_columns.proto",
                                           package="inspector_columns", syntax="proto3")
    raw = f.message_type.add(name="Raw")
    raw.field.add(name="node", number=1, label=3, type=12)          # repeated bytes
    flat = f.message_type.add(name="Flat")
    for name, number in (("name", 1), ("op", 2), ("input", 3), ("device", 4)):
        flat.field.add(name=name, number=number, label=3, type=9)   # repeated string
    return f.SerializeToString()


def test_the_serialized_descriptor_is_the_one_built_field_by_field():
    assert columns.MESSAGES_PROTO == _built()


def test_the_messages_read_node_bytes_and_name_columns():
    raw, flat = columns._messages()
    nodes = raw.FromString(raw(node=[b"\x0a\x01a", b""]).SerializeToString())
    assert list(nodes.node) == [b"\x0a\x01a", b""]
    cols = flat.FromString(flat(name=["a", "b/c"], op=["Const", "Add"], input=["a"],
                                device=[""]).SerializeToString())
    assert (list(cols.name), list(cols.op), list(cols.input), list(cols.device)) == \
        (["a", "b/c"], ["Const", "Add"], ["a"], [""])
