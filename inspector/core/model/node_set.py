"""A set of node names kept as a mask over a Graph's node indexes: a byte a node instead of a
name in a set (a million-name set is ~40 MB in the window; its mask is 1 MB). Names go in
and come out by the graph's index, first node of a name first (graph.index's rule: a name's
later duplicates stand for nothing of their own)."""

from __future__ import annotations

from collections.abc import Set
from itertools import compress, islice

from inspector.core.model import graph_index
from inspector.core.runtime import pieces

PIECE = pieces.PIECE  # names looked up per C call (the GIL is held meanwhile)
NUMPY_FROM = 4096     # masks this long list their indexes with numpy


def later_duplicates(graph) -> list:
    """The indexes of the nodes whose name an earlier node has ([] on most graphs)."""
    if not graph.duplicate_names:
        return []
    twice, index = set(graph.duplicate_names), graph._index
    return [i for i, name in enumerate(graph.name_list) if name in twice and index[name] != i]


class NodeSet(Set):
    """The names of the graph's nodes whose byte in `mask` is `want` (0 or 1). The mask is
    shared, not copied: the one who made it no longer changes it."""

    def __init__(self, graph, mask: bytearray, want: int = 1, later: list | None = None):
        """`later`: later_duplicates(graph), when the caller has it already."""
        self._names, self._index, self._mask, self._want = graph.name_list, graph._index, \
            mask, want
        self._later = later_duplicates(graph) if later is None else later
        self._len = mask.count(want) - sum(mask[i] == want for i in self._later)

    @property
    def mask(self) -> bytearray:
        return self._mask

    @property
    def want(self) -> int:
        return self._want

    def of(self, graph) -> bool:
        """Whether this is a set of `graph`'s nodes."""
        return self._names is graph.name_list

    def __contains__(self, name) -> bool:
        i = self._index.get(name)
        return i is not None and self._mask[i] == self._want

    def __len__(self) -> int:
        return self._len

    def __iter__(self):
        return map(self._names.__getitem__, self.indexes())

    def __repr__(self) -> str:
        return f"NodeSet({len(self)} names)"

    def indexes(self) -> list:
        """The members' node indexes, in graph order (a list of ints, made PIECE at a time
        on a big graph: one C call over every node would hold the GIL)."""
        mask, want = self._mask, self._want
        if len(mask) >= NUMPY_FROM:
            np = graph_index.numpy()
            at = np.flatnonzero(np.frombuffer(mask, np.uint8) == want)
            out = pieces.listed(at, PIECE)
        else:
            out = list(compress(range(len(mask)), (b == want for b in mask)))
        if self._later:
            later = set(self._later)
            out = [i for i in out if i not in later]
        return out

    def isdisjoint(self, other) -> bool:
        """No name of `other` is a member: the names looked up PIECE a C call (Set's own
        isdisjoint makes a Python call a name)."""
        look, mask = self._index.__getitem__, self._mask.__getitem__
        short = isinstance(other, (list, tuple)) and len(other) <= PIECE
        items = iter(other)
        while True:
            piece = other if short else list(islice(items, PIECE))
            if not piece:
                return True
            try:
                hits = map(mask, map(look, piece))
                found = any(hits) if self._want else not all(hits)
            except KeyError:    # a name the graph does not hold: this piece name by name
                found = any(name in self for name in piece)
            if found:
                return False
            if short:
                return True

    @classmethod
    def _from_iterable(cls, items) -> set:
        """What Set's operators (|, &, -) give: a plain set."""
        return set(items)
