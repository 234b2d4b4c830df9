"""The Sizes panel's measure from the graph's columns (numpy): each node's bytes as one int64
array, groups summed by bincount over the scope ids or the op codes, and a Group made only
for what a treemap can show. sizes.group makes one Group a node (1M nodes: ~400 MB of
objects kept by the window, freed on the GUI thread when the next measure replaced them);
here a scope's nodes under `least` bytes are one folded group "N more nodes". The command
line's `sizes` (by_scope_to, by_key_in_order) makes the very rows of sizes.group's tree."""

from __future__ import annotations

from inspector.core.analysis.sizes import (CHUNK, Group, _chain, add_leaf, add_to, group_keys,
                                          lazy_growth_of, more, roll_up)
from inspector.core.model.graph_index import numpy
from inspector.core.model.inputs import MAX_SCOPE_DEPTH
from inspector.core.runtime.job import NO_JOB, Job


def size_array(graph, job: Job = NO_JOB):
    """Each node's bytes in the file (NodeDef and its framing), int64, in node order: from
    the loader's stored sizes when it has them (no NodeDef parsed), else a chunk of NodeDefs
    at a time."""
    np = numpy()
    stored, n = graph.stored_sizes, len(graph)
    if stored is not None and len(stored) == n:
        body = np.frombuffer(stored, np.uint32).astype(np.int64) if n else \
            np.zeros(0, np.int64)
    else:
        body = np.zeros(n, np.int64)
        nodes = graph.structure.node
        for lo in range(0, n, CHUNK):                   # no Node view a node
            job.check()
            job.progress(lo, n, "Sizing the nodes")
            body[lo:lo + CHUNK] = [node.ByteSize() for node in nodes[lo:lo + CHUNK]]
        for index, growth in lazy_growth_of(graph).items():
            body[index] += growth
    job.check()
    if stored is not None and len(stored) == n and graph.sizes_in_file:
        return body                                     # a .tflite's: its place counted
    length = np.ones(n, np.int64)                       # varint bytes of the body's length
    for bits in range(7, 64, 7):
        length += body >= (1 << bits)
    return 1 + length + body


def by_scope(graph, sizes, least_of, job: Job = NO_JOB) -> Group:
    """The scope tree of `sizes` (size_array): scopes from graph.scope_ids, summed by
    bincount; a scope's own nodes of `least_of(root)` bytes or more are leaves, the others
    one folded group."""
    np = numpy()
    paths, ids = graph.scope_ids()
    k = len(paths)
    ids = np.frombuffer(ids, np.int32) if len(ids) else np.zeros(0, np.int32)
    own_bytes = np.bincount(ids, weights=sizes, minlength=k).astype(np.int64)
    own_nodes = np.bincount(ids, minlength=k)
    root, chains = Group(""), []
    for s, path in enumerate(paths):
        if not s & (CHUNK - 1):
            job.check()
        chain = _chain(root, path.split("/")) if path else []
        chains.append(chain[-1] if chain else root)
        add_to(root, chain, int(own_bytes[s]), int(own_nodes[s]))
    job.check()
    big = np.flatnonzero(sizes >= least_of(root))
    names, big_ids = graph.name_list, ids[big]
    for i, s, size in zip(big.tolist(), big_ids.tolist(), sizes[big].tolist()):
        name = names[i]
        children = chains[s].children
        leaf = children.get(name + "\0")
        if leaf is None:
            children[name + "\0"] = Group(name, size, 1, node=name)
        else:                                   # a name given twice: one leaf
            leaf.bytes += size
            leaf.nodes += 1
    small_bytes = own_bytes - np.bincount(big_ids, weights=sizes[big], minlength=k).astype(
        np.int64)
    small_nodes = own_nodes - np.bincount(big_ids, minlength=k)
    for s in np.flatnonzero(small_nodes).tolist():
        n = int(small_nodes[s])
        chains[s].children["\0more"] = Group(more(n), int(small_bytes[s]), n, folded=n)
    return root


