"""What changed between two matched nodes: op, attributes, dtype, shape, device, inputs
rewired, control dependencies, and a constant's values (max abs difference, share of elements
changed, cosine similarity; float weights now stored in 8 bits behind a Dequantize)."""

from __future__ import annotations

import weakref

from inspector.core.compare.columns import columns, indexes, pieces
from inspector.core.compare.operands import LAYOUT_WORDS, behind_reads, to_layout
from inspector.core.compare.records import Change
from inspector.core.model import dtypes, tensors
from inspector.core.model.attrs import decode
from inspector.core.model.graph import Graph
from inspector.core.runtime.lazy_import import later

np = later("numpy", globals(), "np")    # a diff of the same bytes needs none (0.2-0.4 s)

DTYPE_ATTRS = ("T", "dtype", "DstT", "SrcT", "out_type", "Tout")
SHAPE_ATTRS = ("_output_shapes", "shape")
# names and bookkeeping (the TFLite reader's), and quantization parameters: a quantized
# constant is compared by its values, dequantized, not by its scale
QUANT_ATTRS = ("quant_scale", "quant_zero_point", "quant_axis")   # (a .tflite's: compared
IGNORED_ATTRS = frozenset({"_class", "value", "tflite_index", "tflite_tensor",    # by _quant)
                           "tflite_type", *QUANT_ATTRS})
VALUE_LIMIT = 64 * 2 ** 20        # constants larger than this are compared by bytes only


def pair_changes(ga: Graph, gb: Graph, a: str, b: str, matching, renamed: bool,
                 cols: tuple = ()) -> list:
    """The changes of pair (a, b); `matching` says which inputs correspond (rewiring);
    `cols`: both graphs' compare.columns, when the caller has them."""
    ca, cb = cols or (columns(ga), columns(gb))
    x, y = ca.at[a], cb.at[b]
    out = [Change("renamed", f"renamed '{a}' -> '{b}'")] if renamed else []
    if ca.ops[x] == cb.ops[y] and ga.devices.get(x, "") == gb.devices.get(y, "") and \
            x not in lazy_nodes(ga) and y not in lazy_nodes(gb) and \
            _same_inputs(ca, cb, x, y, matching.b_of) and \
            same_attrs(ca.protos()[x].attr, cb.protos()[y].attr):
        return out                  # the common case: nothing but perhaps the name
    na, nb = ga.node(a), gb.node(b)
    pa, pb = na.proto, nb.proto
    if na.op == nb.op and pa.device == pb.device and same_attrs(pa.attr, pb.attr) and \
            na.index not in lazy_nodes(ga) and nb.index not in lazy_nodes(gb):
        return out + _rewired(ga, na, nb, matching, gb)
    quantized = na.op == "Const" and nb.op == "Dequantize"
    if quantized:       # its attributes (dtype -> T, mode) come with the Dequantize
        out.append(_quantized(ga, gb, a, nb))
    elif na.op != nb.op:
        out.append(Change("op", f"op {na.op} -> {nb.op}"))
    layout = matching.layouts.get(a, "")
    if not quantized:
        out += _attr_changes(pa, pb, bool(layout), same_op=na.op == nb.op)
    if pa.device != pb.device:
        out.append(Change("device", f"device '{pa.device}' -> '{pb.device}'"))
    if na.op == nb.op:
        out += _rewired(ga, na, nb, matching, gb)
    if na.op == "Const" and nb.op == "Const":
        change = _values(ga, gb, a, b, layout)
        if change is not None:
            out.append(change)
    return out


