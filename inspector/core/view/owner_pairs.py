"""_Projection.owner_pairs on a big graph's edge groups (view_columns.EdgeGroups' arrays):
which item shows each container worked out once per distinct head of its path (the parts
the expanded scopes can tell apart), the groups between two collapsed scopes summed by
whole-array steps; only groups touching an open scope's own nodes are walked edge by edge.
The same pairs, in the same order, as the walk of every group."""

from __future__ import annotations

from inspector.core.view.hierarchy import outermost_collapsed
from inspector.core.view.view_columns import _numpy


def _count(pairs: dict, key: tuple, n: int, src: str, port, position: int) -> None:
    """Add n edges to a pair; its src and port stay those of its first edge in graph order."""
    hit = pairs.get(key)
    if hit is None:
        pairs[key] = [n, src, port, position]
        return
    hit[0] += n
    if position < hit[3]:
        hit[1], hit[2], hit[3] = src, port, position


def count_edges(pairs: dict, positions, all_edges, a_owner: str, b_owner: str,
                control: bool) -> None:
    """Count a group's edges (at `positions`) one by one: each end is its owner when that
    is a collapsed scope ("" else: the node itself); edges inside one item are left out."""
    for position in positions:
        src, port, dst, _ = all_edges[position]
        a, b = a_owner or src, b_owner or dst
        if a != b:
            _count(pairs, (a, b, control), 1, src, port, position)


def in_graph_order(pairs: dict) -> dict:
    """{(a, b, control): [edges, src, port]} ordered by each pair's first edge."""
    return {key: hit[:3] for key, hit in sorted(pairs.items(), key=lambda kv: kv[1][3])}


def shown_by(np, containers, exp) -> tuple:
    """(owner number of each container, as a numpy array; the owners, "" first: 0 is a
    container drawn open, its nodes shown one by one)."""
    depth = max((p.count("/") + 2 for p in exp if p), default=1)
    if hasattr(containers, "head_codes"):
        codes, distinct = containers.head_codes(depth)
    else:
        heads = [c[:depth] for c in containers]
        distinct = list(dict.fromkeys(heads))
        number = dict(zip(distinct, range(len(distinct))))
        codes = np.fromiter(map(number.__getitem__, heads), np.int64, len(heads))
    owners, number = [""], {"": 0}
    of_head = np.zeros(len(distinct), np.int64)
    for j, head in enumerate(distinct):     # outermost_collapsed depends on the head only
        owner = outermost_collapsed(head, exp) or ""
        k = number.get(owner)
        if k is None:
            k = number[owner] = len(owners)
            owners.append(owner)
        of_head[j] = k
    return of_head[codes], owners


def owner_pairs_on_arrays(containers, groups, exp, all_edges, job) -> dict:
    np = _numpy()
    ka, kb, control, positions, starts, stops = groups.arrays
    shown, owners = shown_by(np, containers, exp)
    oa, ob = shown[ka], shown[kb]
    closed = (oa > 0) & (ob > 0)
    pairs: dict = {}                # (a, b, control) -> [n, src, port, first position]
    apart = np.flatnonzero(closed & (oa != ob))
    if len(apart):
        key = (oa[apart] * len(owners) + ob[apart]) * 2 + control[apart]
        distinct, which = np.unique(key, return_inverse=True)
        which = which.reshape(-1)
        total = np.bincount(which, weights=(stops - starts)[apart], minlength=len(distinct))
        first = np.full(len(distinct), len(positions), np.int64)
        np.minimum.at(first, which, positions[starts[apart]])
        n_owners, check = len(owners), job.check
        for step, (code, n, position) in enumerate(zip(distinct.tolist(), total.tolist(),
                                                       first.tolist())):
            if not step & 1023:
                check()
            a, b = divmod(code >> 1, n_owners)
            src, port, _, _ = all_edges[position]
            pairs[(owners[a], owners[b], bool(code & 1))] = [int(n), src, port, position]
    check = job.check
    for step, k in enumerate(np.flatnonzero(~closed).tolist()):
        if not step & 1023:
            check()     # a superseded layout stops here
        count_edges(pairs, positions[starts[k]:stops[k]].tolist(), all_edges,
                    owners[oa[k]], owners[ob[k]], bool(control[k]))
    return in_graph_order(pairs)
