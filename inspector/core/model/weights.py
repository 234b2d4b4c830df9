"""Weights read when someone looks at them: where each large tensor's bytes sit in the model
file (offset, length), and reading them back on demand.

A lazily opened GraphDef keeps every node and attribute except the bytes of large tensors.
Such a tensor keeps its dtype and shape and is marked (`LAZY_MARK` in `version_number`), so
that decoding it without its bytes fails loudly instead of giving zeros (TF's meaning of a
tensor without values). Reads use pread on a descriptor opened with the model (held_file,
shared with the NodeStore): no memory map, so a file truncated by another program gives an
error, never a SIGBUS."""

from __future__ import annotations

import os
import threading
from array import array
from itertools import repeat
from operator import attrgetter
from typing import NamedTuple

from inspector.core.errors import ModelLoadError
from inspector.core.model.held_file import HeldFile
from inspector.core.model.protos import varint

LAZY_MARK = 0x4C617A79   # "Lazy": no TensorProto version TF writes is anywhere near it

# TensorProto fields whose bytes may be left in the file
TENSOR_CONTENT, FLOAT_VAL, DOUBLE_VAL = 4, 5, 6


def is_lazy(tensor_proto) -> bool:
    return tensor_proto.version_number == LAZY_MARK


class Slot(NamedTuple):
    """One tensor's values left in the file (a named tuple: made in 0.3 us, a frozen
    dataclass in 1.4 us; a 300k-node model's walk makes 30k)."""

    node: int        # index of the node in the GraphDef
    attr: str        # attribute holding the tensor (usually "value")
    field: int       # TensorProto field the bytes belong to
    offset: int
    length: int
    version: int     # the tensor's own version_number, restored when filled


_NODE = attrgetter("node")


def slot_columns(slots: list) -> tuple:
    """Slots as columns in marshal's types (a reader process sends them): their nodes, fields,
    offsets, lengths and versions as array('q') bytes, their attributes a list."""
    cols = list(map(list, zip(*slots))) if slots else [[]] * 6
    return tuple(cols[k] if k == 1 else array("q", cols[k]).tobytes() for k in range(6))


class SlotColumns:
    """slot_columns' columns read back (ValueError when they are not six columns of one
    length): the Slot objects are made when first asked for."""

    __slots__ = ("cols",)

    def __init__(self, columns):
        nodes, attrs, *rest = columns
        cols = [array("q", nodes), list(attrs)] + [array("q", c) for c in rest]
        if len(cols) != 6 or len(set(map(len, cols))) != 1 or \
                not all(a.__class__ is str for a in attrs):
            raise ValueError("slot columns of different lengths")
        self.cols = cols

    def __len__(self) -> int:
        return len(self.cols[0])

    def slots(self) -> list:
        return list(map(tuple.__new__, repeat(Slot), zip(*self.cols)))

    def total(self) -> int:
        return sum(self.cols[4])


class WeightStore(HeldFile):
    """The model file's descriptor and the slots of its lazily read tensors: `slots`
    {(node index, attribute): Slot}, made on first use from a list of Slot or SlotColumns (a
    300k-node model's 30k Slot objects took 0.1 s of the slow class's first picture)."""

    def __init__(self, path: str, fd: int, stamp: tuple, slots, scanned: int = 0):
        super().__init__(path, fd, stamp)
        self._given, self._slots = slots, None
        self.scanned = scanned        # bytes read while opening (structure)
        self.bytes_read = 0           # bytes of weights read since
        self.lazy_bytes = slots.total() if slots.__class__ is SlotColumns else \
            sum(s.length for s in slots)
        self._lock = threading.Lock()
        self._making = threading.Lock()     # (materialize holds _lock and reads slots)
        self._filled = False

    @property
    def slots(self) -> dict:
        found = self._slots
        if found is None:
            with self._making:
                found = self._slots
                if found is None:
                    given = self._given
                    if given.__class__ is SlotColumns:
                        given = given.slots()
                    found = self._slots = {(s.node, s.attr): s for s in given}
                    self._given = None
        return found

    def slot_list(self) -> list:
        """slots.values() as a list, without making the dict when the slots given are one a
        node (the common case: then they are its values, in its order)."""
        given = self._given
        if given.__class__ is list and \
                len(set(map(_NODE, given))) == len(given):
            return list(given)
        return list(self.slots.values())

    def __getstate__(self):
        raise TypeError("a WeightStore holds an open file; send the model's reference instead")

    @property
    def total_read(self) -> int:
        return self.scanned + self.bytes_read

    def slot(self, node_index: int, attr: str = "value") -> Slot | None:
        return self.slots.get((node_index, attr))

    def read(self, slot: Slot) -> bytes:
        data = self.pread(slot.length, slot.offset, "open it again to read its weights")
        self.bytes_read += len(data)
        return data

    def reader(self):
        """read(slot) without checking the file at every read: for many reads between two
        check()s (a file cut short still raises)."""
        fd, path = self.fd, self.path

        def read(slot: Slot) -> bytes:
            data = os.pread(fd, slot.length, slot.offset)
            if len(data) != slot.length:
                raise ModelLoadError("the model file is shorter than when it was opened",
                                     path=path)
            self.bytes_read += len(data)
            return data

        return read

    def fill(self, tensor_proto, slot: Slot) -> None:
        """Put a slot's bytes back into its (marked) tensor."""
        data = self.read(slot)
        if slot.field == TENSOR_CONTENT:
            tensor_proto.tensor_content = data
        else:
            tensor_proto.MergeFromString(varint(slot.field << 3 | 2) + varint(len(data)) + data)
        tensor_proto.version_number = slot.version

    def full_tensor(self, node_def, node_index: int, attr: str = "value"):
        """A copy of the node's tensor with its values (the node's own proto is untouched)."""
        tensor = type(node_def.attr[attr].tensor)()
        tensor.CopyFrom(node_def.attr[attr].tensor)
        slot = self.slot(node_index, attr)
        if slot is not None and is_lazy(tensor):
            self.fill(tensor, slot)
        return tensor

    def materialize(self, graph_def) -> None:
        """Fill every lazy tensor of `graph_def` in place (where TensorFlow needs the graph:
        the worker and the command line, never the window)."""
        with self._lock:
            if self._filled:
                return
            for slot in sorted(self.slots.values(), key=lambda s: s.offset):
                tensor = graph_def.node[slot.node].attr[slot.attr].tensor
                if is_lazy(tensor):
                    self.fill(tensor, slot)
            self._filled = True
            self.close()

    @property
    def filled(self) -> bool:
        return self._filled