def by_key(graph, sizes, by: str) -> tuple:
    """(root, {group: its biggest node}) of the groups by op type or dtype (sizes.group_key),
    summed by bincount."""
    np = numpy()
    if by == "op":
        labels, codes = graph.op_names, graph.op_codes
    else:
        keys = group_keys(graph, by)
        index: dict = {}
        codes = np.fromiter((index.setdefault(key, len(index)) for key in keys), np.int32,
                            len(keys))
        labels = list(index)
    k = len(labels)
    nbytes = np.bincount(codes, weights=sizes, minlength=k).astype(np.int64)
    nodes = np.bincount(codes, minlength=k)
    order = np.lexsort((-sizes, codes))    # by group, biggest first (ties: first in order)
    starts = np.searchsorted(codes[order], np.arange(k))
    root, biggest, names = Group(""), {}, graph.name_list
    for c in np.flatnonzero(nodes).tolist():
        label = labels[c]
        root.children[label] = Group(label, int(nbytes[c]), int(nodes[c]))
        biggest[label] = names[int(order[starts[c]])]
    root.bytes, root.nodes = int(nbytes.sum()), len(sizes)
    return root, biggest


def by_scope_to(graph, sizes, depth: int, job: Job = NO_JOB) -> Group | None:
    """sizes.group's scope tree as far as `depth` levels down (sizes.top(root, depth) gives
    the very rows, ties in the same order), from graph.scope_ids: a scope `depth` or more
    levels deep is summed by bincount and placed once, at its first node; only the nodes of
    shallower scopes become leaves (the command line's --depth 1 on 1M nodes in blocks: a
    Group a top-level node, not a node). None where the columns do not say what group says:
    duplicate names (group sizes a name once), or names that scope_ids shortens."""
    np = numpy()
    if graph.duplicate_names:
        return None
    paths, ids = graph.scope_ids()
    if any(p.count("/") >= MAX_SCOPE_DEPTH - 1 for p in paths):
        return None
    k = len(paths)
    ids = np.frombuffer(ids, np.int32) if len(ids) else np.zeros(0, np.int32)
    parts = [p.split("/") if p else [] for p in paths]
    deep = np.fromiter((len(c) >= depth for c in parts), bool, k)
    scope_bytes = np.bincount(ids, weights=sizes, minlength=k).astype(np.int64)
    scope_nodes = np.bincount(ids, minlength=k)
    first = np.full(k, len(ids), np.int64)
    np.minimum.at(first, ids, np.arange(len(ids)))
    # events in node order: a deep scope at its first node, a shallow scope's every node
    shallow_nodes = np.flatnonzero(~deep[ids])
    deep_scopes = np.flatnonzero(deep & (scope_nodes > 0))
    at = np.concatenate([first[deep_scopes], shallow_nodes])
    what = np.concatenate([deep_scopes, -1 - shallow_nodes])   # >= 0 scope, < 0 node
    what = what[np.argsort(at, kind="stable")]
    root, names, chains, totals = Group(""), graph.name_list, {}, {}
    for n, e in enumerate(what.tolist()):
        if not n & (CHUNK - 1):
            job.check()
        if e >= 0:                     # a deep scope: its bytes in its groups down to depth
            add_to(root, _chain(root, parts[e][:depth]), int(scope_bytes[e]),
                   int(scope_nodes[e]))
        else:                          # a node within depth: a leaf, as group makes it
            add_leaf(root, chains, totals, names[-1 - e], int(sizes[-1 - e]))
    roll_up(root, chains, totals)
    return root


def by_key_in_order(graph, sizes, by: str) -> Group:
    """by_key's groups in sizes.group's order (first sight of each key in node order)."""
    np = numpy()
    root, _ = by_key(graph, sizes, by)
    if by == "op":
        codes, labels = np.asarray(graph.op_codes), graph.op_names
        found, first = np.unique(codes, return_index=True)
        order = [labels[int(c)] for c in found[np.argsort(first, kind="stable")]]
        root.children = {label: root.children[label] for label in order}
    return root           # dtype: by_key numbers the keys in order of first sight already
