"""The diff of two graphs as a document: the interface first (a renamed output breaks the app
that loads the model), then the totals, the op histogram, the changes grouped where the same
change repeats ("values changed in 13 blocks"), and the matching's own quality."""

from __future__ import annotations

from itertools import repeat
from operator import attrgetter, itemgetter

from inspector.core.analysis.output_shapes import with_output_shapes
from inspector.core.analysis.sizes import sizes
from inspector.core.analysis.summary import summarize
from inspector.core.compare.attr_bytes import same_tails
from inspector.core.compare.changes import (
    pair_changes,
    quiet_pairs,
    same_attrs,
    stored_alike,
)
from inspector.core.compare.columns import (
    PIECE,
    columns,
    listed,
    order_by,
    starts_with,
    unpaired,
)
from inspector.core.compare.explain import size_notes
from inspector.core.compare.either_way import match_either_way
from inspector.core.compare.matching import explained_by_scope
from inspector.core.compare.records import (  # noqa: F401  (Diff, Entry, Group: diff's names)
    CONFIDENCE,
    STATUSES,
    Change,
    Diff,
    Entry,
    Group,
    Matching,
    Provenance,
)
from inspector.core.loaders.on_disk import model_bytes
from inspector.core.model.graph import Graph
from inspector.core.model.origin import is_tflite
from inspector.core.runtime.job import NO_JOB, Job

_A, _HEAD = attrgetter("a"), itemgetter(0)


def diff_graphs(ga: Graph, gb: Graph, a_label: str = "A", b_label: str = "B",
                provenance: Provenance | None = None, extra_totals: dict | None = None,
                job: Job = NO_JOB, file_sizes: tuple = (0, 0)) -> Diff:
    """Match B to A and say what changed. `extra_totals` adds figures the caller measured
    (gzip size, FLOPs, latency: {name: [A, B]}); `file_sizes` are the sizes of the files A
    and B were read from (0: none), which a .tflite side's "file bytes" needs."""
    m = match_either_way(ga, gb, provenance, job)
    job.progress(75, 100, "comparing matched nodes")
    entries, unchanged = [], 0
    ca, cb = cols = columns(ga), columns(gb)
    at_a, at_b, ops_a, ops_b = ca.at, cb.at, ca.ops, cb.ops
    known = m.__dict__.pop("_indexes", None)        # the pairs' indexes, from the matching
    xs, ys, quiet, lazy = quiet_pairs(ga, gb, m.b_of, cols, known) or ((), (), (), ())
    protos_a, protos_b = (ca.protos(), cb.protos()) if quiet else ((), ())
    alike_attrs = (same_tails(ca, cb, xs, ys) if quiet else None) or [False] * len(xs)
    alike = stored_alike(ga, gb, [(x, y) for x, y, q, z in zip(xs, ys, quiet, lazy) if q and z])
    rule, merged, scopes, layouts = m.rule, m.merged, m.scopes, m.layouts
    for k, (a, b) in enumerate(m.b_of.items()):
        if not k % 2048:
            job.check()
        how = rule.get(a)   # (not renamed: a name its renamed scope explains, or the name
        renamed = a != b and not (scopes and explained_by_scope(m, a, b)) and \
            merged.get(b) != b and m.split.get(a) != a and how != "operand"   # of the Mul
        #                                       folded into the Conv, or split out of it)
        if quiet and quiet[k] and (alike_attrs[k] or        # the same attribute bytes, else
                                   same_attrs(protos_a[xs[k]].attr, protos_b[ys[k]].attr)) \
                and (not lazy[k] or (a not in layouts and (xs[k], ys[k]) in alike)):
            changes = [Change("renamed", f"renamed '{a}' -> '{b}'")] if renamed else []
        else:               # the whole test of pair_changes
            changes = pair_changes(ga, gb, a, b, m, renamed, cols)
        if changes:             # (xs, ys: the pair's indexes, where quiet_pairs gave them)
            entries.append(Entry("changed", a, b, ops_a[xs[k] if xs else at_a[a]],
                                 ops_b[ys[k] if xs else at_b[b]], rule[a],
                                 CONFIDENCE.get(how or "", 0.6), changes))
        else:
            unchanged += 1
    for a, b in m.merged.items():
        entries.append(Entry("merged", a, b, ops_a[at_a[a]], ops_b[at_b[b]], "merged", 0.75))
    for b, a in m.split.items():
        entries.append(Entry("split", a, b, ops_a[at_a[a]], ops_b[at_b[b]], "split", 0.75))
    left_a, left_b = unpaired(ca, xs), unpaired(cb, ys)     # (None: every name looked up)
    names_a, names_b = ca.names, cb.names
    explains_a, explains_b = m.explains_a, m.explains_b   # (a node B's nodes came out of is
    entries += [Entry("removed", a, "", op) for a, op in  # not gone, nor a constant folded
                (zip(names_a, ops_a) if left_a is None else            # from A's nodes new)
                 ((names_a[i], ops_a[i]) for i in left_a))
                if not explains_a(a)]
    entries += [Entry("added", "", b, "", op) for b, op in
                (zip(names_b, ops_b) if left_b is None else
                 ((names_b[i], ops_b[i]) for i in left_b))
                if not explains_b(b)]
    order = _places(ga, ca)
    late = len(order)
    rank = {status: k * (late + 1) for k, status in enumerate(STATUSES)}
    entries = order_by(entries, [rank[e.status] + order.get(e.a, late) for e in entries],
                       attrgetter("b"))      # by status, A's order, then B's name
    job.progress(90, 100, "interface and totals")
    sa, sb = summarize(ga), summarize(gb)
    totals = _totals(ga, gb, sa, sb, file_sizes)
    totals.update(extra_totals or {})
    notes = size_notes(ga, gb, m, totals["file bytes"][0])
    interface = interface_changes(gb, m, sa, sb, ga)
    return Diff(a_label, b_label, entries, unchanged, m, interface, totals,
                _histogram(ga, gb), group_entries(entries, gb), m.quality(len(ga)), notes)


