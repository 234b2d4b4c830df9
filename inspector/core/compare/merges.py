"""The last matching phase: nodes of A merged into a match of B (N:1: a batch norm folded
into its Conv, constants folded into what reads them, an Identity bypassed) and nodes of B
split out of a match (1:N: a bias out of a folded batch norm, a weight's quantized parts)."""

from __future__ import annotations

import weakref

from inspector.core.compare.changes import same_tensor
from inspector.core.compare.columns import columns, pairs, unpaired_sides
from inspector.core.compare.operands import data_inputs
from inspector.core.model.graph import Graph

# ops a converter or a fold merges into the computation before them
FOLDABLE = frozenset({"Mul", "Add", "AddV2", "Sub", "BiasAdd", "FusedBatchNorm",
                      "FusedBatchNormV2", "FusedBatchNormV3", "BatchNormWithGlobalNormalization",
                      "Relu", "Relu6", "Identity", "Const", "Rsqrt", "Maximum", "Minimum"})


def merges_and_splits(m, ga: Graph, gb: Graph) -> None:
    """An unmatched node of A whose consumers' counterparts now read its input's counterpart
    was merged into that input (a batch norm folded into its Conv); constants that fed only
    merged nodes went with them. Unmatched nodes of B that only feed a constant's counterpart
    came out of that constant (weights quantized into values, min and max)."""
    _folded_batch_norms(m, ga, gb)
    cols = columns(ga)
    names, at, uses = cols.names, cols.at, cols.uses
    left_a, left_b = unpaired_sides(m, cols, columns(gb))
    if left_a is not None and not [a for a in map(names.__getitem__, left_a)
                                   if a not in m.merged]:
        _splits(m, ga, gb, left_b)  # every node of A taken: nothing left to merge
        return
    if left_a is None and _all_taken(m, names):
        _splits(m, ga, gb)
        return
    _merged_duplicates(m, ga, gb, names if left_a is None else map(names.__getitem__, left_a))
    _folded_constants(m, ga)
    changed = True
    while changed:
        changed = False
        for k, (a, op) in enumerate(zip(names, cols.ops)):
            if op not in FOLDABLE or a in m.b_of or a in m.merged:
                continue
            readers = [names[r] for r, _, _ in uses[at[a]]]
            targets = {m.b_of.get(r) or m.merged.get(r) for r in readers}
            if not readers or None in targets:
                continue
            if op == "Const":
                if len(targets) == 1 and all(r in m.merged for r in readers):
                    m.merged[a] = targets.pop()
                    changed = True
                continue
            into = _bypass_target(m, ga, gb, ga.nodes[k], targets)
            if into is not None:
                m.merged[a] = into
                changed = True
    _folded_constants(m, ga)      # again: what fed the nodes merged just now
    _splits(m, ga, gb)


def _merged_duplicates(m, ga: Graph, gb: Graph, candidates) -> None:
    """An unpaired node of A whose every reader's counterpart reads, at its slot, the
    counterpart of another node of A just like it (same op, attributes, values, and inputs
    alike in turn) was merged into that one (merge_duplicate_nodes: two equal Consts become
    one, then the two Muls reading them). Before this rule, constants folded into their
    readers took it: 'Const c2 merged into AddV2 a', and the reader said rewired."""
    pending = [a for a in candidates if a not in m.b_of and a not in m.merged]
    memo: dict = {}                 # (a, b, depth) -> alike, for every candidate
    changed = True
    while changed and pending:      # a chain merges from its readers up: each turn, one more
        changed = False
        for a in pending:
            y = _read_instead(m, ga, gb, a)
            twin = m.a_of.get(y) if y is not None else None
            if twin is not None and twin != a and _alike(ga, a, twin, 0, memo):
                m.merged[a] = y
                changed = True
        pending = [a for a in pending if a not in m.merged]


def _read_instead(m, ga: Graph, gb: Graph, a: str) -> str | None:
    """The one node of B that the counterparts of a's readers read where they read a."""
    into = set()
    for e in ga.consumers(a):
        if e.control:
            continue
        rb = m.b_of.get(e.dst) or m.merged.get(e.dst)
        inputs = [r for r in gb.node(rb).inputs if not r.control] if rb is not None else []
        if e.dst_index >= len(inputs):
            return None
        into.add(inputs[e.dst_index].node)
    return into.pop() if len(into) == 1 else None


# input pairs _alike compares in one comparison: past it, nothing more is found alike
ALIKE_BUDGET = 200_000


def _alike(ga: Graph, a: str, b: str, depth: int, memo: dict) -> bool:
    """Nodes a and b of one graph are duplicates: the same op, attributes, values (a
    tensor's still in the file read now, for these two only) and inputs, each the same node
    or alike in turn. Each (a, b, depth) is answered once (`memo`, shared by the candidates):
    two towers of AddN reading their level below 8 times each were 8**8 calls (minutes for
    a 20-node pair), and at most ALIKE_BUDGET input pairs are compared in all."""
    key = (a, b, depth)
    found = memo.get(key)
    if found is None:
        found = memo[key] = _alike_now(ga, a, b, depth, memo)
    return found