def quiet_pairs(ga: Graph, gb: Graph, b_of: dict, cols: tuple,
                known: tuple | None = None) -> tuple | None:
    """(xs, ys, quiet, lazy) over the pairs of `b_of` in its order: their node indexes in A
    and B, whether pair_changes' first test holds but for the attributes and the values left
    in the file (same op and device, every data input the pair of the other's, nothing else
    in either's inputs), and whether a side has values left in the file (lazy_nodes), by
    whole-array steps (pair_changes tests them one by one)."""
    ca, cb = cols
    if not (ca.arrays and cb.arrays):         # numpy was not worth importing
        return None
    xs, ys = known if known is not None and len(known[0]) == len(b_of) else \
        (indexes(ca.at, list(b_of)), indexes(cb.at, list(b_of.values())))
    pair = np.full(len(ga) + 1, -2, np.int64)       # A index -> its pair's B index
    pair[xs] = ys
    code = {op: c for c, op in enumerate(gb.op_names)}
    code_in_b = np.array([code.get(op, -1) for op in ga.op_names] + [-1], np.int64)
    quiet = code_in_b[ga.op_codes[xs]] == gb.op_codes[ys]
    lazy = np.zeros(len(xs), bool)
    for graph, at in ((ga, xs), (gb, ys)):
        found = lazy_nodes(graph)
        if found:
            lazy |= np.isin(at, np.fromiter(found, np.int64, len(found)))
    if ga.devices or gb.devices:
        quiet &= np.array([ga.devices.get(x, "") == gb.devices.get(y, "")
                           for x, y in zip(xs.tolist(), ys.tolist())], bool)
    (sa, src_a, port_a, plain_a), (sb, src_b, port_b, plain_b) = _data_csr(ga), _data_csr(gb)
    na, nb = sa[xs + 1] - sa[xs], sb[ys + 1] - sb[ys]
    quiet &= plain_a[xs] & plain_b[ys] & (na == nb)
    some = np.flatnonzero(quiet & (na > 0))
    lens = na[some]
    first = np.cumsum(lens) - lens
    step = np.arange(int(lens.sum())) - np.repeat(first, lens)
    at_a, at_b = np.repeat(sa[xs[some]], lens) + step, np.repeat(sb[ys[some]], lens) + step
    same = (pair[src_a[at_a]] == src_b[at_b]) & (port_a[at_a] == port_b[at_b])
    wrong = np.bincount(np.repeat(np.arange(len(some)), lens)[~same], minlength=len(some))
    quiet[some] &= wrong == 0
    return pieces(xs), pieces(ys), pieces(quiet), pieces(lazy)


def stored_alike(ga: Graph, gb: Graph, pairs) -> set:
    """The (x, y) of `pairs` (Consts x of A and y of B, equal as opened: attributes, device)
    whose only values left in the file are their `value`s, stored alike (field, version, the
    same bytes), so that pair_changes would find nothing but perhaps the name (it reads both
    tensors to say so). Each file is checked to be the one opened before and after its reads,
    not at every read (~2 us a pair)."""
    wa, wb = ga.weights, gb.weights
    if wa is None or wb is None or wa.filled or wb.filled:
        return set()
    nodes_a, nodes_b = columns(ga).protos(), columns(gb).protos()
    slots_a, slots_b, la, lb = wa.slots, wb.slots, _lazy_attrs(wa), _lazy_attrs(wb)
    both = []
    for x, y in pairs:
        pa, pb = nodes_a[x], nodes_b[y]
        if pa.op != "Const" or pa.device != pb.device:
            continue
        sa, sb = slots_a.get((x, "value")), slots_b.get((y, "value"))
        if sa is None or sb is None or (sa.field, sa.version, sa.length) != \
                (sb.field, sb.version, sb.length) or la[x] != 1 or lb[y] != 1:
            continue
        both.append((x, y, sa, sb))
    if not both:
        return set()
    again = "open it again to read its weights"
    for store in (wa, wb):
        store.check(again)
    read_a, read_b = wa.reader(), wb.reader()
    out = {(x, y) for x, y, sa, sb in both if read_a(sa) == read_b(sb)}
    for store in (wa, wb):
        store.check(again)
    return out


_SLOTS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _lazy_attrs(store) -> dict:
    """{node index: how many of its attributes have values left in the file}."""
    found = _SLOTS.get(store)
    if found is None:
        found = _SLOTS[store] = {}
        for node, _ in store.slots:
            found[node] = found.get(node, 0) + 1
    return found


