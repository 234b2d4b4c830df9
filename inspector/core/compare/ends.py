"""The models' ends, paired when no other rule did (the "interface" rule): A's one unpaired
input with B's one unpaired input of its dtype (a converter renames it: Keras' 'input' is
the .tflite's 'serving_default_image'), and the op that computes A's one unpaired output
with the op that computes B's, of the same kind ('Softmax' and the .tflite's 'SOFTMAX'),
each looked for behind the Identity nodes that name it: those paired from the op outwards,
the rest of A's merged into B's op, of B's split out of A's (the mirror)."""

from __future__ import annotations

from inspector.core.compare.columns import columns
from inspector.core.model.graph import Graph

INPUTS = frozenset({"Placeholder", "PlaceholderV2", "PlaceholderWithDefault"})
NOT_OUTPUTS = frozenset({"NoOp", "Const", "Assert", "SaveV2", "RestoreV2"}) | INPUTS


def pair_ends(m, ga: Graph, gb: Graph) -> list:
    """Pairs made here [(a, b)], for the matcher to propagate from."""
    if len(m.b_of) + len(m.merged) >= len(ga):        # every node of A taken
        return []
    ca, cb = columns(ga), columns(gb)
    new = []
    ins_a = [a for a in _of_ops(ca, INPUTS) if a not in m.b_of and a not in m.merged]
    ins_b = [b for b in _of_ops(cb, INPUTS) if b not in m.a_of and b not in m.split]
    if len(ins_a) == 1 and len(ins_b) == 1 and _dtype(ga, ins_a[0]) == _dtype(gb, ins_b[0]):
        m.pair(ins_a[0], ins_b[0], "interface")
        new.append((ins_a[0], ins_b[0]))
    outs_a = [a for a in _sinks(ca) if a not in m.b_of and a not in m.merged]
    outs_b = [b for b in _sinks(cb) if b not in m.a_of and b not in m.split]
    if len(outs_a) != 1 or len(outs_b) != 1:
        return new
    namers_a, a = _behind_identities(ca, outs_a[0])
    namers_b, b = _behind_identities(cb, outs_b[0])
    taken = [n for n in namers_a + [a] if n in m.b_of or n in m.merged] + \
        [n for n in namers_b + [b] if n in m.a_of or n in m.split]
    if taken or not _same_kind(ca.ops[ca.at[a]], cb.ops[cb.at[b]]):
        return new      # (an Identity of the chain paired already: it names no output)
    m.pair(a, b, "interface")
    new.append((a, b))
    both = min(len(namers_a), len(namers_b))          # naming Identity nodes on both sides:
    for x, y in zip(namers_a[::-1][:both], namers_b[::-1][:both]):   # paired from the op on
        m.pair(x, y, "interface")
        new.append((x, y))
    for name in namers_a[:len(namers_a) - both]:      # the rest: A's merged into B's op,
        m.merged[name] = b
    for name in namers_b[:len(namers_b) - both]:      # B's split out of A's
        m.split[name] = a
    return new


def _of_ops(cols, ops: frozenset) -> list:
    return [name for name, op in zip(cols.names, cols.ops) if op in ops]


def _sinks(cols) -> list:
    """Nodes no node reads data from that compute something."""
    return [name for name, op, uses in zip(cols.names, cols.ops, cols.uses)
            if not uses and op not in NOT_OUTPUTS]


def _behind_identities(cols, name: str) -> tuple:
    """(the Identity nodes from `name` up, the first node that is not one)."""
    namers = []
    i = cols.at[name]
    while cols.ops[i] == "Identity" and len(cols.ins[i]) == 1 and len(namers) < 16:
        namers.append(cols.names[i])
        i = cols.ins[i][0]
    return namers, cols.names[i]


def _same_kind(op_a: str, op_b: str) -> bool:
    """The same op, in TF's or TFLite's spelling."""
    return op_a.replace("_", "").lower() == op_b.replace("_", "").lower()


def _dtype(graph: Graph, name: str) -> int:
    attr = graph.node(name).proto.attr
    return attr["dtype"].type if "dtype" in attr else 0