def _places(ga: Graph, ca) -> dict:
    """{name: its place among ga.names()}: ca.at itself where the names are unique and in
    graph order there (no dict of 300k names made again)."""
    names = listed(ga.names())          # (PIECE names a C call: each holds the GIL)
    if ca.unique and len(names) == len(ca.names) and starts_with(names, ca.names):
        return ca.at
    return {name: k for k, name in enumerate(names)}


def _totals(ga: Graph, gb: Graph, sa, sb, file_sizes: tuple) -> dict:
    out = {"nodes": [len(ga), len(gb)]}
    out["parameters"] = [sa.const_parameters + sa.variable_parameters,
                         sb.const_parameters + sb.variable_parameters]
    out["file bytes"] = [file_bytes(g, n) for g, n in zip((ga, gb), file_sizes)]
    return out


def file_bytes(graph: Graph, file_size: int = 0):
    """The bytes of the model on disk: `file_size`, the files it was read from (file_size);
    with none (B made from A by a pipeline), its GraphDef's binary size (the .pb it would be
    saved as), and a .tflite's GraphDef view is no file ("unknown")."""
    if file_size:
        return file_size
    if is_tflite(graph):
        return "unknown"
    z = sizes(graph)
    return z.total + z.other


def file_size(path: str) -> int:
    """The bytes on disk of the model at `path`, every file of it (loaders.on_disk: a
    SavedModel's folder, a TF.js model.json and its shards, a .meta and its checkpoint, a
    .pb, .tflite or Keras file), else 0 (no path, nothing readable there)."""
    return model_bytes(path)


def _histogram(ga: Graph, gb: Graph) -> dict:
    ca, cb = ga.op_counts(), gb.op_counts()
    return {op: [ca.get(op, 0), cb.get(op, 0)] for op in sorted(set(ca) | set(cb))
            if ca.get(op, 0) != cb.get(op, 0)}


def interface_changes(gb: Graph, m: Matching, sa, sb, ga: Graph | None = None) -> list:
    """Inputs and outputs (summaries `sa`, `sb`) gone, renamed, retyped or reshaped, and new
    ones. An output whose graph records no shape while the other side's does is given the
    shape propagated from its inputs (output_shapes, as `summarize` shows it), so a change
    of shape is said as one ("[?,7] -> [1,7]"), not as "? -> [1,7]"."""
    out = []
    if ga is not None and _one_side_shapeless(m, sa.outputs, sb.outputs):
        sa, sb = with_output_shapes(ga, sa), with_output_shapes(gb, sb)
    for kind, ours, theirs in (("input", sa.inputs, sb.inputs), ("output", sa.outputs,
                                                                  sb.outputs)):
        by_name = {c.name: c for c in theirs}
        seen = set()
        for c in ours:
            there = _counterpart(c.name, m, by_name)
            if there is None:
                into = m.merged.get(c.name)
                out.append(Change(kind, f"{kind} '{c.name}' removed" +
                                  (f" (merged into '{into}')" if into else "")))
                continue
            seen.add(there)
            if there != c.name:
                out.append(Change(kind, f"{kind} renamed '{c.name}' -> '{there}'"))
            other = by_name.get(there)
            if other is None:
                node = gb.node(there)
                out.append(Change(kind, f"{kind} '{c.name}' is no longer an {kind} in B "
                                        f"({node.op} '{there}')"))
                continue
            if c.dtype != other.dtype:
                out.append(Change(kind, f"{kind} '{there}': dtype {c.dtype or '?'} -> "
                                        f"{other.dtype or '?'}"))
            if c.shape != other.shape:
                out.append(Change(kind, f"{kind} '{there}': shape {c.shape or '?'} -> "
                                        f"{other.shape or '?'}"))
        for c in theirs:
            if c.name not in seen:
                out.append(Change(kind, f"new {kind} '{c.name}' ({c.op} {c.dtype} "
                                        f"{c.shape})".replace("  ", " ")))
    return out