def _data_csr(graph) -> tuple:
    """(start, src, port, plain): node i's data inputs naming nodes are src/port[start[i]:
    start[i + 1]]; plain[i]: it has no other input (control, or naming no node)."""
    off, src, port = graph.in_offsets, graph.in_src, graph.in_port
    data = (port >= 0) & (src >= 0)
    start = np.concatenate(([0], np.cumsum(data)))[off]
    return start, src[data], port[data], np.diff(start) == np.diff(off)


def same_attrs(x, y) -> bool:
    """Two NodeDefs' attribute maps are equal (what `x == y` says, without the generic
    Mapping comparison's two dict copies: half the time; by keys, not items(): the map's
    items view is a Python generator, a third more)."""
    if len(x) != len(y):
        return False
    for key in x:
        if key not in y or y[key] != x[key]:
            return False
    return True


_LAZY: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def lazy_nodes(graph: Graph) -> frozenset:
    """Indices of the nodes with a tensor whose values are still only in the file: two such
    tensors are equal as protos (dtype and shape) whatever their values."""
    store = graph.weights
    if store is None or store.filled:
        return frozenset()
    found = _LAZY.get(store)
    if found is None:
        found = _LAZY[store] = frozenset(node for node, _ in store.slots)
    return found


def _attr_changes(pa, pb, layout: bool = False, same_op: bool = True) -> list:
    """Attributes that differ; another op (Conv2D as CONV_2D) has other attributes, so only
    those both have are compared then, and inferred shapes only where both carry them."""
    out = []
    keys = sorted(set(pa.attr) | set(pb.attr)) if same_op else sorted(set(pa.attr) & set(pb.attr))
    if "_output_shapes" not in pa.attr or "_output_shapes" not in pb.attr:
        keys = [k for k in keys if k != "_output_shapes"]
    for key in keys:
        if key in IGNORED_ATTRS:
            continue
        if key not in pa.attr or key not in pb.attr or pa.attr[key] != pb.attr[key]:
            kind = "dtype" if key in DTYPE_ATTRS else "shape" if key in SHAPE_ATTRS else "attr"
            out.append(Change(kind, f"{key}: {_attr_text(pa, key)} -> {_attr_text(pb, key)}"))
    if "value" not in pa.attr and "quant_scale" in pa.attr and "quant_scale" in pb.attr:
        out += [Change("attr", f"{key}: {_attr_text(pa, key)} -> {_attr_text(pb, key)}")
                for key in QUANT_ATTRS if not _same_quant(pa, pb, (key,))]
    if "value" in pa.attr and "value" in pb.attr:
        ta, tb = pa.attr["value"].tensor, pb.attr["value"].tensor
        if ta.dtype != tb.dtype and not any(c.kind == "dtype" for c in out):
            out.append(Change("dtype", f"dtype {dtypes.dtype_name(ta.dtype)} -> "
                                       f"{dtypes.dtype_name(tb.dtype)}"))
        sa, sb = tensors.shape_dims(ta.tensor_shape), tensors.shape_dims(tb.tensor_shape)
        if sa != sb and not layout:      # a new layout: the values say whether it fits
            out.append(Change("shape", f"shape {tensors.format_shape(sa)} -> "
                                       f"{tensors.format_shape(sb)}"))
    return out


def _attr_text(proto, key: str) -> str:
    if key not in proto.attr:
        return "(none)"

    text = str(decode(proto.attr[key]))
    return text if len(text) <= 60 else text[:57] + "..."


def _same_inputs(ca, cb, x: int, y: int, b_of: dict) -> bool:
    """Nodes x of A and y of B (columns ca, cb) have only data inputs, each the pair of the
    other's at its slot and port: _rewired would find nothing."""
    if not ca.plain(x) or not cb.plain(y) or ca.ports[x] != cb.ports[y]:
        return False
    names_a, names_b = ca.names, cb.names
    return all([b_of.get(names_a[i]) == names_b[j] for i, j in zip(ca.ins[x], cb.ins[y])])


