"""A piece's inputs that name one of the piece's own nodes, resolved by the reader process
that split the piece's bodies (reader_sink), the others left to the window (graph_index).

The window resolves an input text with a look-up in its dict of every node read so far (a
300k-node graph: 300k names, a cache miss a look-up); the reader looks it up in a dict of
the piece's own names (16k), and sends no text for what it found. Both give the same node:
the window's dict holds the piece's names last, so a name the piece holds is found there
(its last node of that name, as in the piece's dict). An input equal to an odd name (empty,
or holding ':' or '^': the text then means another node, or a port) is left to the window."""

from __future__ import annotations

from array import array
from itertools import compress, repeat
from operator import or_

from inspector.core.model.lazy_numpy import numpy


def split(names: list, inputs: list) -> tuple:
    """(each input's node in the piece as array('i') bytes, -1 where none is; the texts of
    the inputs at -1, in order)."""
    own = dict(zip(names, range(len(names))))
    joined = "\n".join(names)
    if "" in own or ":" in joined or "^" in joined:
        for name in [n for n in own if not n or ":" in n or "^" in n]:
            del own[name]
    found = list(map(own.get, inputs, repeat(-1)))
    return array("i", found).tobytes(), list(compress(inputs, map((-1).__eq__, found)))


# Pieces with fewer inputs than this are resolved without numpy: a model with few nodes (a
# dense model's reader sends a handful) opens without importing it (~50 ms of the window's
# CPU on the slow class); big pieces take numpy's vector steps.
NUMPY_FROM = 4096


def fits(local: bytes, rest: list, nodes: int, inputs: int) -> bool:
    """Whether split()'s answer can be a piece's of `nodes` nodes with `inputs` inputs in
    all (a garbled frame's is not taken)."""
    if len(local) != 4 * inputs:
        return False
    if inputs < NUMPY_FROM:
        at = array("i")
        at.frombytes(local)
        return not at or (min(at) >= -1 and max(at) < nodes and at.count(-1) == len(rest))
    np = numpy()
    at = np.frombuffer(local, np.int32)
    return not len(at) or (int(at.min()) >= -1 and int(at.max()) < nodes and
                           int((at < 0).sum()) == len(rest))


def resolve(graph, local: bytes, rest: list, first: int, base: int) -> list:
    """The piece's producers and ports into graph._src and graph._port (the piece's first
    node is `first`, its first input `base`): split()'s nodes as found, the rest looked up
    in the graph's dict. Returns (position, text) of the inputs that missed there or name an
    odd name (graph_index parses them)."""
    if len(local) < 4 * NUMPY_FROM:
        at = array("i")
        at.frombytes(local)
        got = array("i", [x + first if x >= 0 else -1 for x in at])
        where = [i for i, x in enumerate(at) if x < 0] if rest else []
    else:
        np = numpy()
        at = np.frombuffer(local, np.int32)
        got = np.where(at >= 0, at + first, -1).astype(np.int32)
        where = np.flatnonzero(at < 0).tolist() if rest else []
    misses: list = []
    if rest:
        found = list(map(graph._index.get, rest, repeat(-1)))
        if isinstance(got, array):
            for i, node in zip(where, found):
                got[i] = node
        else:
            got[where] = found
        odd = graph._odd
        missed = map((-1).__eq__, found) if not odd else \
            map(or_, map((-1).__eq__, found), map(odd.__contains__, rest))
        misses = list(compress(zip([i + base for i in where], rest), missed))
    graph._src.frombytes(got.tobytes())
    graph._port.frombytes(bytes(graph._port.itemsize * len(at)))
    return misses
