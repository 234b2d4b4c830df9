"""static_shapes' propagation and count_flops over a Graph's columns (issue 47): node indexes
and the CSR input arrays instead of a Node view and its InputRefs a node. The ops most nodes
are (Const, element-wise, binary) are done from the columns and the constants' facts; a view
is made only for the ops whose rule reads attributes, for the few a node's own recorded
shapes are asked of, and for the counted ops whose rule reads an attribute. Same shapes,
same dict order, same report as the per-node path (graphs with duplicate names take that
path)."""

from __future__ import annotations

import math

from inspector.core.analysis import data_order
from inspector.core.analysis import shape_stop, static_shapes as ss
from inspector.core.analysis.flops import (
    EXTRA,
    FUSED,
    MOST,
    NHWC_ONLY,
    TF_REGISTRY,
    FlopReport,
    _attrs,
    _nhwc,
    finished,
)
from inspector.core.analysis.flops_tflite import TFLITE
from inspector.core.model import protos
from inspector.core.model.node_store import StoredGraphDef

_NOT_ATTR = tuple(f.name for f in protos.NodeDef.DESCRIPTOR.fields if f.name != "attr")

KEEPS_VALUE = ("Identity", "Cast", "Snapshot", "StopGradient")
# ops whose rule reads only their attributes and the shapes of inputs 0 and 1: one rule run
# for each distinct (op, those shapes, attributes), the others take its answer (decoding a
# Conv2D's attributes for its rule cost ~45 us a node)
ALIKE = frozenset({"Conv2D", "DepthwiseConv2dNative", "MaxPool", "AvgPool", "MatMul",
                   "BatchMatMulV2"})
FAILED = (TypeError, ValueError, IndexError, KeyError, ZeroDivisionError)
(OTHER, UNARY, BINARY, CONST, BATCH_NORM) = range(5)


def columnar(graph) -> bool:
    """The graph has the columns and unique names this path needs."""
    return hasattr(graph, "in_src") and not graph.duplicate_names


class DataInputs:
    """Each node's data inputs (control ones left out, in order) as flat lists: node i's
    are src[start[i]:start[i + 1]] (-1: no node of the graph) and port[...]."""

    def __init__(self, graph):
        np = ss.np
        off, src, port = graph.in_offsets, graph.in_src, graph.in_port
        data = port >= 0
        before = np.concatenate(([0], np.cumsum(data)))     # data inputs before a position
        self.start = before[off].tolist()
        self.src, self.port = src[data].tolist(), port[data].tolist()


