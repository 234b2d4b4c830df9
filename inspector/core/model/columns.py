"""A graph's nodes as columns, read by protobuf's C parser with no Python object per node.

The GraphDef's node fields are split into their bodies (a message whose only field is
`repeated bytes node = 1`), the bodies are joined with a marker name, op, input and device
after each node, and the join is parsed once as a message of `repeated string name = 1,
op = 2, input = 3, device = 4`: protobuf appends repeated fields in wire order, so the
names, ops, inputs and devices of every node arrive as four lists made in C. The markers
give each node's fields back (and show a node whose name or op is missing or written twice,
which a NodeDef parse would settle by its last field). Input names become producer indexes
through one dict look-up per input, also in C (graph_index); only the inputs that miss
(`name:port`, `^name`, a name not in the graph) are parsed in Python.

A batch this cannot read exactly (a node without exactly one name and one op, an input or
a device that is the marker itself, a body that is not a NodeDef) is read from the
GraphDef's messages one node at a time instead: the same columns, slower."""

from __future__ import annotations

from array import array
from itertools import chain, compress, count, filterfalse, repeat
from operator import is_, is_not, sub
from sys import intern

from inspector.core.model import const_columns
from inspector.core.model.graph_index import numpy

MARK = "\x00"
CHUNK = 50_000          # node bodies parsed at once
# name, op, input and device "\0": the end of one node
_SEP = b"\x0a\x01\x00\x12\x01\x00\x1a\x01\x00\x22\x01\x00"
_CLASSES: list = []
# inspector_columns.proto, serialized (a FileDescriptorProto; tests/core/test_columns_messages
# builds it field by field): message Raw { repeated bytes node = 1; } and message Flat
# { repeated string name = 1, op = 2, input = 3, device = 4; }. Given as bytes, the window's
# first open needs no descriptor_pb2 (~1.3 ms of its load, ~6 ms on the slow class)
MESSAGES_PROTO = (b'\n\x17inspector_columns.proto\x12\x11inspector_columns"\x13\n\x03Raw\x12'
                  b'\x0c\n\x04node\x18\x01 \x03(\x0c"?\n\x04Flat\x12\x0c\n\x04name\x18\x01 \x03'
                  b'(\t\x12\n\n\x02op\x18\x02 \x03(\t\x12\r\n\x05input\x18\x03 \x03(\t\x12\x0e\n'
                  b'\x06device\x18\x04 \x03(\tb\x06proto3')


def _messages():
    """(Raw, Flat) message classes, made once."""
    if not _CLASSES:
        from google.protobuf import descriptor_pool, message_factory

        pool = descriptor_pool.DescriptorPool()
        pool.AddSerializedFile(MESSAGES_PROTO)
        _CLASSES.extend(message_factory.GetMessageClass(
            pool.FindMessageTypeByName("inspector_columns." + n)) for n in ("Raw", "Flat"))
    return _CLASSES


class Batch:
    """The columns of consecutive nodes: names, ops, their inputs flattened with
    `counts[j]` inputs for node j, and {node position in the batch: device}; `wire`: read
    from the wire bytes (else node by node). `local`: a reader process's
    piece_inputs.split (then `inputs` holds only the texts it left), else None."""

    __slots__ = ("names", "ops", "inputs", "counts", "devices", "wire", "consts", "local")

    def __init__(self, names, ops, inputs, counts, devices, wire, local=None):
        self.names, self.ops, self.inputs = names, ops, inputs
        self.counts, self.devices, self.wire = counts, devices, wire
        self.consts = None       # const_columns.ConstPart list, when read (read_wire)
        self.local = local