def _rewired(ga, na, nb, matching, gb) -> list:
    out = []
    da = [r for r in na.inputs if not r.control]
    db = [r for r in nb.inputs if not r.control]
    if len(da) != len(db):
        out.append(Change("rewired", f"{len(da)} inputs -> {len(db)}"))
    for k, (ra, rb) in enumerate(zip(da, db)):
        if ra.port != rb.port or not same_input(ga, gb, ra.node, rb.node, matching):
            out.append(Change("rewired", f"input {k}: {ra} -> {rb}"))
    gone, new = _unmatched_controls(ga, gb, [r.node for r in na.inputs if r.control],
                                    [r.node for r in nb.inputs if r.control], matching)
    if gone or new:
        out.append(Change("control", f"control inputs: {new} added, {gone} removed"))
    return out


def same_input(ga, gb, a: str, b: str, matching) -> bool:
    """A reading `a` and B reading `b` read the same: `b` is a counterpart of `a` (paired,
    merged into, split out of), or is so once either side is looked behind its reads
    (Identity / ReadVariableOp chains one side has and the other not: removed, or a
    constant A read folded and split out)."""
    if matching.b_of.get(a) == b:            # the common case, with no look behind
        return True
    return bool(_targets(matching, _with_behind(ga, a)) & set(_with_behind(gb, b)))


def _with_behind(graph, name: str) -> tuple:
    """`name`, and the node behind its reads where that is another."""
    behind = behind_reads(graph, name)[0]
    return (name,) if behind is None or behind == name else (name, behind)


def _targets(m, names) -> set:
    """The counterparts in B of A's `names` (m.counterparts_in_b by look-ups, the splits'
    through m.split_sources)."""
    out = set()
    for x in names:
        out.update((m.b_of.get(x), m.merged.get(x)))
        out.update(m.split_sources().get(x, ()))
    return out


def _unmatched_controls(ga, gb, ca: list, cb: list, matching) -> tuple:
    """(A's control inputs that no control input of B is the same_input as, B's that none
    of A's is), distinct names counted, in time linear in the inputs (an init NoOp may wait
    on thousands)."""
    b_of = matching.b_of
    if set(cb) == {b_of.get(a) for a in ca}:      # each the pair of the other's: no look
        return 0, 0                                 # behind (the common case)
    of_key: dict = {}                      # B's control inputs by themselves and behind
    for b in cb:
        for key in _with_behind(gb, b):
            of_key.setdefault(key, set()).add(b)
    matched, gone = set(), set()
    for a in ca:
        found = [of_key[t] for t in _targets(matching, _with_behind(ga, a)) if t in of_key]
        if not found:
            gone.add(a)
        for bs in found:
            matched |= bs
    return len(gone), len(set(cb) - matched)


def same_tensor(ta, tb) -> bool:
    """Two TensorProtos hold the same dtype, shape and bytes."""
    if ta.dtype != tb.dtype or ta.tensor_shape != tb.tensor_shape:
        return False
    if ta.tensor_content or tb.tensor_content:
        return ta.tensor_content == tb.tensor_content
    return ta == tb


def _values(ga: Graph, gb: Graph, a: str, b: str, layout: str = "") -> Change | None:
    ta, tb = ga.tensor(a), gb.tensor(b)
    if not layout and same_tensor(ta, tb) and \
            _same_quant(ga.node(a).proto, gb.node(b).proto):   # (else other real values)
        return None
    try:
        va, vb = _decoded(ta), _decoded(tb)
    except ValueError as exc:
        return Change("values", f"values changed ({exc})")
    where = ""
    if layout and va is not None and vb is not None:
        back = layout[0] == "<"     # B's values in A's layout (a .tflite as A: mirrored)
        rule = layout.lstrip("<")
        moved = to_layout(vb, rule, va.shape) if back else to_layout(va, rule, vb.shape)
        if moved is None:
            return Change("shape", f"shape {tensors.format_shape(list(va.shape))} -> "
                                   f"{tensors.format_shape(list(vb.shape))}")
        va, vb = (va, moved) if back else (moved, vb)
        where = f" (in {'A' if back else 'B'}'s {LAYOUT_WORDS[rule]} layout)"
    if va is None or vb is None or va.shape != vb.shape:
        return Change("values", "values changed")
    va, vb = _real(ga.node(a).proto, va), _real(gb.node(b).proto, vb)
    figures = value_figures(va, vb)
    if not figures["changed_share"]:
        return None
    return Change("values", f"values changed{where}: {figures['changed_share']:.1%} of "
                            f"{va.size:,} elements, max abs difference "
                            f"{figures['max_abs_diff']:.4g}", figures)