def _counterpart(name: str, m: Matching, by_name: dict) -> str | None:
    """B's port paired with A's port `name` (by_name: B's ports)."""
    there = m.b_of.get(name)
    if there not in by_name:    # an output Identity folded into the op it named, or split
        there = next((x for x in [m.merged.get(name)] + [      # out of it
            b for b in by_name if m.split.get(b) == name] if x in by_name), there)
    return there


def _one_side_shapeless(m: Matching, ours: list, theirs: list) -> bool:
    """A paired output shows a shape on one side only (a walk is then worth its time)."""
    by_name = {c.name: c for c in theirs}
    for c in ours:
        other = by_name.get(_counterpart(c.name, m, by_name))
        if other is not None and _told(c.shape) != _told(other.shape):
            return True
    return False


def _told(shape: str) -> bool:
    return bool(shape) and shape != "<unknown>"


def _block(name: str) -> str:
    """The first two parts of a name of three or more, the first of two, "" of one."""
    first = name.find("/")
    if first < 0:
        return ""
    second = name.find("/", first + 1)
    return name[:second] if second >= 0 else name[:first]


def _blocks(entries: list, members: list) -> int:
    """len({_block(e.a or e.b) for the entries `members`}), each distinct parent scope
    looked at once (_block of a name is its parent's when the parent has one or two parts,
    else _block of the parent), PIECE entries a C call."""
    parents: set = set()
    for lo in range(0, len(members), PIECE):
        picked = list(map(entries.__getitem__, members[lo:lo + PIECE]))
        names = list(map(_A, picked))
        if "" in names:             # (an added entry: B's name)
            names = [e.a or e.b for e in picked]
        parents.update(map(_HEAD, map(str.rpartition, names, repeat("/"))))
    return len({p if p.count("/") < 2 else _block(p) for p in parents})


def group_entries(entries: list, gb: Graph | None = None) -> list:
    """Patterns: entries alike in their change, in two or more places, largest first; the
    weights quantize_weights stored in 8 bits lead, as one group with the parts split out
    for them (`_eight_bit`)."""
    eight_bit = _eight_bit(entries, gb)
    by_signature: dict = {}
    for k, e in enumerate(entries):
        if eight_bit is None or k not in eight_bit.members:
            by_signature.setdefault(e.signature(), []).append(k)
    groups = [eight_bit] if eight_bit is not None else []
    for signature, members in by_signature.items():
        if len(members) < 2:
            continue
        first = entries[members[0]]
        blocks = _blocks(entries, members)
        groups.append(Group(_group_title(first, len(members), blocks), members, blocks))
    groups[1 if eight_bit else 0:] = sorted(groups[1 if eight_bit else 0:],
                                            key=lambda g: (-len(g.members), g.title))
    return groups


def _eight_bit(entries: list, gb: Graph | None) -> Group | None:
    """One pattern for quantize_weights: each float Const of A now 8 bits behind a
    Dequantize in B (paired with it, or a quantized copy split out of it), then the parts
    feeding those Dequantize nodes (the 8-bit Const, min, max), which would otherwise lead the
    list as "Const split out of Const" three times per weight."""
    if gb is not None and not gb.nodes_of_op("Dequantize"):
        return None                 # (no entry's op in B is one)
    readers = () if gb is None else map(gb.nodes.__getitem__, gb.nodes_of_op("Dequantize"))
    dequantize = {r.node: n.name for n in readers for r in n.inputs if not r.control}
    weights = [k for k, e in enumerate(entries) if
               (e.status == "changed" and e.op_b == "Dequantize" and
                any(c.kind == "quantized" for c in e.changes)) or
               (e.status == "split" and e.op_b == "Dequantize")]
    parts = [k for k, e in enumerate(entries) if e.status == "split" and e.b in dequantize] \
        if dequantize else []
    if not weights and not parts:
        return None
    members = weights + [k for k in parts if k not in weights]
    n = len({entries[k].b for k in weights} | {dequantize[entries[k].b] for k in parts})
    blocks = len({_block(entries[k].name) for k in members})
    where = f" in {blocks} blocks" if blocks > 1 else ""
    return Group(f"float weights stored in 8 bits (+ Dequantize): {n} constant"
                 f"{'s' if n != 1 else ''}{where}, each now an 8-bit Const, its min and max",
                 members, blocks)


def _group_title(e: Entry, n: int, blocks: int) -> str:
    where = f" in {blocks} blocks" if blocks > 1 else ""
    if e.status == "merged":
        return f"{e.op_a} merged into {e.op_b}: {n} times{where}"
    if e.status == "split":
        return f"{e.op_b} split out of {e.op_a}: {n} times{where}"
    if e.status in ("added", "removed"):
        return f"{e.status} {e.op_a or e.op_b}: {n} nodes{where}"
    kinds = sorted({c.kind for c in e.changes})
    op = e.op_a if e.op_a == e.op_b else f"{e.op_a} -> {e.op_b}"
    if kinds == ["values"]:
        return f"values changed in {n} {op} nodes{where}"
    return f"the same change ({', '.join(kinds)}) in {n} {op} nodes{where}"