class ColumnPropagation(ss.Propagation):
    """Propagation's rules, its state kept by node index: `out[i]` node i's output shapes,
    `vals[i]` the small integer value of its output 0."""

    def __init__(self, graph, placeholder_shapes: dict, trust_recorded: bool):
        super().__init__(graph, placeholder_shapes, trust_recorded)
        self.out: list = [None] * len(graph)
        self.vals: dict = {}
        self.ins = DataInputs(graph)

    # -- the state by index (the rules' helpers, for a node view) -------------------------
    def shape_in(self, i: int, k: int = 0):
        ins = self.ins
        p = ins.start[i] + k
        if p >= ins.start[i + 1]:
            return None
        s = ins.src[p]
        outs = self.out[s] if s >= 0 else None
        port = ins.port[p]
        return outs[port] if outs and port < len(outs) else None

    def value_in(self, i: int, k: int):
        ins = self.ins
        p = ins.start[i] + k
        if p >= ins.start[i + 1] or ins.port[p]:
            return None
        s = ins.src[p]
        return self.vals.get(s) if s >= 0 else None

    def _in(self, node, k=0):
        return self.shape_in(node.index, k)

    def _value(self, node, k):
        return self.value_in(node.index, k)

    def _set_value(self, node, value) -> None:
        self._keep(node.index, value)

    def _keep(self, i: int, value) -> None:
        if value is not None and value.size <= ss.SMALL:
            self.vals[i] = ss.np.asarray(value, ss.np.int64)

    # -- the walk ------------------------------------------------------------------------
    def run_columns(self, order: list) -> list:
        """Every node's output shapes by index ([None] where unknown), walked in `order`."""
        graph = self.graph
        names, codes, views, op_names = graph.name_list, graph._ops, graph.nodes, graph.op_names
        kinds = [_kind(op) for op in op_names]
        facts = graph.const_facts() if CONST in kinds else {}
        out, nodes, vals = self.out, graph.structure.node, self.vals
        alike, scratch, answers = [op in ALIKE for op in op_names], None, {}
        keeps = [op in KEEPS_VALUE for op in op_names]
        defs = _alike_defs(graph.structure, [i for i in order if alike[codes[i]]]) \
            if any(alike) else {}
        broadcasts: dict = {}       # (shape, shape) -> their broadcast (tuples: shared)
        start, src, port = self.ins.start, self.ins.src, self.ins.port
        trust = self.trust
        for i in order:
            code = codes[i]
            kind = kinds[code]
            try:
                if kind == UNARY or kind == BINARY:
                    p, end = start[i], start[i + 1]     # shape_in(i), inlined
                    x = None
                    if p < end:
                        s, k = src[p], port[p]
                        o = out[s] if s >= 0 else None
                        x = o[k] if o and k < len(o) else None
                    if kind == UNARY:
                        outs = [x]
                        if vals and keeps[code]:        # (no value kept yet: none to keep)
                            value = self.value_in(i, 0)
                            if value is not None:
                                self._keep(i, value)
                    else:
                        y = None                        # shape_in(i, 1), inlined
                        if p + 1 < end:
                            s, k = src[p + 1], port[p + 1]
                            o = out[s] if s >= 0 else None
                            y = o[k] if o and k < len(o) else None
                        pair = (x, y)
                        try:
                            got = broadcasts[pair]
                        except KeyError:
                            got = broadcasts[pair] = ss._broadcast(x, y)
                        except TypeError:           # a shape that is not a tuple
                            got = ss._broadcast(x, y)
                        outs = [got]
                elif kind == CONST:
                    fact = facts.get(names[i])
                    dims = None if fact is None else fact.dims
                    # (a float constant's values are never read: its dtype is asked first)
                    if dims is not None and (fact.dtype != 3 and fact.dtype != 9 or
                                             not self._reads_value(nodes, i, fact)):
                        outs = [dims]          # no value to read: the shape is all
                    else:
                        outs = self._rules(views[i])
                elif alike[code]:
                    if scratch is None:
                        scratch = protos.NodeDef()
                    outs = self._alike(i, views, defs[i], scratch, answers)
                else:
                    outs = self._rules(views[i])
            except FAILED:
                outs = None
            if outs is None:
                out[i] = [None]
                if trust and "_output_shapes" in nodes[i].attr:
                    out[i] = self._recorded(views[i]) or out[i]
                continue
            if len(outs) == 1:
                o = outs[0]
                if o is not None and None not in o:
                    out[i] = outs
                    continue
            elif not any(s is None or None in s for s in outs):
                out[i] = outs
                continue
            if trust and "_output_shapes" in nodes[i].attr:
                outs = self._recorded(views[i]) or outs
            out[i] = outs
        return out

    def _alike(self, i: int, views, node_def, scratch, answers: dict):
        """The rule's answer for node i (an ALIKE op), from `answers` where a node with the
        same op, attributes and shapes of inputs 0 and 1 had it (a copy: each node its own
        list). `node_def`: its NodeDef, or (a stored graph's) the bytes of its attributes
        as the file holds them (_attr_bytes: equal bytes, equal attributes; no parse)."""
        if node_def.__class__ is bytes:
            key = (self.graph.op_names[self.graph._ops[i]], self.shape_in(i),
                   self.shape_in(i, 1), node_def)
        else:
            scratch.CopyFrom(node_def)
            for field in _NOT_ATTR:
                scratch.ClearField(field)
            key = (node_def.op, self.shape_in(i), self.shape_in(i, 1),
                   scratch.SerializeToString(deterministic=True))
        try:
            found = answers.get(key, answers)
        except TypeError:           # a shape that is not a tuple: no key, the rule itself
            return self._rules(views[i])
        if found is answers:
            found = answers[key] = self._rules(views[i])
        return None if found is None else list(found)

    @staticmethod
    def _reads_value(nodes, i: int, fact) -> bool:
        """Propagation._const reads this constant's values (a small int32/int64 one). Its
        NodeDef is parsed only for a small integer tensor (a stored graph's: ~4 us a node,
        400k constants at 1M): a `dtype` attribute that is not the tensor's own, which TF
        refuses, is not looked for on a float one."""
        if math.prod(fact.dims) > ss.SMALL or fact.dtype not in (3, 9):
            return False
        attr = nodes[i].attr
        return (attr["dtype"].type if "dtype" in attr else fact.dtype) in (3, 9)


def _alike_defs(structure, indexes: list) -> dict:
    """{i: what _alike keys node i by}: a GraphDef's NodeDef; a stored graph's attributes'
    bytes (_attr_bytes), read without a parse (its nodes[i] parsed i's whole block of 256,
    the constants' values with it: ~65 ms for the 10k Conv2Ds of the 100k blocks model)."""
    if structure.__class__ is StoredGraphDef:
        read = structure.store.field_bytes
        return {i: _attr_bytes(read(i, i + 1)) for i in indexes}
    nodes = structure.node
    return {i: nodes[i] for i in indexes}


_HEADS = frozenset((0x0A, 0x12, 0x1A, 0x22))     # name, op, input, device: their tags