def read_wire(data, expected: int, consts: bool = False,
              lengths: list | None = None) -> Batch | None:
    """The columns of the node fields in GraphDef wire bytes `data` (other top-level fields
    are ignored), or None when they cannot be read exactly this way; `lengths` (a list)
    gets each node's NodeDef length once the bodies are split. The bodies are parsed
    CHUNK nodes at a time: a parsed message holds its fields, the attributes' bytes and a
    copy of its input (4-5x the bytes), so the whole batch at once cost 30 % more memory at
    the peak of opening than the node-by-node Graph before the columns. consts: also the
    facts of the Const nodes' tensors, from the same bytes (const_columns; numpy)."""
    try:
        raw_class, flat_class = _messages()
        raw = raw_class()
        raw.ParseFromString(data)
        bodies = list(raw.node)
        del raw
    except Exception:  # noqa: BLE001  (not plain NodeDefs: read them one by one)
        return None
    if len(bodies) != expected:
        return None
    if lengths is not None:
        lengths += map(len, bodies)
    names, ops, inputs, devices, parts = [], [], [], [], []
    marks_only = 0       # nodes so far whose devices were each the marker alone
    while bodies:
        part = bodies[:CHUNK]
        del bodies[:CHUNK]
        part.append(b"")
        try:
            flat = flat_class()
            joined = _SEP.join(part)
            flat.ParseFromString(joined)
        except Exception:  # noqa: BLE001
            return None
        k = len(part) - 1
        got, did = _one_each(flat.name, k), _one_each(flat.op, k)
        if got is None or did is None:
            return None       # a node without a name or an op (proto3 leaves it out), or two
        if consts and "Const" in did:
            parts.append(_const_part(joined, part, did, len(names)))
        del part, joined
        names += got
        ops += map(intern, did)     # a few op types: one string each, not one a node
        inputs += flat.input
        if len(flat.device) == k and not devices:    # (most: no node names a device; the
            marks_only += k          # markers are not made into a list then)
        else:
            devices += repeat(MARK, marks_only)
            marks_only = 0
            devices += flat.device
        del flat
    if devices:
        devices += repeat(MARK, marks_only)
    batch = _split_marks(names, ops, inputs, devices or expected, expected)
    if batch is not None and consts:
        batch.consts = parts
    return batch


def _const_part(joined: bytes, part: list, ops: list, first: int):
    """const_columns.read of the Const bodies among part (joined with _SEP)."""
    np = numpy()
    lengths = np.fromiter(map(len, part), np.int64, len(part))[:-1]
    starts = np.zeros(len(lengths), np.int64)
    np.cumsum(lengths[:-1] + len(_SEP), out=starts[1:])
    at = np.fromiter(compress(count(), map("Const".__eq__, ops)), np.int64)
    return const_columns.read(joined, starts[at], starts[at] + lengths[at], at + first)


def _one_each(values, expected: int) -> list | None:
    """The values of a field each node has once (value, marker, value, marker, ...), else
    None."""
    if len(values) != 2 * expected:
        return None
    got = values[0::2]
    if values[1::2].count(MARK) != expected or MARK in got:
        return None
    return got


def _split_marks(names, ops, inputs, devices, expected) -> Batch | None:
    """Per-node input counts and devices from the markers after each node (C-level maps,
    no numpy: small graphs open without importing it). devices: the device field's values
    and markers, or their count when they are the markers alone (one a node)."""
    # the markers by identity first (CPython makes every one-character ASCII string the
    # same object: twice as fast as comparing each input), by equality when that misses
    same = is_
    ends = list(compress(count(), map(is_, inputs, repeat(MARK))))
    if len(ends) != expected:
        same, ends = None, list(compress(count(), map(MARK.__eq__, inputs)))
        if len(ends) != expected:
            return None           # an input written as the marker itself
    counts = list(map(sub, ends, chain((-1,), ends)))
    counts = list(map(sub, counts, repeat(1)))
    if len(ends) == len(inputs):
        kept = []
    elif same is is_:
        kept = list(compress(inputs, map(is_not, inputs, repeat(MARK))))
    else:
        kept = list(filterfalse(MARK.__eq__, inputs))
    found = {}
    if devices.__class__ is not int and len(devices) != expected:
        where = list(compress(count(), map(MARK.__ne__, devices)))
        if len(devices) - len(where) != expected:
            return None
        for k, pos in enumerate(where):      # the last one counts, as in a NodeDef
            found[pos - k] = devices[pos]
        found = {j: d for j, d in found.items() if d}
    return Batch(names, ops, kept, counts, found, True)


def read_messages(protos) -> Batch:
    """The same columns from NodeDef messages, one node at a time (the exact, slow way)."""
    names, ops, inputs, counts, devices = [], [], [], array("q"), {}
    for j, proto in enumerate(protos):
        names.append(proto.name)
        ops.append(proto.op)
        texts = proto.input
        inputs.extend(texts)
        counts.append(len(texts))
        if proto.device:
            devices[j] = proto.device
    return Batch(names, ops, inputs, counts, devices, False)
