"""Which node of B is which node of A, and why. Rules, in order (decisions: provenance first,
structure second, names third): provenance (B came from A through our pipeline or TFLite's
converter), exact-subgraph fingerprints (unique ones, largest first, then down their inputs),
top-down and bottom-up from matched nodes (same op, same slot), a float weight become a
Dequantize at its reader's slot (quantize_weights), a namesake constant with the same bytes,
constant operands, exact and tolerant names, and last the nodes merged into a match (N:1) or
split out of one (1:N). Every pair keeps its rule and a confidence; the matching measures
itself (share per rule, pairs whose neighbours disagree), as hlo_diff does. Under
UNRELATED_BELOW matched, the models are different ones: exact names only, nothing guessed."""

from __future__ import annotations

from collections import deque

from inspector.core.compare.changes import same_tensor
from inspector.core.compare.columns import (
    BIG,
    KNOWN,
    columns,
    disagreeing,
    pair_indexes,
    pairs,
    release,
    unpaired_sides,
)
from inspector.core.compare.ends import pair_ends
from inspector.core.compare.fingerprints import Fingerprints
from inspector.core.compare.names import (  # noqa: F401  (explained_by_scope: diff's)
    explained_by_scope,
    renamed_scopes,
    tolerant_key,
)
from inspector.core.compare.merges import SOURCES, merges_and_splits
from inspector.core.compare.operands import behind_reads, data_inputs, match_operands
from inspector.core.compare.records import (  # noqa: F401  (matching's names)
    CONFIDENCE,
    Matching,
    Provenance,
)
from inspector.core.compare.structure import (  # noqa: F401  (_unique_*: tests')
    _by_structure,
    _unique_groups,
    _unique_pairs,
)
from inspector.core.model.graph import Graph
from inspector.core.runtime import apart
from inspector.core.runtime.job import NO_JOB, Job

# each rule's function: provenance _from_provenance, structure _by_structure, top-down and
# bottom-up _propagate, quantized _quantized_weights, same constant _same_constants, operand
# operands.match_operands, name and tolerant name _by_names
UNRELATED_BELOW = 0.5     # share of A matched under which the models are different ones
APART_FROM = 20_000       # nodes of B from which its fingerprints are made in a forked copy


def match(ga: Graph, gb: Graph, provenance: Provenance | None = None,
          job: Job = NO_JOB) -> Matching:
    m = Matching()
    if provenance is not None:
        _from_provenance(m, ga, gb, provenance)
    job.progress(5, 100, "fingerprints")
    fa, fb = _fingerprints(ga, gb, job)
    job.progress(40, 100, "matching by structure")
    _by_structure(m, ga, gb, fa, fb)
    _propagate(m, ga, gb, pairs(m.b_of), job)
    _quantized_weights(m, ga, gb)
    _same_constants(m, ga, gb)
    match_operands(m, ga, gb)
    job.progress(60, 100, "matching by name")
    _propagate(m, ga, gb, _by_names(m, ga, gb, same_op=True), job)
    _quantized_weights(m, ga, gb)
    tflite = provenance is not None and provenance.source == "tflite"
    _propagate(m, ga, gb, _by_names(m, ga, gb, same_op=False, consts_apart=tflite), job)
    _propagate(m, ga, gb, pair_ends(m, ga, gb), job)
    merges_and_splits(m, ga, gb)
    match_operands(m, ga, gb)         # again: biases out of batch norms merged just now
    if unrelated(m, len(ga)) and not made_from_a(provenance, gb):
        m = _unrelated_models(ga, gb, provenance)
    m.scopes = {} if m.unrelated else renamed_scopes(m)
    m.disagreeing = _disagreeing(m, ga, gb)
    known = m.__dict__.pop(KNOWN, None)   # (made again from the names if asked: not sent)
    # the big lists emptied a piece at a time: the fingerprints' 600k ints freed at the
    # return held the GIL ~13 ms (~60 ms on the slow class) while the window waited
    release(*(known[:2] if known else ()),
            *[f.fp for f in (fa, fb) if isinstance(f.fp, list)])
    return m


