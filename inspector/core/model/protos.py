"""TensorFlow protobuf classes from tensorboard's copies, so no TensorFlow import is needed.

tensorboard ships every proto we need except SavedModel, which is two fields around
MetaGraphDef; it is declared here against tensorboard's meta_graph.proto.
"""

import importlib

# every message module is imported on first use: the window's start needs none of them (a
# big model's reader process parses its GraphDef; ~15 ms, ~50 ms on the slow class, before
# a first picture otherwise); a GraphDef or NodeDef read imports what it needs then
_PB2 = ("attr_value_pb2", "function_pb2", "graph_pb2", "node_def_pb2", "tensor_pb2",
        "tensor_shape_pb2", "types_pb2", "versions_pb2", "meta_graph_pb2", "saver_pb2",
        "step_stats_pb2")


def _saved_model_class():
    from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

    meta_file = importlib.import_module("tensorboard.compat.proto.meta_graph_pb2").DESCRIPTOR
    fdp = descriptor_pb2.FileDescriptorProto(
        name="inspector/saved_model.proto",
        package=meta_file.package,
        syntax="proto3",
        dependency=[meta_file.name],
    )
    msg = fdp.message_type.add(name="SavedModel")
    F = descriptor_pb2.FieldDescriptorProto
    msg.field.add(name="saved_model_schema_version", number=1,
                  type=F.TYPE_INT64, label=F.LABEL_OPTIONAL)
    msg.field.add(name="meta_graphs", number=2, type=F.TYPE_MESSAGE, label=F.LABEL_REPEATED,
                  type_name=f".{meta_file.package}.MetaGraphDef")
    pool = descriptor_pool.Default()
    try:
        file_desc = pool.FindFileByName(fdp.name)
    except KeyError:
        pool.Add(fdp)
        file_desc = pool.FindFileByName(fdp.name)
    return message_factory.GetMessageClass(file_desc.message_types_by_name["SavedModel"])


def __getattr__(name: str):
    """SavedModel (declared here), GraphDef, NodeDef, MetaGraphDef and the modules of _PB2, on
    first use."""
    if name == "SavedModel":
        value = _saved_model_class()
    elif name == "MetaGraphDef":
        value = __getattr__("meta_graph_pb2").MetaGraphDef
    elif name == "GraphDef":
        value = __getattr__("graph_pb2").GraphDef
    elif name == "NodeDef":
        value = __getattr__("node_def_pb2").NodeDef
    elif name in _PB2:
        value = importlib.import_module(f"tensorboard.compat.proto.{name}")
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def varint(n: int) -> bytes:
    """Protobuf's base-128 varint encoding of n (int64 two's complement when negative)."""
    n &= (1 << 64) - 1  # negative int64s are ten-byte two's complement varints
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        if n:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


_ONE_BYTE = [bytes((n,)) for n in range(128)]     # the length varints of most nodes


def _length_varint(n: int) -> bytes:
    if n < 128:
        return _ONE_BYTE[n]
    return bytes((n & 0x7F | 0x80, n >> 7)) if n < 16384 else varint(n)


_OTHER_FIELDS = ("library", "version", "versions", "debug_info")  # GraphDef fields 2..5


def _other_fields(graph_def) -> bytes:
    """Every GraphDef field but `node`, serialized exactly as SerializeToString() does (of a
    big model's stand-in, node_store.StoredGraphDef, its store's real message of them)."""
    store = getattr(graph_def, "store", None)
    if store is not None:
        graph_def = store.other
    rest = type(graph_def)()
    for name in _OTHER_FIELDS:
        if name == "version":
            rest.version = graph_def.version
        elif graph_def.HasField(name):
            getattr(rest, name).CopyFrom(getattr(graph_def, name))
    return rest.SerializeToString(deterministic=True)


def other_fields(graph_def) -> bytes:
    """The bytes serialize_graph_def writes after the nodes (library, versions, ...)."""
    return _other_fields(graph_def)


def node_pieces(graph_def, serialize=None):
    """(node, its key and length, its bytes) for each node, then (None, b"", every other
    field's bytes): serialize_graph_def's bytes piece by piece, for writing a big graph
    without holding all of it twice in memory. `serialize(node)` False: (node, None, None),
    the caller serializes it."""
    for node in graph_def.node:
        if serialize is not None and not serialize(node):
            yield node, None, None
            continue
        data = node.SerializeToString(deterministic=True)
        yield node, b"\x0a" + _length_varint(len(data)), data
    yield None, b"", _other_fields(graph_def)


def node_head(size: int) -> bytes:
    """A GraphDef's key and length before a NodeDef of `size` bytes."""
    return b"\x0a" + _length_varint(size)


def serialized_pieces(graph_def):
    """The bytes of serialize_graph_def, piece by piece."""
    for _, head, data in node_pieces(graph_def):
        yield head
        yield data


def serialize_graph_def(graph_def) -> bytes:
    """The same bytes as graph_def.SerializeToString(deterministic=True) (every field, in
    field order, map entries sorted so the same graph always gives the same file), built node
    by node so that no single C call holds the GIL for long on a 100 MB graph."""
    return b"".join(serialized_pieces(graph_def))


def node_field_size(node_size: int) -> int:
    """Bytes a NodeDef of node_size bytes takes in its GraphDef (key, length, the node)."""
    return 1 + (node_size.bit_length() + 6) // 7 + node_size if node_size else 2


def other_fields_size(graph_def) -> int:
    """Bytes of every GraphDef field but `node` (library, versions, ...)."""
    return len(_other_fields(graph_def))


def graph_def_size(graph_def) -> int:
    """graph_def.ByteSize() computed node by node (upb encodes the message to size it, which
    holds the GIL for ~0.3 s on a 100 MB graph)."""
    total = 0
    for node in graph_def.node:
        total += node_field_size(node.ByteSize())
    return total + other_fields_size(graph_def)
