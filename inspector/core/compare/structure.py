"""The structure rule of the matching: unique exact-subgraph fingerprints paired (a hash join
of the fingerprint arrays on big graphs), tallest first, then the exact subgraph feeding
each pair, input slot by input slot, walked by node index."""

from __future__ import annotations

from operator import itemgetter

from inspector.core.compare.columns import (
    PIECE,
    array_of,
    columns,
    indexes,
    noted_pairs,
    np,
    order_by,
    pieces,
    release,
)
from inspector.core.compare.fingerprints import Fingerprints
from inspector.core.compare.records import Matching
from inspector.core.model.graph import Graph


def _unique_groups(fp: dict, taken: dict) -> dict:
    groups: dict = {}
    for name, value in fp.items():
        if name not in taken:
            groups.setdefault(value, []).append(name)
    return {v: names[0] for v, names in groups.items() if len(names) == 1}


def _by_structure(m: Matching, ga: Graph, gb: Graph, fa: Fingerprints, fb: Fingerprints) -> None:
    ca, cb = columns(ga), columns(gb)
    if fa.fp is not None and fb.fp is not None and ca.arrays and cb.arrays:
        seeds = _unique_pairs(ca, cb, fa, fb, m)    # a hash join of the arrays
    else:
        only_a = _unique_groups(fa.fingerprint, m.b_of)
        only_b = _unique_groups(fb.fingerprint, m.a_of)
        seeds = [(fa.height[a], a, only_b[v], ca.at[a], cb.at[only_b[v]])
                 for v, a in only_a.items() if v in only_b]
    seeds = order_by(seeds, [-s[0] for s in seeds], itemgetter(1))   # tallest first
    fp_a = fa.fp if fa.fp is not None else [fa.fingerprint[n] for n in ca.names]
    fp_b = fb.fp if fb.fp is not None else [fb.fingerprint[n] for n in cb.names]
    _exact_subgraphs(seeds, ca, cb, fp_a, fp_b, m)
    release(seeds)          # not freed whole at the return: a C call over 300k tuples


def _unique_pairs(ca, cb, fa: Fingerprints, fb: Fingerprints, m: Matching) -> list:
    """[(height in A, a, b, index of a, index of b)]: the nodes whose fingerprint is had by
    no other node still unmatched on their side and by one such node on the other (unique
    names on both sides: the fingerprints are lists by node index)."""
    ends = []
    for cols, fp, taken in ((ca, fa.fp, m.b_of), (cb, fb.fp, m.a_of)):
        free = np.ones(len(fp), bool)
        free[indexes(cols.at, list(taken))] = False
        at = np.flatnonzero(free)
        values, first, counts = np.unique(array_of(fp)[at], return_index=True,
                                          return_counts=True)
        ends.append((values[counts == 1], at[first[counts == 1]]))
    (va, xa), (vb, xb) = ends
    _, ka, kb = np.intersect1d(va, vb, assume_unique=True, return_indices=True)
    xs, ys = pieces(xa[ka]), pieces(xb[kb])
    names_a, names_b = ca.names, cb.names
    return [(h, names_a[x], names_b[y], x, y) for h, x, y in
            zip(pieces(array_of(fa.heights)[xa[ka]]), xs, ys)]


def _exact_subgraphs(seeds: list, ca, cb, fp_a: list, fp_b: list, m: Matching) -> None:
    """From each seed pair (height, a, b and their node indexes), tallest first: the exact
    subgraph feeding it (fingerprints by node index), walked by node index (a name's first
    node: every index in `ins` is one), what is taken marked in two bytearrays. The pairs go
    into m in the order found, as m.pair would put them, with their indexes noted."""
    ins_a, ins_b = ca.ins, cb.ins
    taken_a, taken_b = _taken(ca, m.b_of), _taken(cb, m.a_of)
    xs: list = []
    ys: list = []
    for _, _, _, x, y in seeds:
        if taken_a[x] or taken_b[y]:
            continue
        taken_a[x] = taken_b[y] = 1
        xs.append(x)
        ys.append(y)
        stack = [(x, y)]
        while stack:       # an exact subgraph: its inputs are the same, slot by slot
            x, y = stack.pop()
            for i, j in zip(ins_a[x], ins_b[y]):
                if taken_a[i] or taken_b[j]:
                    continue
                if fp_a[i] == fp_b[j]:
                    taken_a[i] = taken_b[j] = 1
                    xs.append(i)
                    ys.append(j)
                    if ins_a[i]:        # (a source has nothing to walk)
                        stack.append((i, j))
    got_a: list = []
    got_b: list = []
    for lo in range(0, len(xs), PIECE):      # a C call a piece: each holds the GIL
        got_a += map(ca.names.__getitem__, xs[lo:lo + PIECE])
        got_b += map(cb.names.__getitem__, ys[lo:lo + PIECE])
    m.pair_all(got_a, got_b, "structure")
    if ca.arrays and cb.arrays:         # (numpy is in use)
        noted_pairs(m, got_a, got_b, xs, ys)
    release(xs, ys)


def _taken(cols, names) -> bytearray:
    """taken[i]: node i's name is in `names` (a name's first node)."""
    taken, at = bytearray(len(cols.names)), cols.at
    for name in names:
        i = at.get(name)
        if i is not None:
            taken[i] = 1
    return taken
