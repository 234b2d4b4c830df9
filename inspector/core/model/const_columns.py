"""The facts of a big graph's constants (tensors.facts: dtype, dims, elements, decodability,
stored bytes, lazy) read from the NodeDef wire bytes by numpy while the graph is opened:
no Python object per constant. Each level of messages (NodeDef, its attr map entries, the
`value` AttrValue, the TensorProto, its shape and dims) is walked one field a step over
every message at once (wire_walk.py walks the fields).

Only the common encodings are read here: a constant written any other way (a `value` attr
twice, a tensor field merged from two, a field of an unexpected wire type, a value that is
not a tensor, an element count past 2^62, an unknown dtype) is marked `odd` and its facts
are read from its NodeDef message instead (few nodes), so the answers equal
tensors.facts exactly."""

from __future__ import annotations

from itertools import compress, count

from inspector.core.model import dtypes, tensors
from inspector.core.model import graph_index
from inspector.core.model.graph_index import numpy
from inspector.core.model.weights import LAZY_MARK
from inspector.core.model.wire_walk import last, walk

_VARINT_FIELDS = (7, 10, 11, 13, 16, 17)       # TensorProto's packed varint values
_FIXED_FIELDS = {5: 4, 6: 8, 9: 4, 12: 8}      # float, double, scomplex, dcomplex


class ConstPart:
    """The facts of some constants: `at` their node indexes; `has_value` (a `value` attr);
    `odd` (read from the message instead); dtype, elements, decodable, stored, lazy;
    unknown_rank and their dims as CSR (dim_off, dims)."""

    __slots__ = ("at", "has_value", "odd", "dtype", "elements", "decodable", "stored",
                 "lazy", "unknown_rank", "dim_off", "dims")

    def __init__(self, **columns):
        for key, value in columns.items():
            setattr(self, key, value)

    @classmethod
    def join(cls, parts: list) -> "ConstPart":
        np = numpy()
        out = {k: np.concatenate([getattr(p, k) for p in parts]) for k in cls.__slots__
               if k not in ("dim_off",)}
        offs, base = [np.zeros(1, np.int64)], 0
        for p in parts:
            offs.append(p.dim_off[1:] + base)
            base += int(p.dim_off[-1])
        out["dim_off"] = np.concatenate(offs)
        return cls(**out)


def _tables():
    """Per dtype value 0..255: item size, whether it has a value field, the number of that
    field in TensorProto (0: none)."""
    np = numpy()
    numbers = {"float_val": 5, "double_val": 6, "int_val": 7, "string_val": 8,
               "scomplex_val": 9, "int64_val": 10, "bool_val": 11, "dcomplex_val": 12,
               "half_val": 13, "uint32_val": 16, "uint64_val": 17}
    size = np.zeros(256, np.int64)
    field = np.zeros(256, np.int64)
    for d in range(256):
        size[d] = dtypes.item_size(d)
        name = dtypes.value_field(d)
        field[d] = numbers[name] if name else 0
    return size, field