def _fingerprints(ga: Graph, gb: Graph, job: Job) -> tuple:
    """Both graphs' fingerprints: B's in a forked copy while A's are made here, where
    forking is safe (the command line) and B is big enough to pay for the fork. B's columns
    and own signatures (with its attribute tails) are made here before the fork: the
    matching and the diff read the columns and tails, and the copy finds them made instead
    of making them again and sending the tails back; the copy's walk in B's order (a
    renamed, shuffled B: no order to follow) is then about as long as A's whole share here
    (100k pair: 0.30 vs 0.15 s of CPU before)."""
    later = None
    if len(gb) >= APART_FROM and apart.can_fork():
        own = Fingerprints.own_signatures(gb, job)
        later = apart.start(lambda: Fingerprints(gb, own=own).values())
    fa = Fingerprints(ga, job)
    if later is None:
        return fa, Fingerprints(gb, job)
    return fa, Fingerprints.of_values(gb, later())


def unrelated(m: Matching, a_count: int) -> bool:
    """Fewer than UNRELATED_BELOW of A's nodes have a counterpart: different models."""
    return a_count > 0 and m.quality(a_count)["matched"] < UNRELATED_BELOW


def made_from_a(p: Provenance | None, gb: Graph) -> bool:
    """B was made from A by the tool the provenance is of: our pipeline, or the TFLite
    converter when at least half of B's ops are named after A's nodes (a Keras model's .tflite
    matches few of A's constants and reads, yet is that model)."""
    if p is None:
        return False
    if p.source == "pipeline":
        return True
    ops = [n.name for n in gb if n.op not in ("Const", "Placeholder", "VarHandleOp")]
    named = set(p.became.values()) | set(p.merged.values())
    return bool(ops) and sum(1 for b in ops if b in named) >= UNRELATED_BELOW * len(ops)


def _unrelated_models(ga: Graph, gb: Graph, provenance: Provenance | None) -> Matching:
    """Different models: only what provenance or an exact name says is kept, no guess (no
    structure, renamed pair or renamed scope, merge or split)."""
    m = Matching(unrelated=True)
    if provenance is not None:
        _from_provenance(m, ga, gb, provenance)
        m.merged, m.split = {}, {}
    for node in ga:
        a = node.name
        if a not in m.b_of and a in gb and a not in m.a_of and gb.node(a).op == node.op:
            m.pair(a, a, "name")
    return m


def _from_provenance(m: Matching, ga: Graph, gb: Graph, p: Provenance) -> None:
    for a, b in p.became.items():
        if a in ga and b in gb and a not in m.b_of and b not in m.a_of:
            m.pair(a, b, "provenance")
    for a, b in p.merged.items():
        if a in ga and b in gb and a not in m.b_of:
            m.merged[a] = b
    for b, a in p.split.items():
        if a in ga and b in gb and b not in m.a_of:
            m.split[b] = a


def _quantized_weights(m: Matching, ga: Graph, gb: Graph) -> None:
    """quantize_weights: where a matched node of A reads a float Const, its counterpart reads
    at the same slot a Dequantize of three constants (the 8-bit values in the Const's shape,
    min, max): that Const became this Dequantize, whatever their names. A value A computes
    from constants alone was folded, then quantized: it went into the Dequantize, and the
    three constants came out of it."""
    if "Dequantize" not in columns(gb).ops:
        return
    into = set(m.merged.values())
    for a, b in pairs(m.b_of):
        for ra, rb in zip(data_inputs(ga, a), data_inputs(gb, b)):
            x, y = ra.node, rb.node
            if ra.port or rb.port or x in m.b_of or x in m.merged or y in m.a_of or \
                    y in m.split or y in into or gb.node(y).op != "Dequantize":
                continue
            parts = [p.node for p in data_inputs(gb, y)]
            if len(parts) != 3 or any(gb.node(p).op != "Const" for p in parts):
                continue
            source, chain = behind_reads(ga, x)
            if source is not None and ga.node(source).op == "Const":
                _quantized_read(m, ga, gb, source, chain, y, parts)
            elif _from_constants(ga, x):          # folded, then quantized
                m.merged[x] = y
                for p in parts:
                    m.split[p] = x
            into.add(y)


