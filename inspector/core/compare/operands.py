"""Operands of an op a converter rewrote. TFLite stores a fused op's weights, bias and shape
arguments as constant tensors read by the op itself, where the GraphDef's Conv2D or MatMul read
a Const through an Identity or ReadVariableOp, in another layout (HWIO as OHWI), and a bias
that may have come out of a folded batch norm. This rule pairs those constants slot by slot
through the op pairs already made, records the layout change so values are compared in B's
layout, and says where a constant came out of computed nodes (a folded batch norm's bias, a
shape computed from Shape and StridedSlice)."""

from __future__ import annotations

from inspector.core.compare.columns import PIECE, columns, known_indexes, pair_indexes
from inspector.core.model.graph import Graph
from inspector.core.runtime.lazy_import import later

np = later("numpy", globals(), "np")

PASS_THROUGH = frozenset({"Identity", "ReadVariableOp", "Snapshot", "StopGradient"})
# a TFLite op -> the GraphDef ops that read its weights (slot 1), and the layout change
WEIGHTS = {
    "CONV_2D": (frozenset({"Conv2D"}), "HWIO>OHWI"),
    "DEPTHWISE_CONV_2D": (frozenset({"DepthwiseConv2dNative"}), "HWCM>1HWC"),
    "FULLY_CONNECTED": (frozenset({"MatMul"}), "IO>OI"),
    "TRANSPOSE_CONV": (frozenset({"Conv2DBackpropInput"}), "HWOI>OHWI"),
}
BIAS_OPS = frozenset({"BiasAdd", "Add", "AddV2"})
LAYOUT_WORDS = {"HWIO>OHWI": "OHWI", "HWCM>1HWC": "1HWC", "IO>OI": "OI", "HWOI>OHWI": "OHWI"}


def match_operands(m, ga: Graph, gb: Graph) -> None:
    """Pairs B's unmatched constant operands of matched ops with what A's ops read there."""
    ca, cb = columns(ga), columns(gb)
    names_a, names_b, ops_b, ins_b, at_b = ca.names, cb.names, cb.ops, cb.ins, cb.at
    open_only = _reads_all_taken(m, ca)
    read_consts = _reading_constants(cb, gb, m if open_only else None, ca)
    if not read_consts:
        return
    group: dict = {}          # B's ops that read a constant (or may: WEIGHTS) -> A's members
    for a, b in m.b_of.items():
        if at_b.get(b) in read_consts:
            group.setdefault(b, []).append(a)
    for a, b in m.merged.items():
        if at_b.get(b) in read_consts:
            group.setdefault(b, []).append(a)
    folded = []
    for b, members in group.items():
        y = at_b[b]
        op = ops_b[y]
        anchor, layout = _anchor(ga, op, members, m.a_of.get(b))
        if anchor is None and op in WEIGHTS:
            anchor, layout = _anchor_above(m, ga, op, members, b)
        a_ins = ca.ins[ca.at[anchor]] if anchor else ()
        for slot, j in zip(cb.slots(y), ins_b[y]):
            c = names_b[j]
            if ops_b[j] != "Const" or c in m.split:
                continue
            if slot == 2 and op in WEIGHTS:
                source, chain = _bias_source(ga, members, anchor)
            else:
                if slot >= len(a_ins):
                    continue
                source, chain = _behind(ca, a_ins[slot])
            if c in m.a_of:         # paired already: the reads of A went into it
                if source is not None and m.a_of[c] == source:
                    _read_into(m, chain, c)
                continue
            if source is not None and source in m.b_of and gb.node(m.b_of[source]).op in \
                    ("Const", "Dequantize"):
                _copied(m, c, source, chain)   # B kept the constant too: c is a copy
            if source is None or source in m.b_of:
                continue
            if ga.node(source).op == "Const":
                m.merged.pop(source, None)
                m.pair(source, c, "operand")
                if slot == 1 and layout:
                    m.layouts[source] = layout
                for x in chain:
                    if x not in m.b_of:
                        m.merged[x] = c
            elif slot == 2 and op in WEIGHTS:
                m.split[c] = source         # a bias computed out of a folded batch norm
            else:
                m.merged[source] = c        # computed in A, folded into a constant in B
                folded.append(source)
    _fold_upstream(m, ga, folded)


