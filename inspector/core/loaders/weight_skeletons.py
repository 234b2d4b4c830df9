"""Weight nodes stripped by their skeleton: a big GraphDef's constants (a Const per layer)
mostly share one layout, bytes for bytes, but for the node's name and its tensor's values.

The lazy walk (lazy_graphdef.read_fields) parses a node holding a large value, leaves the
value in the file and writes the node again (about 10 us of Python a node: 30k weights are
half the walk of a 300k-node model). Once it has done so for one node, the result is a
function of the node's name only, for every later node whose bytes around the name and the
values are the same: the stripped NodeDef is its name field followed by the same bytes (the
protobuf writer puts field 1, the name, first) and its slot sits at the same place after the
name. `Skeletons.strip` answers such a node from a comparison of those bytes; any other
node (and any doubt: a name that is not UTF-8, the values' first bytes seen before them, a
second name field) goes the parse's way, which learns the layouts it meets."""

from __future__ import annotations

from inspector.core.model import protos
from inspector.core.model.node_store import _fields
from inspector.core.model.weights import TENSOR_CONTENT, Slot

MOST = 64          # layouts kept (a model's distinct weight shapes; others parse)
HEAD = 32          # bytes of the values the parse's search looks for (weight_strip.place)
_FLIP = bytes(range(255, -1, -1))      # a translate table that changes every byte
_slot = tuple.__new__     # a Slot made from its fields' tuple (Slot(...) checks its arguments)


def _name_end(buf, i: int) -> int:
    """Where the name field that starts a NodeDef at buf[i] ends (its length written in one
    or two canonical varint bytes), or -1."""
    if buf[i] != 0x0A:
        return -1
    n = buf[i + 1]
    if n < 0x80:
        return i + 2 + n
    m = buf[i + 2]
    if m == 0 or m >= 0x80:
        return -1
    return i + 3 + ((n & 0x7F) | m << 7)


class Skeletons:
    """The layouts of weight nodes learnt from their parse (`learn`), keyed by the bytes
    after the name field: (bytes from the name to the values, value length, bytes after
    them, the stripped NodeDef after its name field, the attribute, the tensor's version)."""

    def __init__(self):
        self.known: dict = {}

    def strip(self, buf, i: int, end: int, begin: int, index: int, found: list):
        """The stripped NodeDef bytes of the node at buf[i:end] (file offset begin) and its
        slot appended to found, when it has a known layout; else None."""
        n = buf[i + 1] if buf[i] == 0x0A else 0x80     # _name_end inline (30k calls)
        ne = i + 2 + n if n < 0x80 else _name_end(buf, i)
        known = self.known.get(end - ne) if ne > i else None
        if known is None:
            return None
        middle, length, tail, rest, attr, version = known
        at = ne + len(middle)
        if not (buf.startswith(middle, ne) and buf.startswith(tail, at + length)):
            return None
        name = buf[i:ne]
        if not name.isascii():
            try:         # (the parse refuses the node otherwise)
                name[2 if name[1] < 0x80 else 3:].decode("utf-8")
            except UnicodeDecodeError:
                return None
        if buf.find(buf[at:at + HEAD], i, at + HEAD - 1) >= 0:
            return None     # the values' head seen before them: the parse's search decides
        found.append(_slot(Slot, (index, attr, TENSOR_CONTENT, begin + at - i, length,
                                  version)))
        return name + rest

    def learn(self, buf, i: int, end: int, begin: int, slots: list, stripped: bytes,
              name: str) -> None:
        """Keep the layout of the node at buf[i:end] that the parse stripped into `stripped`
        (its NodeDef bytes), with `slots` (the node's own) and `name` (its parsed name)."""
        if len(slots) != 1 or len(self.known) >= MOST or slots[0].field != TENSOR_CONTENT:
            return
        ne = _name_end(buf, i)
        slot = slots[0]
        at = slot.offset - begin + i
        if ne <= i or not ne <= at <= end - slot.length or end - ne in self.known or \
                buf[i + (2 if buf[i + 1] < 0x80 else 3):ne].decode("utf-8", "replace") != name \
                or not stripped.startswith(buf[i:ne]) or not _one_name(buf, ne, end):
            return
        if buf.find(buf[at:at + HEAD], i, at + HEAD - 1) >= 0 or \
                not _the_values_field(buf, i, at, end, slot):
            return
        self.known[end - ne] = (bytes(buf[ne:at]), slot.length,
                                bytes(buf[at + slot.length:end]), stripped[ne - i:],
                                slot.attr, slot.version)


def _the_values_field(buf, i: int, at: int, end: int, slot) -> bool:
    """buf[at:] holds the attribute's tensor_content itself, not the same bytes in another
    field before it (the parse's search takes the first place holding them): the node with
    those bytes changed parses with its values changed."""
    flipped = bytes(buf[at:at + slot.length]).translate(_FLIP)
    try:
        node = protos.NodeDef.FromString(bytes(buf[i:at]) + flipped +
                                         bytes(buf[at + slot.length:end]))
    except Exception:  # noqa: BLE001  (protobuf's DecodeError, or upb's own)
        return False
    return node.attr[slot.attr].tensor.tensor_content == flipped


def _one_name(buf, pos: int, end: int) -> bool:
    """No other name field (field 1) among the top-level fields of buf[pos:end] (a second
    one would be the name the parse keeps), and they are whole."""
    try:
        return all(number > 1 for number, _, _, _ in _fields(memoryview(buf)[pos:end]))
    except (ValueError, IndexError):
        return False
