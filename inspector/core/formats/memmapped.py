"""A frozen graph in TensorFlow's memory-mapped package format (what the removed
convert_graphdef_memmapped_format tool wrote, read by TF's MemmappedFileSystem): each large
constant's bytes as a region aligned to 64 bytes, the GraphDef (those constants turned into
ImmutableConst nodes naming their region) as the region "memmapped_package://.", then the
directory of regions (a MemmappedFileSystemDirectory protobuf) and its offset as 8 bytes,
little-endian, at the very end. On the phone the weights are mapped, not copied to the heap.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field

from inspector.core.errors import InspectorError
from inspector.core.formats.writer import atomic_stream, check_target
from inspector.core.model import dtypes, protos, tensors
from inspector.core.model.node_store import real_graph_def
from inspector.core.model.protos import varint

PREFIX = "memmapped_package://"
GRAPH_REGION = PREFIX + "."
ALIGNMENT = 64                  # Allocator::kAllocatorAlignment
MIN_BYTES = 10000               # the TF tool's default --min_conversion_tensor_size
# TF_CALL_POD_TYPES: the dtypes ImmutableConst can map (enum values of types.proto)
POD_DTYPES = frozenset({1, 2, 3, 4, 5, 6, 8, 9, 10, 14, 17, 18, 19, 22, 23})


@dataclass
class Written:
    path: str
    regions: list = field(default_factory=list)   # (name, offset, length, node)
    mapped_bytes: int = 0                          # constant bytes that are mapped, not read
    file_size: int = 0


def region_name(node_name: str, used: set) -> str:
    """The TF tool's rule: characters other than [A-Za-z0-9_.] become '_'; '_' appended
    until unique."""
    name = "".join(c if c.isascii() and (c.isalnum() or c in "_.") else "_"
                   for c in node_name)
    while name in used:
        name += "_"
    used.add(name)
    return name


def encode_directory(elements: list) -> bytes:
    """MemmappedFileSystemDirectory: repeated element {offset=1, name=2, length=3}."""
    out = bytearray()
    for name, offset, length in elements:
        raw = name.encode("utf-8")
        elem = bytearray()
        if offset:
            elem += b"\x08" + varint(offset)
        elem += b"\x12" + varint(len(raw)) + raw
        if length:
            elem += b"\x18" + varint(length)
        out += b"\x0a" + varint(len(elem)) + elem
    return bytes(out)


def emit(graph, sink, min_bytes: int = MIN_BYTES) -> tuple[list, int, int]:
    """Write the package to a binary file-like `sink`, one constant at a time (a lazily
    opened model's weights are read one by one, never all held at once). Returns (regions,
    mapped bytes, bytes written)."""
    graph_def = real_graph_def(graph.structure)     # values left in the file stay there
    written, regions, directory, used = 0, [], [], set()

    def put(data: bytes) -> None:
        nonlocal written
        sink.write(data)
        written += len(data)

    for k, node in enumerate(graph_def.node):
        if node.op != "Const" or "value" not in node.attr:
            continue
        proto = node.attr["value"].tensor
        big = proto.dtype in POD_DTYPES and \
            tensors.element_count(proto) * dtypes.item_size(proto.dtype) >= min_bytes
        full = graph.tensor(node.name) if graph.lazy else proto
        if not big:
            if full is not proto:
                proto.CopyFrom(full)             # a small constant keeps its values inline
            continue
        try:
            data = tensors.to_numpy(full).tobytes()  # C order, little-endian, as TF maps it
        except ValueError as exc:    # its bytes do not fill its shape (a damaged .tflite's)
            raise InspectorError(f"its constant cannot be written: {exc}",
                                 node=node.name) from None
        del full
        if not data:
            continue
        name = PREFIX + region_name(node.name, used)
        put(b"\0" * (-written % ALIGNMENT))
        regions.append((name, written, len(data), node.name))
        directory.append((name, written, len(data)))
        put(data)
        del data
        dtype, shape = proto.dtype, type(proto.tensor_shape)()
        shape.CopyFrom(proto.tensor_shape)
        node.op = "ImmutableConst"
        node.attr.clear()
        node.attr["dtype"].type = dtype
        node.attr["shape"].shape.CopyFrom(shape)
        node.attr["memory_region_name"].s = name.encode()
    encoded = protos.serialize_graph_def(graph_def)
    directory.append((GRAPH_REGION, written, len(encoded)))
    put(encoded)
    where = written
    put(encode_directory(directory))
    put(where.to_bytes(8, "little"))
    return regions, sum(r[2] for r in regions), written


def build(graph, min_bytes: int = MIN_BYTES) -> tuple[bytes, list, int]:
    """(file bytes, regions, mapped bytes) in memory (small graphs and tests)."""
    sink = io.BytesIO()
    regions, mapped, _ = emit(graph, sink, min_bytes)
    return sink.getvalue(), regions, mapped


def write_memmapped(graph, path: str, min_bytes: int = MIN_BYTES, force: bool = False,
                    source: str | None = None) -> Written:
    """Write the package atomically (never over an existing file unless forced), streamed
    to disk: memory holds the graph's structure and one constant at a time."""
    check_target(path, force, source)
    with atomic_stream(path, force=force, source=source) as fh:
        regions, mapped, size = emit(graph, fh, min_bytes)
    return Written(path, regions, mapped, size)
