"""Protobuf wire-format fields of many messages at once, by numpy (const_columns' levels):
each step reads the next field of every message still open, so a level of 100k messages
takes as many whole-array steps as its longest message has fields, with no Python object
per message. What is not well formed (a
varint past the buffer or longer than 10 bytes, a group, a length past the message, field
0) marks its message `bad`: the caller reads those another way."""

from __future__ import annotations

from inspector.core.model.graph_index import numpy


def _varint(b, pos):
    """(values as uint64, positions after them, bad) of the varints at `pos` (one-byte
    varints, the common case, in a few steps)."""
    np = numpy()
    last = len(b) - 1
    p = pos.astype(np.int64)
    bad = p > last
    byte = b[np.minimum(p, last)]
    val = byte.astype(np.uint64)
    p += 1
    live = np.flatnonzero((byte >= 0x80) & ~bad)
    if not len(live):
        return val, p, bad
    val[live] &= np.uint64(0x7F)
    for k in range(1, 10):
        over = p[live] > last
        bad[live[over]] = True
        live = live[~over]
        if not len(live):
            break
        q = p[live]
        byte = b[q].astype(np.uint64)
        val[live] |= (byte & np.uint64(0x7F)) << np.uint64(7 * k)
        p[live] = q + 1
        live = live[byte >= 0x80]
    bad[live] = True            # longer than 10 bytes
    return val, p, bad


def walk(b, start, end, want):
    """Every field of the messages b[start[i]:end[i]] whose number is in `want`, as arrays
    (message, field, wire type, varint value, payload start, payload end, step), steps in
    wire order; and `bad`: messages that are not well formed."""
    np = numpy()
    n = len(start)
    pos = start.astype(np.int64)
    bad = np.zeros(n, bool)
    live = np.flatnonzero(pos < end)
    rows: list = []
    step = 0
    wanted = np.zeros(64, bool)
    wanted[sorted(want)] = True
    while len(live):
        tag, p, b1 = _varint(b, pos[live])
        field, wt = (tag >> np.uint64(3)).astype(np.int64), (tag & np.uint64(7)).astype(np.int64)
        is0, is2 = wt == 0, wt == 2
        v, q, b2 = _varint(b, p)        # a varint after the tag (read for every field)
        b1 |= b2 & (is0 | is2)
        length = np.where(is2, v, np.uint64(0))
        b1 |= length > np.uint64(1 << 40)
        ps = np.where(is0 | is2, q, p)
        pe = ps + length.astype(np.int64)
        p = np.where(is0, q, np.where(is2, pe, p + np.where(wt == 5, 4, 0) +
                                      np.where(wt == 1, 8, 0)))
        b1 |= (wt == 3) | (wt == 4) | (wt > 5) | (field == 0) | (p > end[live])
        keep = wanted[np.minimum(field, 63)] & ~b1
        if b1.any():
            bad[live[b1]] = True
        if keep.any():
            rows.append((live[keep], field[keep], wt[keep], np.where(is0, v, 0)[keep],
                         ps[keep], pe[keep], np.full(int(keep.sum()), step, np.int64)))
        pos[live] = p
        live = live[~b1 & (p < end[live])]
        step += 1
    if rows:
        cols = [np.concatenate(c) for c in zip(*rows)]
    else:
        cols = [np.zeros(0, t) for t in (np.int64, np.int64, np.int64, np.uint64, np.int64,
                                          np.int64, np.int64)]
    return cols, bad


def last(n, msg, step, mask, *values):
    """Per message: whether a row under `mask` is there, how many, and the values of the
    last one (in wire order: rows come step by step)."""
    np = numpy()
    m = msg[mask]
    count = np.bincount(m, minlength=n)
    if len(m) and count.max() > 1:
        order = np.argsort(m, kind="stable")      # rows are in step order already
        m = m[order]
        tail = np.ones(len(m), bool)
        tail[:-1] = m[1:] != m[:-1]
        m = m[tail]
        pick = order[tail]
    else:
        pick = slice(None)
    out = []
    for v in values:
        col = np.zeros(n, v.dtype)
        col[m] = v[mask][pick]
        out.append(col)
    return count > 0, count, out