def _alike_now(ga: Graph, a: str, b: str, depth: int, memo: dict) -> bool:
    na, nb = ga.node(a), ga.node(b)
    if na.op != nb.op or len(na.inputs) != len(nb.inputs) or depth > 8:
        return False
    spent = memo.get("spent", 0) + len(na.inputs)
    memo["spent"] = spent
    if spent > ALIKE_BUDGET:
        return False
    for ra, rb in zip(na.inputs, nb.inputs):
        if ra.port != rb.port or ra.control != rb.control or \
                ra.node != rb.node and not _alike(ga, ra.node, rb.node, depth + 1, memo):
            return False
    pa, pb = na.proto, nb.proto
    if set(pa.attr) != set(pb.attr) or any(pa.attr[k] != pb.attr[k] for k in pa.attr
                                           if k != "value"):
        return False
    if "value" not in pa.attr:
        return True
    try:
        return same_tensor(ga.tensor(a), ga.tensor(b))
    except Exception:       # noqa: BLE001 - values that cannot be read are not alike
        return False


def _all_taken(m, names: list) -> bool:
    """Every node of A (`names`) is matched or merged."""
    b_of, merged = m.b_of, m.merged
    return all([a in b_of or a in merged for a in names])


def _splits(m, ga: Graph, gb: Graph, left: list | None = None) -> None:
    """Unmatched nodes of B that only feed a constant's counterpart came out of it (`left`:
    the indexes of B's nodes in no pair, in graph order, where known: only those are looked
    at)."""
    names = columns(gb).names
    for b in (names if left is None else map(names.__getitem__, left)):
        if b in m.a_of or b in m.split:
            continue
        readers = {e.dst for e in gb.consumers(b)}
        sources = {m.a_of.get(r) or m.split.get(r) for r in readers}
        if len(sources) == 1 and None not in sources:
            a = sources.pop()
            there = m.b_of.get(a)
            if there is None or (ga.node(a).op == "Const" and gb.node(there).op != "Const"):
                m.split[b] = a


SOURCES = frozenset({"Placeholder", "PlaceholderV2", "PlaceholderWithDefault", "VarHandleOp",
                     "VariableV2", "Variable"})


def _folded_constants(m, ga: Graph) -> None:
    """Unmatched nodes of A that compute from constants alone (no input upstream) were folded
    into what reads them: each goes into the counterpart of its consumers, when they agree
    (fold_constants, a converter's constant folding)."""
    for name in constant_nodes(ga):        # consumers before what feeds them
        if name in m.b_of or name in m.merged:
            continue
        readers = [e.dst for e in ga.consumers(name) if not e.control]
        targets = {m.b_of.get(r) or m.merged.get(r) for r in readers}
        if readers and len(targets) == 1 and None not in targets:
            m.merged[name] = targets.pop()


_CONSTANT_NODES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def constant_nodes(graph: Graph) -> list:
    """The nodes computed from constants alone (no source upstream, control inputs counted)
    in reverse TF execution order; none when that order does not exist (a cycle, an input
    not in the graph). Found once per graph."""
    found = _CONSTANT_NODES.get(graph)
    if found is None:
        found = _CONSTANT_NODES[graph] = _find_constant_nodes(graph)
    return found


def _find_constant_nodes(graph: Graph) -> list:
    from inspector.core.model.execution_order import execution_indexes, execution_order

    if not columns(graph).unique:        # the order by names, as execution_order gives it
        try:
            order = [graph.node(p.name) for p in execution_order(graph.structure)]
        except Exception:    # noqa: BLE001 - a graph with a cycle: no folding to explain
            return []
        constant: set = set()
        for node in order:
            if node.op not in SOURCES and all(r.node in constant for r in node.inputs):
                constant.add(node.name)
        return [node.name for node in reversed(order) if node.name in constant]
    order = execution_indexes(graph)
    if order is None:
        return []
    cols = columns(graph)
    constant, ops = [False] * len(cols.names), cols.ops
    for i in order:
        if ops[i] not in SOURCES and all([constant[j] for j in cols.every_input(i)]):
            constant[i] = True
    names = cols.names
    return [names[i] for i in reversed(order) if constant[i]]


BATCH_NORMS = frozenset({"FusedBatchNorm", "FusedBatchNormV2", "FusedBatchNormV3",
                         "BatchNormWithGlobalNormalization"})


def _folded_batch_norms(m, ga: Graph, gb: Graph) -> None:
    """A batch norm whose namesake in B is a BiasAdd on the counterpart of its input went into
    that Conv's weights, and the BiasAdd came out of it (fold_old_batch_norms)."""
    ca, cb = columns(ga), columns(gb)        # ops by index: no Node view a pair
    ops_a, at_a, ops_b, at_b = ca.ops, ca.at, cb.ops, cb.at
    if BATCH_NORMS.isdisjoint(ops_a):        # (one C pass: no pair to look at)
        return
    for a, b in pairs(m.b_of):
        if ops_a[at_a[a]] not in BATCH_NORMS or ops_b[at_b[b]] not in ("BiasAdd", "Add",
                                                                       "AddV2"):
            continue
        ins_a, ins_b = data_inputs(ga, a), data_inputs(gb, b)
        if ins_a and ins_b and m.b_of.get(ins_a[0].node) == ins_b[0].node:
            del m.b_of[a], m.a_of[b], m.rule[a]
            m.merged[a], m.split[b] = ins_b[0].node, a


def _bypass_target(m, ga: Graph, gb: Graph, node, targets: set) -> str | None:
    for ref in node.inputs:
        if ref.control or ref.node not in m.b_of:
            continue
        into = m.b_of[ref.node]
        reads = {e.dst for e in gb.consumers(into)}
        if all(t in reads or t == into for t in targets):
            return into
    return None