def _reading_constants(cols, graph=None, m=None, cols_a=None) -> set:
    """Nodes (by index) that are not constants and read one, or are TFLite ops whose weights
    an anchor above may give: the only ones match_operands has work for. With the matching
    `m` (every read of A taken: _reads_all_taken), only those reading a constant not yet
    paired nor split out (a node whose constants are all paired would only merge reads into
    them) or with weights."""
    ops, ins, names = cols.ops, cols.ins, cols.names
    if m is not None and cols.arrays:
        return _open_readers(cols, graph, m, cols_a)
    a_of, split = (m.a_of, m.split) if m is not None else ((), ())
    return {y for y, (op, srcs) in enumerate(zip(ops, ins)) if op != "Const" and
            (op in WEIGHTS or any([ops[j] == "Const" and names[j] not in a_of and
                                   names[j] not in split for j in srcs]))}


def _open_readers(cols, graph, m, cols_a=None) -> set:
    """_reading_constants with a matching, on the graph's arrays (B's paired nodes from
    pair_indexes where A's columns `cols_a` are given and read: no name looked up again)."""
    n, codes, op_names = len(cols.names), graph.op_codes, graph.op_names
    const = codes == (op_names.index("Const") if "Const" in op_names else -1)
    weights = np.isin(codes, [k for k, op in enumerate(op_names) if op in WEIGHTS])
    taken = np.zeros(n, bool)
    found = (m.a_of, m.split)
    if cols_a is not None and cols_a.arrays and len(m.a_of) == len(m.b_of):
        taken[pair_indexes(m, cols_a, cols)[1]] = True
        if int(np.count_nonzero(taken)) == len(m.a_of):     # the pairs' B nodes: a_of's
            found = (m.split,)
        else:
            taken[:] = False
    for names in found:
        taken[known_indexes(cols.at, names)] = True
    off, src, port = graph.in_offsets, graph.in_src, graph.in_port
    data = (port >= 0) & (src >= 0)
    reader, read = np.repeat(np.arange(n, dtype=np.int64), np.diff(off))[data], src[data]
    hit = np.zeros(n, bool)
    hit[reader[const[read] & ~taken[read]]] = True
    found = np.flatnonzero((hit | weights) & ~const)
    out: set = set()
    for lo in range(0, len(found), PIECE):      # a C call a piece: each holds the GIL
        out.update(found[lo:lo + PIECE].tolist())
    return out


def _reads_all_taken(m, cols) -> bool:
    """Every Identity-like node of A is matched or merged: no chain of reads is left for
    _read_into to merge."""
    b_of, merged = m.b_of, m.merged
    return all(name in b_of or name in merged for name, op in zip(cols.names, cols.ops)
               if op in PASS_THROUGH)


def _behind(cols, i: int) -> tuple:
    """behind_reads over node indices: (name of the node behind node i's reads, the names
    of the reads)."""
    ops, ins, names = cols.ops, cols.ins, cols.names
    chain = []
    while ops[i] in PASS_THROUGH and len(ins[i]) == 1:
        chain.append(names[i])
        i = ins[i][0]
    return names[i], chain


def _copied(m, c: str, source: str, chain: list) -> None:
    """B's operand `c` is a folded copy of a constant that B also kept as it was: it came out
    of that constant, and the reads between (Identity, ReadVariableOp) went into it."""
    if c not in m.split:
        m.split[c] = source
        _read_into(m, chain, c)


def _read_into(m, chain: list, c: str) -> None:
    """The unmatched reads (Identity, ReadVariableOp) A had between a constant and its op
    went into B's constant `c`, which the op now reads directly."""
    for x in chain:
        if x not in m.b_of and x not in m.merged:
            m.merged[x] = c


def _anchor(ga: Graph, op: str, members: list, paired: str | None):
    """The node of A whose inputs line up with the TFLite op's, and the weights' layout."""
    if op in WEIGHTS:
        ops, layout = WEIGHTS[op]
        for a in members:
            node = ga.node(a)
            if node.op in ops:
                if node.op == "MatMul" and "transpose_b" in node.proto.attr and \
                        node.proto.attr["transpose_b"].b:
                    layout = ""
                return a, layout
        return None, ""
    return paired, ""


