"""Provenance: what made B from A says which node became which. From our pipeline's step
reports (renames, merges, splits, composed over the steps) and from a TFLite conversion (the
converter names each tensor after the GraphDef nodes fused into the op that makes it)."""

from __future__ import annotations

from inspector.core.compare.records import Provenance
from inspector.core.compare.operands import behind_reads


def from_steps(a_names, steps) -> Provenance:
    """Provenance of the last step's graph from the first one's (`a_names`), through each
    StepReport's `became`, `merged` and `split`; a node no step mentions keeps its name."""
    now = {name: name for name in a_names}        # A's name -> its name in the current graph
    merged: dict = {}                              # A's name -> current node it went into
    split: dict = {}                               # current node -> A's name
    for step in steps:
        became = getattr(step, "became", {}) or {}
        step_merged = getattr(step, "merged", {}) or {}
        removed = set(step.removed)

        def carry(name):
            if name in step_merged:
                return step_merged[name]
            if name in became:
                return became[name]
            return None if name in removed else name

        merged = {a: into for a, into in ((a, carry(i)) for a, i in merged.items()) if into}
        split = {b: a for b, a in ((carry(b), a) for b, a in split.items()) if b}
        back = {cur: a for a, cur in now.items()}
        for cur, a in back.items():
            if cur in step_merged:
                merged[a] = step_merged[cur]
                del now[a]
            elif cur in became:
                now[a] = became[cur]
            elif cur in removed:
                del now[a]
        for new, old in (getattr(step, "split", {}) or {}).items():
            origin = back.get(old)
            if origin is not None:
                split[new] = origin
    became = {a: cur for a, cur in now.items() if a != cur}
    return Provenance(became=became, merged=merged, split=split, source="pipeline")


def from_tflite(a_names, tflite_nodes: dict) -> Provenance:
    """`tflite_nodes`: TFLite node name -> GraphDef nodes fused into it (tflite_mapping): the
    first is the op's own node (1:1), the rest were merged into it (N:1)."""
    known = set(a_names)
    became, merged = {}, {}
    for b, nodes in tflite_nodes.items():
        nodes = [n for n in nodes if n in known]
        if not nodes:
            continue
        if nodes[-1] not in became:
            became[nodes[-1]] = b
        for other in nodes[:-1]:
            merged.setdefault(other, b)
    return Provenance(became=became, merged=merged, source="tflite")


def for_tflite(ga, gb) -> Provenance:
    """B opened from a .tflite (its nodes carry the converter's ';'-joined tensor names):
    the GraphDef nodes of A each TFLite op came from."""
    from inspector.core.mobile.tflite_mapping import nodes_of

    names = ga.names()
    fused = {}
    for node in gb:
        if node.op in ("Const", "Placeholder", "VarHandleOp") or \
                "tflite_tensor" not in node.proto.attr:
            continue
        tensor = node.proto.attr["tflite_tensor"].s.decode("utf-8", "replace")
        found = nodes_of(tensor, names, uniquified=True)
        ops = [n for n in found if ga.node(n).op != "Const"]    # an op is never a constant
        if ops:
            own = _own_node(ga, node.op, _past_identities(ga, ops))
            fused[node.name] = [n for n in found if n not in own] + own
    return from_tflite(names, fused)


ALIASES = {"FULLY_CONNECTED": ("MatMul", "BatchMatMul", "Einsum"),
           "TRANSPOSE_CONV": ("Conv2DBackpropInput",), "MEAN": ("Mean",),
           "BATCH_MATMUL": ("BatchMatMul",), "RESIZE_BILINEAR": ("ResizeBilinear",)}


def _own_node(ga, op: str, found: list) -> list:
    """`found` with the op's own node last: the last one whose op is like the TFLite op
    (CONV_2D and Conv2D, ADD and AddV2); else the last one. The converter names a fused op's
    tensor after every node in it, in no fixed order."""
    want = op.replace("_", "").lower()
    for name in reversed(found):
        theirs = ga.node(name).op
        if theirs.startswith(ALIASES.get(op, ("\0",))):
            break
        mine = theirs.lower()
        for tail in ("native", "v2", "v3"):
            mine = mine.removesuffix(tail)
        if want.startswith(mine) or mine.startswith(want):
            break
    else:
        return found
    return [n for n in found if n != name] + [name]


def _past_identities(ga, found: list) -> list:
    """The converter names an op's tensor after the Identity that read it ('output'): the op
    itself is the node behind that Identity (or ReadVariableOp), which goes into it too."""
    last, chain = behind_reads(ga, found[-1])
    return found[:-1] + chain + [last] if chain else found