def read(buf, starts, ends, at) -> ConstPart:
    """The facts of the Const NodeDefs at buf[starts[i]:ends[i]] (node indexes `at`)."""
    np = numpy()
    b = np.frombuffer(buf, np.uint8)
    n = len(starts)
    starts, ends = np.asarray(starts, np.int64), np.asarray(ends, np.int64)
    odd = np.zeros(n, bool)
    # NodeDef: attr entries (field 5)
    (msg, field, wt, _, ps, pe, step), bad = walk(b, starts, ends, {5})
    odd |= bad
    odd[msg[wt != 2]] = True
    entry = wt == 2
    e_node, e_ps, e_pe, e_step = msg[entry], ps[entry], pe[entry], step[entry]
    # map entries: key (1) and value (2), the last of each. upb keeps an entry holding any
    # other field out of the map (as an unknown field of the NodeDef) and merges the values
    # of an entry that has two: read those from the message.
    (emsg, ef, ewt, _, eps, epe, estep), ebad = walk(b, e_ps, e_pe, set(range(1, 64)))
    odd[e_node[ebad]] = True
    odd[e_node[emsg[(ewt != 2) | (ef > 2)]]] = True
    k = len(e_node)
    has_key, _, (ks, ke) = last(k, emsg, estep, (ef == 1) & (ewt == 2), eps, epe)
    has_val, n_val, (vs, ve) = last(k, emsg, estep, (ef == 2) & (ewt == 2), eps, epe)
    is_value = has_key & (ke - ks == 5)
    idx = np.flatnonzero(is_value)
    for j, ch in enumerate(b"value"):
        idx = idx[b[ks[idx] + j] == ch]
    is_value[:] = False
    is_value[idx] = True
    odd[e_node[is_value & (n_val > 1)]] = True
    has_value, n_values, (v_start, v_end, v_has) = last(
        n, e_node, e_step, is_value, vs, ve, has_val)
    odd |= n_values > 1
    odd |= has_value & ~v_has
    # AttrValue: a tensor (8) and nothing else of its oneof
    node = np.flatnonzero(has_value & ~odd)
    (amsg, af, awt, _, aps, ape, astep), abad = walk(b, v_start[node], v_end[node],
                                                     set(range(1, 11)))
    odd[node[abad]] = True
    odd[node[amsg[(af != 8) | (awt != 2)]]] = True
    has_t, n_t, (t_start, t_end) = last(len(node), amsg, astep, (af == 8) & (awt == 2),
                                        aps, ape)
    odd[node[(n_t != 1)]] = True
    keep = ~odd[node]
    node, t_start, t_end = node[keep], t_start[keep], t_end[keep]
    return _tensors(b, n, at, has_value, odd, node, t_start, t_end)