def _same_quant(pa, pb, keys: tuple = QUANT_ATTRS) -> bool:
    """Two NodeDefs carry the same .tflite quantization parameters (or neither has them)."""
    return all((k in pa.attr) == (k in pb.attr) and (k not in pa.attr or pa.attr[k] == pb.attr[k])
               for k in keys)


def _real(proto, values: np.ndarray) -> np.ndarray:
    """A TFLite constant's real values: (q - zero point) x scale, per channel where quantized
    per axis; anything else as it is."""
    if "quant_scale" not in proto.attr:
        return values
    scales = np.asarray(proto.attr["quant_scale"].list.f, np.float64)
    zeros = np.asarray(proto.attr["quant_zero_point"].list.i, np.float64) \
        if "quant_zero_point" in proto.attr else np.zeros_like(scales)
    if scales.size == 0 or zeros.size not in (0, scales.size):
        return values
    q = values.astype(np.float64)
    if scales.size == 1:
        return (q - (zeros[0] if zeros.size else 0.0)) * scales[0]
    axis = proto.attr["quant_axis"].i if "quant_axis" in proto.attr else 0
    if not 0 <= axis < q.ndim or q.shape[axis] != scales.size:
        return values
    shape = [1] * q.ndim
    shape[axis] = scales.size
    return (q - zeros.reshape(shape)) * scales.reshape(shape)


def _decoded(t) -> np.ndarray | None:
    if tensors.facts(t).stored > VALUE_LIMIT:
        return None
    arr = tensors.to_numpy(t)
    return arr if arr.dtype.kind in "fiub" else None


def value_figures(va: np.ndarray, vb: np.ndarray) -> dict:
    a, b = va.astype(np.float64).ravel(), vb.astype(np.float64).ravel()
    diff = np.abs(a - b)
    na, nb = np.linalg.norm(a), np.linalg.norm(b)
    cosine = float(a @ b / (na * nb)) if na and nb else (1.0 if na == nb else 0.0)
    return {"max_abs_diff": float(diff.max()) if diff.size else 0.0,
            "changed_share": float(np.count_nonzero(diff)) / diff.size if diff.size else 0.0,
            "cosine": cosine}


def _quantized(ga: Graph, gb: Graph, a: str, nb) -> Change:
    """A float constant of A is an 8-bit one plus a Dequantize in B (quantize_weights)."""
    text = "float weights stored in 8 bits (+ Dequantize)"
    ins = [r.node for r in nb.inputs if not r.control]
    try:
        if len(ins) < 3 or any(gb.node(n).op != "Const" for n in ins[:3]):
            return Change("quantized", text)
        q, lo, hi = (tensors.to_numpy(gb.tensor(n)) for n in ins[:3])
        original = _decoded(ga.tensor(a))
        if original is not None and q.shape == original.shape:
            lo, hi = float(np.ravel(lo)[0]), float(np.ravel(hi)[0])
            approx = lo + q.astype(np.float64) * (hi - lo) / 255.0
            figures = value_figures(original, approx)
            return Change("quantized", f"{text}: max abs difference about "
                                       f"{figures['max_abs_diff']:.3g}", figures)
    except (ValueError, KeyError, IndexError):
        pass
    return Change("quantized", text)