def _attr_bytes(data: bytes) -> bytes:
    """A node's GraphDef wire bytes (field `node`: tag, length, NodeDef) from its first
    field that is not its name, op, an input or its device: its attributes, and whatever
    follows them. Two nodes of one op with equal such bytes have equal attributes (a file
    whose fields are out of order only makes more keys). Bytes that end too soon: all."""
    try:
        pos, n = 1, len(data)
        while data[pos] >= 0x80:        # the NodeDef's length
            pos += 1
        pos += 1
        while pos < n and data[pos] in _HEADS:
            p, length, shift = pos + 1, 0, 0
            while True:
                b = data[p]
                p += 1
                length |= (b & 0x7F) << shift
                if b < 0x80:
                    break
                shift += 7
            pos = p + length
        return data[pos:] if pos <= n else data
    except IndexError:
        return data


def _kind(op: str) -> int:
    if op == "Const":
        return CONST
    if op in ss.UNARY or op == "AddN":
        return UNARY
    if op in ss.BINARY:
        return BINARY
    return OTHER


def _order(graph) -> list:
    """data_order's order, as node indexes."""
    return data_order.kahn_order(*data_order.data_edges(graph))


def cone_order(ins: DataInputs, roots) -> list:
    """The indexes of the nodes the roots read data from, directly or not, and the roots,
    each after its data inputs (a depth-first walk; an input met again on its own path, a
    cycle's, is not waited for)."""
    start, src = ins.start, ins.src
    state = bytearray(len(start) - 1)       # 0 unseen, 1 on the walk's path, 2 done
    order = []
    for r in roots:
        if state[r]:
            continue
        state[r] = 1
        stack = [(r, start[r])]
        while stack:
            i, p = stack[-1]
            end = start[i + 1]
            while p < end and (src[p] < 0 or state[src[p]]):
                p += 1
            if p < end:
                s = src[p]
                stack[-1] = (i, p + 1)
                if start[s] == start[s + 1]:    # no data input (a Const): done at once
                    state[s] = 2
                    order.append(s)
                    continue
                state[s] = 1
                stack.append((s, start[s]))
            else:
                stack.pop()
                state[i] = 2
                order.append(i)
    return order


def column_shapes(graph, given: dict, trust: bool) -> tuple[list, list]:
    """(the walk's order, every node's output shapes by index): Propagation.run's shapes,
    whose {name: shapes} is dict(zip(names in that order, shapes in that order))."""
    order = _order(graph)
    return order, ColumnPropagation(graph, given, trust).run_columns(order)


class _LazyAttrs:
    """flops._attrs of node i, read on the first `get` (most counted ops read none)."""

    __slots__ = ("nodes", "i", "read")

    def __init__(self, nodes, i: int):
        self.nodes, self.i, self.read = nodes, i, None

    def get(self, key, default=None):
        if self.read is None:
            self.read = _attrs(self.nodes[self.i])
        return self.read.get(key, default)


def count_flops_columns(graph, out: list) -> FlopReport:
    """count_flops(graph, shapes) from the shapes by node index (column_shapes)."""
    np = ss.np
    rep = FlopReport()
    op_names, names, views = graph.op_names, graph.name_list, graph.nodes
    fns = [TF_REGISTRY.get(op) or EXTRA.get(op) or TFLITE.get(op) or FUSED.get(op)
           for op in op_names]
    counted = [c for c, fn in enumerate(fns) if fn is not None]
    if not counted:
        return finished(rep)
    codes = graph.op_codes
    at = np.flatnonzero(np.isin(codes, counted)).tolist()
    codes = graph._ops
    start, src, port = _inputs(graph)
    per_node, ops, unknown = rep.per_node, rep.ops, rep.unknown_shape
    for i in at:
        op = op_names[codes[i]]
        fn, lite = fns[codes[i]], op in TFLITE or op in FUSED
        ins = []
        for p in range(start[i], start[i + 1]):
            s = src[p]
            outs = out[s] if s >= 0 else None
            pt = port[p]
            ins.append(outs[pt] if outs and pt < len(outs) else None)
        outs = out[i] or [None]
        attrs = _LazyAttrs(views, i)
        if op in NHWC_ONLY and not _nhwc(attrs):
            continue
        # count_flops: an input or output shape unknown, or with an unknown dimension
        if _unknown(ins[:2] if op != "AddN" else ins) or _unknown(outs[:1]):
            unknown.append(names[i])
            continue
        try:
            tf_part, value = (int(x) for x in fn(ins, outs, attrs)) if lite else \
                (0, int(fn(ins, outs, attrs)))
        except (IndexError, TypeError, ValueError):
            unknown.append(names[i])
            continue
        if op in TF_REGISTRY:
            tf_part, value = value, 0
        value += tf_part
        if value > MOST:           # not a real shape's count (flops.count_flops)
            unknown.append(names[i])
            rep.too_big.append(names[i])
            continue
        per_node[names[i]] = value
        rep.total += value
        ops[op] = ops.get(op, 0) + value
        rep.tf_total += tf_part
    return finished(rep, graph, shape_stop.ByIndex(graph, out))


def _unknown(shapes: list) -> bool:
    for s in shapes:
        if s is None or None in s:
            return True
    return False


def _inputs(graph) -> tuple:
    ins = DataInputs(graph)
    return ins.start, ins.src, ins.port