def _anchor_above(m, ga: Graph, op: str, members: list, b: str):
    """A MatMul the converter fused into the op without naming it (the op took the name of
    the Add after it): found one or two steps above the group, unmatched; it and the nodes
    between are merged into the op."""
    parent: dict = {}
    frontier = list(members)
    for _ in range(2):
        above = []
        for x in frontier:
            for ref in data_inputs(ga, x):
                y = ref.node
                if y in m.b_of or y in members or y in parent or m.merged.get(y, b) != b or \
                        ga.node(y).op in ("Const", "Placeholder"):
                    continue
                parent[y] = x
                anchor, layout = _anchor(ga, op, [y], None)
                if anchor is not None:
                    while y in parent:
                        m.merged[y] = b
                        members.append(y)
                        y = parent[y]
                    return anchor, layout
                above.append(y)
        frontier = above
    return None, ""


def _bias_source(ga: Graph, members: list, anchor: str | None) -> tuple:
    """What A adds to the op's result: the other input of a BiasAdd or Add among the nodes
    merged into the op, followed back through Identity and ReadVariableOp (and that chain)."""
    if anchor is None:
        return None, []
    inside = set(members)
    for a in members:
        if ga.node(a).op not in BIAS_OPS:
            continue
        ins = [r.node for r in data_inputs(ga, a)]
        path = [x for x in ins if _reaches(ga, x, anchor, inside)]
        other = [x for x in ins if x not in path]
        if len(ins) == 2 and len(path) == 1 and len(other) == 1:
            return behind_reads(ga, other[0])
    return None, []


def _reaches(ga: Graph, start: str, target: str, inside: set) -> bool:
    """`start` is `target` or computed from it inside the group (the op's own value path)."""
    seen, stack = set(), [start]
    while stack:
        x = stack.pop()
        if x == target:
            return True
        if x in seen or x not in inside:
            continue
        seen.add(x)
        stack += [r.node for r in data_inputs(ga, x)]
    return False


def behind_reads(ga: Graph, name: str) -> tuple:
    """The node behind a chain of Identity/ReadVariableOp, and the chain."""
    chain = []
    while name in ga and ga.node(name).op in PASS_THROUGH:
        ins = data_inputs(ga, name)
        if len(ins) != 1:
            break
        chain.append(name)
        name = ins[0].node
    return (name if name in ga else None), chain


def _fold_upstream(m, ga: Graph, folded: list) -> None:
    """Unmatched nodes whose every reader went into one constant of B went with them."""
    stack = list(folded)
    while stack:
        x = stack.pop()
        into = m.merged[x]
        for ref in ga.node(x).inputs:
            y = ref.node
            if y not in ga or y in m.b_of or y in m.merged:
                continue
            readers = {e.dst for e in ga.consumers(y)}
            if readers and all(m.merged.get(r) == into for r in readers):
                m.merged[y] = into
                stack.append(y)


def data_inputs(graph: Graph, name: str) -> list:
    """The data inputs of `name` that are nodes of `graph` (control inputs left out)."""
    node = graph.get(name)
    return [] if node is None else [r for r in node.inputs if not r.control and r.node in graph]


def to_layout(values: np.ndarray, layout: str, shape: tuple) -> np.ndarray | None:
    """A's weights in B's layout, or None when the shapes do not fit the layout."""
    try:
        if layout == "HWIO>OHWI" and values.ndim == 4:
            out = values.transpose(3, 0, 1, 2)
        elif layout == "HWOI>OHWI" and values.ndim == 4:
            out = values.transpose(2, 0, 1, 3)
        elif layout == "IO>OI" and values.ndim == 2:
            out = values.T
        elif layout == "HWCM>1HWC" and values.ndim == 4:
            h, w, c, k = values.shape
            out = values.reshape(1, h, w, c * k)
        else:
            return None
    except ValueError:
        return None
    return out if tuple(out.shape) == tuple(shape) else None