def _tensors(b, n, at, has_value, odd, node, t_start, t_end) -> ConstPart:
    """The TensorProto level (and its shape's), for constants `node`."""
    np = numpy()
    t = len(node)
    want = set(range(1, 19))
    (msg, f, wt, val, ps, pe, step), bad = walk(b, t_start, t_end, want)
    odd[node[bad]] = True
    # wire types a parse would not take for these fields: read those from the message
    scalar_wt = {1: 0, 3: 0, 5: 5, 6: 1, 7: 0, 9: 5, 10: 0, 11: 0, 12: 1, 13: 0, 16: 0, 17: 0}
    wrong = np.zeros(len(msg), bool)
    for fnum in range(1, 19):
        here = f == fnum
        if fnum in scalar_wt:
            ok = wt == scalar_wt[fnum]
            if fnum not in (1, 3):
                ok |= wt == 2       # packed
        else:
            ok = wt == 2
        wrong |= here & ~ok
    odd[node[msg[wrong]]] = True
    _, _, (dtype,) = last(t, msg, step, f == 1, val)
    _, _, (version,) = last(t, msg, step, f == 3, val)
    has_shape, n_shape, (s_start, s_end) = last(t, msg, step, f == 2, ps, pe)
    has_content, _, (c_start, c_end) = last(t, msg, step, f == 4, ps, pe)
    odd[node[n_shape > 1]] = True
    dtype = (dtype & np.uint64(0xFFFFFFFF)).astype(np.int64)
    dtype = np.where(dtype >= 2 ** 31, dtype - 2 ** 32, dtype)
    version = (version & np.uint64(0xFFFFFFFF)).astype(np.int64)
    lazy = version == LAZY_MARK
    content = np.where(lazy, 0, c_end - c_start)
    odd[node[(dtype < 0) | (dtype > 255)]] = True
    dt = np.clip(dtype, 0, 255)
    # the shape: dims (2) and unknown_rank (3)
    (smsg, sf, swt, sval, sps, spe, sstep), sbad = walk(b, s_start, s_end, {2, 3})
    odd[node[sbad]] = True
    odd[node[smsg[((sf == 2) & (swt != 2)) | ((sf == 3) & (swt != 0))]]] = True
    _, _, (unknown,) = last(t, smsg, sstep, sf == 3, sval)
    unknown = unknown != 0
    dim = (sf == 2) & (swt == 2)
    d_tensor, d_step, d_ps, d_pe = smsg[dim], sstep[dim], sps[dim], spe[dim]
    order = np.lexsort((d_step, d_tensor))
    d_tensor, d_ps, d_pe = d_tensor[order], d_ps[order], d_pe[order]
    (dmsg, df, dwt, dval, _, _, dstep), dbad = walk(b, d_ps, d_pe, {1})
    odd[node[d_tensor[dbad]]] = True
    odd[node[d_tensor[dmsg[dwt != 0]]]] = True
    _, _, (size,) = last(len(d_tensor), dmsg, dstep, dwt == 0, dval)
    size = size.astype(np.int64)           # int64 as written (two's complement)
    rank = np.bincount(d_tensor, minlength=t)
    dim_off = np.zeros(t + 1, np.int64)
    np.cumsum(rank, out=dim_off[1:])
    negative = np.zeros(t, bool)
    negative[d_tensor[size < 0]] = True
    log = np.zeros(t)
    pos = size > 0
    np.add.at(log, d_tensor[pos], np.log2(size[pos].astype(np.float64)))
    odd[node[log > 55]] = True
    prod = np.ones(t, np.int64)
    if len(size):
        np.multiply.at(prod, d_tensor, np.where(log[d_tensor] > 55, 1, size))
    known = ~unknown
    elements = np.where(known & ~negative & (prod > 0), prod, 0)
    item, value_field = _tables()
    isize, field_of = item[dt], value_field[dt]
    no_type = (isize == 0) & (field_of == 0) & (dt != 20) & (dt != 21)
    decodable = np.where(no_type | ~known | negative, False,
                         np.where(content > 0, (isize > 0) & (content == prod * isize), True))
    stored = np.where(lazy, elements * isize, content)
    typed = _typed_counts(b, t, msg, f, wt, ps, pe, field_of)
    plain = ~lazy & (content == 0)
    strings = np.where(dt == 7, typed[1], typed[0] * np.maximum(isize, 1))
    stored = np.where(plain, np.where(field_of > 0, strings, 0), stored)
    # the columns of every constant (odd ones and those with no value hold zeros)
    out = {k: np.zeros(n, t_) for k, t_ in (("dtype", np.int32), ("elements", np.int64),
                                            ("stored", np.int64), ("decodable", bool),
                                            ("lazy", bool), ("unknown_rank", bool))}
    for key, col in (("dtype", dtype), ("elements", elements), ("stored", stored),
                     ("decodable", decodable), ("lazy", lazy), ("unknown_rank", unknown)):
        out[key][node] = col
    full_rank = np.zeros(n, np.int64)
    full_rank[node] = rank
    keep_dims = ~odd[node]
    full_rank[node[~keep_dims]] = 0
    off = np.zeros(n + 1, np.int64)
    np.cumsum(full_rank, out=off[1:])
    dims = size[np.repeat(keep_dims, rank)] if len(size) else size
    return ConstPart(at=np.asarray(at, np.int64), has_value=has_value, odd=odd,
                     dim_off=off, dims=dims, **out)