def _quantized_read(m: Matching, ga: Graph, gb: Graph, source: str, chain: list, y: str,
                    parts: list) -> None:
    """A's op reads the Const `source` (through `chain`), B's op the Dequantize `y`: the
    same constant quantized, or a quantized copy of it when B also kept `source` (its
    namesake Dequantize, a control input keeping the original)."""
    kept = gb.get(source)
    if source not in m.b_of and kept is not None and kept.op == "Dequantize" and \
            source not in m.a_of and kept.name != y:
        m.pair(source, source, "quantized")
    if source not in m.b_of and source not in m.merged and \
            _same_shape(ga.node(source), gb.node(parts[0])):
        m.pair(source, y, "quantized")
    elif source in m.b_of:
        m.split[y] = source
        for p in parts:
            m.split[p] = source
    for x in chain:                # the reads went into it, unless B kept them by name
        if x not in m.b_of and x not in m.merged and \
                not (x in gb and gb.node(x).op == ga.node(x).op):
            m.merged[x] = y


def _from_constants(ga: Graph, name: str, limit: int = 64) -> bool:
    """`name` is computed from constants alone (a few dozen nodes up at most)."""
    seen, stack = {name}, [name]
    while stack:
        node = ga.node(stack.pop())
        if node.op in SOURCES or len(seen) > limit:
            return False
        for ref in node.inputs:
            if ref.node not in seen and ref.node in ga:
                seen.add(ref.node)
                stack.append(ref.node)
    return True


def _same_constants(m: Matching, ga: Graph, gb: Graph) -> None:
    """A Const of A and its namesake in B holding the same bytes are one constant, whatever
    reads them now (fold_constants leaves the original beside its folded copy when a control
    input still keeps it)."""
    cb = columns(gb)
    for a, op in zip(columns(ga).names, columns(ga).ops):
        if op != "Const" or a in m.b_of or a in m.merged or a not in cb.at or a in m.a_of \
                or a in m.split or cb.ops[cb.at[a]] != "Const":
            continue
        if same_tensor(ga.tensor(a), gb.tensor(a)):
            m.pair(a, a, "same constant")


def _same_shape(na, nb) -> bool:
    """Two constants hold tensors of one shape."""
    ta, tb = na.proto.attr["value"].tensor, nb.proto.attr["value"].tensor
    return ta.tensor_shape == tb.tensor_shape


def _free_pair(m: Matching, ca, cb, a: str, b: str) -> bool:
    """Both unmatched, same op, and no unmatched namesake of that op on either side (columns
    ca of A, cb of B) says otherwise."""
    if a in m.b_of or b in m.a_of or a in m.merged or b in m.split:
        return False
    op = ca.ops[ca.at[a]]
    if op != cb.ops[cb.at[b]]:
        return False
    if a != b:
        there, here = cb.at.get(a), ca.at.get(b)
        if (there is not None and a not in m.a_of and cb.ops[there] == op) or \
                (here is not None and b not in m.b_of and ca.ops[here] == op):
            return False
    return True


def _propagate(m: Matching, ga: Graph, gb: Graph, seeds: list, job: Job) -> None:
    """Top-down (inputs slot by slot) and bottom-up (the one reader in a role) from each
    pair; a pair whose inputs and readers in A are all taken has nothing to give. `seeds`
    is emptied (columns.release: 300k pairs freed at once held the GIL ~20 ms)."""
    ca, cb = columns(ga), columns(gb)
    names_a, names_b, at_a, at_b, ops_a, ops_b = ca.names, cb.names, ca.at, cb.at, ca.ops, cb.ops
    b_of, merged = m.b_of, m.merged
    around = ca.free_around(ga, (merged,), pair_indexes(m, ca, cb)[0]) \
        if len(seeds) >= BIG and ca.arrays and ca.unique else None
    if around is not None:      # a pair whose neighbours in A are all taken gives nothing
        kept = [s for s in seeds if around[at_a[s[0]]]]
        release(seeds)          # (the callers' lists are theirs to give: none is kept)
        seeds = kept
    queue = deque(seeds)
    release(seeds)              # the queue frees each pair as it goes, not all at the end
    steps = 0
    while queue:
        steps += 1
        if not steps % 4096:
            job.check()
        a, b = queue.popleft()
        x, y = at_a[a], at_b[b]
        if ops_a[x] != ops_b[y]:
            continue         # a changed op says nothing about its neighbours' roles
        for i, j, pi, pj in zip(ca.ins[x], cb.ins[y], ca.ports[x], cb.ports[y]):  # top-down
            if pi == pj and _free_pair(m, ca, cb, names_a[i], names_b[j]):
                m.pair(names_a[i], names_b[j], "top-down")
                queue.append((names_a[i], names_b[j]))
        uses = ca.uses[x]
        if not uses or all(names_a[r] in b_of or names_a[r] in merged for r, _, _ in uses):
            continue
        by_role = _readers_by_role(ca, x), _readers_by_role(cb, y)     # bottom-up
        for role, names in by_role[0].items():
            others = by_role[1].get(role)
            if len(names) == 1 and others and len(others) == 1 and \
                    _free_pair(m, ca, cb, names[0], others[0]):
                m.pair(names[0], others[0], "bottom-up")
                queue.append((names[0], others[0]))