def _typed_counts(b, t, msg, f, wt, ps, pe, field_of):
    """(values in each tensor's value field, bytes of its strings): TensorProto's typed
    values counted as a parse would hold them, packed or not."""
    np = numpy()
    mine = f == field_of[msg]
    counts = np.zeros(t, np.int64)
    strings = np.zeros(t, np.int64)
    sel = mine & (f == 8)
    np.add.at(counts, msg[sel], 1)
    np.add.at(strings, msg[sel], pe[sel] - ps[sel])
    sel = mine & (f != 8) & (wt != 2)
    np.add.at(counts, msg[sel], 1)
    for fnum, width in _FIXED_FIELDS.items():
        sel = mine & (f == fnum) & (wt == 2)
        np.add.at(counts, msg[sel], (pe[sel] - ps[sel]) // width)
    sel = np.flatnonzero(mine & np.isin(f, _VARINT_FIELDS) & (wt == 2))
    if len(sel):
        lengths = pe[sel] - ps[sel]
        total = int(lengths.sum())
        if total:
            first = np.repeat(ps[sel] - np.concatenate(([0], np.cumsum(lengths)[:-1])),
                              lengths)
            ends = b[first + np.arange(total)] < 0x80
            owner = np.repeat(msg[sel], lengths)
            np.add.at(counts, owner, ends.astype(np.int64))
    return counts, strings


def add_batch(parts: list | None, batch, first: int, wanted: bool) -> list | None:
    """The graph's parts with those of a batch of nodes from index `first` (a batch read
    node by node: its constants marked to be read from their messages); None when the
    graph's constants are not read this way (a small graph: no numpy)."""
    if not wanted or parts is None:
        return None
    np = numpy()
    if batch.consts is None:
        at = np.fromiter(compress(count(first), map("Const".__eq__, batch.ops)), np.int64)
        if len(at):
            parts.append(_message_only(at))
        return parts
    for part in batch.consts:
        part.at += first
        parts.append(part)
    return parts


def add_taken(parts: list, graph, first: int, count: int) -> list | None:
    """add_batch of nodes whose columns came from another process (no bytes read here):
    their constants are marked to be read from their messages."""
    if first + count < graph_index.NUMPY_FROM:
        return None
    np = numpy()
    code = graph._op_code.get("Const")
    if code is not None:
        ops = np.frombuffer(graph._ops, np.int32)[first:first + count]
        at = np.flatnonzero(ops == code) + first
        if len(at):
            parts.append(_message_only(at.astype(np.int64)))
    return parts


def _message_only(at) -> ConstPart:
    np = numpy()
    n = len(at)
    zeros = {k: np.zeros(n, t) for k, t in (
        ("dtype", np.int32), ("elements", np.int64), ("stored", np.int64),
        ("decodable", bool), ("lazy", bool), ("unknown_rank", bool), ("has_value", bool))}
    return ConstPart(at=at, odd=np.ones(n, bool), dim_off=np.zeros(n + 1, np.int64),
                     dims=np.zeros(0, np.int64), **zeros)


def message_facts(graph, i: int):
    """tensors.facts of node i's `value` from its NodeDef, or None without one."""
    attr = graph.structure.node[i].attr
    return tensors.facts(attr["value"].tensor) if "value" in attr else None


def facts_dict(graph, cols: ConstPart) -> dict:
    """{name: tensors.Facts} of every Const with a value, as Graph.const_facts: one Facts
    for each distinct row of facts (numpy finds them), shared by the constants alike."""
    np = numpy()
    n = len(cols.at)
    rank = np.diff(cols.dim_off)
    width = int(rank.max()) if n else 0
    rows = np.zeros((n, 7 + width), np.int64)
    for k, col in enumerate((cols.dtype, cols.unknown_rank, cols.elements, cols.decodable,
                             cols.stored, cols.lazy, rank)):
        rows[:, k] = col
    if width:
        place = np.arange(len(cols.dims)) - np.repeat(cols.dim_off[:-1], rank)
        rows[np.repeat(np.arange(n), rank), 7 + place] = cols.dims
    order = np.lexsort(rows.T[::-1])        # alike rows next to each other
    ordered = rows[order]
    new = np.ones(n, bool)
    new[1:] = (ordered[1:] != ordered[:-1]).any(axis=1)
    which = np.empty(n, np.int64)
    which[order] = np.cumsum(new) - 1
    shared = []
    for row in ordered[new].tolist():
        dims = None if row[1] else tuple(row[7:7 + row[6]])
        shared.append(tensors.Facts(row[0], dims, row[2], bool(row[3]), row[4], bool(row[5])))
    every = list(map(shared.__getitem__, which.reshape(-1).tolist()))
    for j in np.flatnonzero(cols.odd).tolist():          # read from their NodeDefs (few)
        every[j] = message_facts(graph, int(cols.at[j]))
    keep = (cols.has_value | cols.odd).tolist()
    names = map(graph.name_list.__getitem__, cols.at.tolist())
    return {name: fact for name, fact in zip(compress(names, keep), compress(every, keep))
            if fact is not None}