def _readers_by_role(cols, i: int) -> dict:
    """{(reader's op, position in its inputs, port read): [reader names]} of node i."""
    out: dict = {}
    names, ops = cols.names, cols.ops
    for r, k, port in cols.uses[i]:
        out.setdefault((ops[r], k, port), []).append(names[r])
    return out


def _by_names(m: Matching, ga: Graph, gb: Graph, same_op: bool,
              consts_apart: bool = False) -> list:
    """Exact then tolerant names; with `same_op`, only namesakes of the same op (a name reused
    by another op waits until structure has had its say around it). With `consts_apart`, a
    constant never pairs with an op by name (TFLite's converter names weights after their op)."""
    new = []
    ca, cb = columns(ga), columns(gb)
    at_b, ops_b = cb.at, cb.ops
    left_a, left_b = unpaired_sides(m, ca, cb)
    names_a, names_b = ca.names, cb.names
    for a, op in (zip(names_a, ca.ops) if left_a is None else
                  ((names_a[i], ca.ops[i]) for i in left_a)):
        if a not in m.b_of and a not in m.merged and a in at_b and a not in m.a_of \
                and a not in m.split and (not same_op or ops_b[at_b[a]] == op) and \
                not (consts_apart and (op == "Const") != (ops_b[at_b[a]] == "Const")):
            m.pair(a, a, "name")
            new.append((a, a))
    keys_a: dict = {}
    keys_b: dict = {}
    for a in (names_a if left_a is None else map(names_a.__getitem__, left_a)):
        if a not in m.b_of and a not in m.merged:
            keys_a.setdefault(tolerant_key(a), []).append(a)
    for b in (names_b if left_b is None else map(names_b.__getitem__, left_b)):
        if b not in m.a_of and b not in m.split:
            keys_b.setdefault(tolerant_key(b), []).append(b)
    for key, names in keys_a.items():
        others = keys_b.get(key)
        if len(names) == 1 and others and len(others) == 1 and \
                (not same_op or ca.ops[ca.at[names[0]]] == ops_b[at_b[others[0]]]) and \
                not (consts_apart and (ca.ops[ca.at[names[0]]] == "Const") !=
                     (ops_b[at_b[others[0]]] == "Const")):
            m.pair(names[0], others[0], "tolerant name")
            new.append((names[0], others[0]))
    return new


def _disagreeing(m: Matching, ga: Graph, gb: Graph) -> list:
    ca, cb = columns(ga), columns(gb)      # m._indexes: diff_graphs takes them
    found = disagreeing(ga, gb, m.b_of, m.__dict__, pair_indexes(m, ca, cb)
                        if ca.arrays and cb.arrays and ca.unique and cb.unique else None)
    if found is not None:
        return found
    out = []
    ca, cb = columns(ga), columns(gb)
    names_a, names_b, at_a, at_b = ca.names, cb.names, ca.at, cb.at
    b_of, a_of = m.b_of, m.a_of
    for a, b in b_of.items():
        for i, j in zip(ca.ins[at_a[a]], cb.ins[at_b[b]]):
            other = b_of.get(names_a[i])
            if other is not None and other != names_b[j] and names_b[j] in a_of:
                out.append((a, b))
                break
    return out
