"""Compiled (numba) passes over GraphDef wire bytes: the node fields' places, names, ops,
devices and inputs of a batch of nodes, the inputs resolved to node indexes and the scope
ids, with no Python object per node. Imported only by wire_columns, which falls back to
columns.read_wire when numba is missing or a pass refuses its bytes.

Every read is bounds-checked (numba checks no index): bytes that are not the plain encoding
(a name, op or device written twice, a name or op missing, a string field of another wire
type, a group, a varint over 9 bytes, a length past its message, a non-ASCII byte in a
name, op, input or device) make `scan` answer a status other than OK, never a wrong
column. State that lasts across batches (every name seen so far, the op types, the scope
paths, their hash tables) lives in numpy arrays the caller owns and grows (`room`)."""

from __future__ import annotations

import numpy as np
from numba import njit

from inspector.core.model.const_kernels import facts as const_facts  # noqa: F401  (wire_columns)

OK, REFUSED, ROOM = 0, 1, 2
# counters (an int64 array the caller keeps): node names so far, bytes of nbuf used, op
# types, bytes of obuf used, scope paths, bytes of pbuf used, a path at least MAX_DEPTH deep
NODES, NBUF, OPS, OBUF, PATHS, PBUF, DEEP = range(7)
# flags of an input the caller finishes in Python (graph_index._resolve's rules)
LOOSE, SYNTAX, BIG = 1, 2, 4
PORT_MAX = 2 ** 31 - 1
SEP = 10                   # names are joined by '\n' in nbuf (decoded in one call)
_BASIS = np.uint64(14695981039346656037)
_PRIME = np.uint64(1099511628211)
_MIX = np.uint64(0xFF51AFD7ED558CCD)


@njit(cache=True, nogil=True)
def _varint(b, pos, end, most):
    """(value, position after it), position -1 when it runs past end or over `most` bytes."""
    value = np.int64(0)
    shift = 0
    for _ in range(most):
        if pos >= end:
            return np.int64(0), -1
        byte = np.int64(b[pos])
        pos += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value, pos
        shift += 7
    return np.int64(0), -1


@njit(cache=True, nogil=True)
def _field(b, pos, end):
    """(number, wire type, payload start, payload end) of the field at pos; number -1 when
    it is not plainly encoded."""
    tag, pos = _varint(b, pos, end, 5)
    if pos < 0 or tag >= 2 ** 32 or tag >> 3 == 0:
        return -1, 0, 0, 0
    number, wire = tag >> 3, tag & 7
    if wire == 2:
        n, pos = _varint(b, pos, end, 5)
        if pos < 0 or n > PORT_MAX or n > end - pos:
            return -1, 0, 0, 0
        return number, wire, pos, pos + n
    if wire == 0:
        _, stop = _varint(b, pos, end, 9)
        if stop < 0:
            return -1, 0, 0, 0
        return number, wire, pos, stop
    if wire == 1 or wire == 5:
        stop = pos + (8 if wire == 1 else 4)
        if stop > end:
            return -1, 0, 0, 0
        return number, wire, pos, stop
    return -1, 0, 0, 0


@njit(cache=True, nogil=True)
def _hash(b, a, e):
    h = _BASIS
    for i in range(a, e):
        h = (h ^ np.uint64(b[i])) * _PRIME
    h ^= h >> np.uint64(33)                 # the high bits into the low ones the table uses
    h *= _MIX
    return h ^ (h >> np.uint64(33))


@njit(cache=True, nogil=True)
def _find(b, a, e, h, buf, start, length, table):
    """The slot of table where the key b[a:e] (hash h) is, or the empty slot it would go
    in. A slot holds -1 (empty) or the key's id in its low 32 bits and the top 31 bits of
    its hash above them (compared first: the key's bytes are read only when they match)."""
    mask = np.int64(len(table) - 1)
    tag = np.int64(h >> np.uint64(33))
    slot = np.int64(h & np.uint64(mask))
    n = e - a
    while True:
        entry = table[slot]
        if entry < 0:
            return slot
        if entry >> 32 == tag:
            k = entry & 0xFFFFFFFF
            if length[k] == n and _same(b, a, buf, start[k], n):
                return slot
        slot = (slot + 1) & mask


@njit(cache=True, nogil=True)
def _same(b, a, buf, s, n):
    """b[a:a + n] == buf[s:s + n]."""
    for i in range(n):
        if buf[s + i] != b[a + i]:
            return False
    return True


@njit(cache=True, nogil=True)
def _put(table, slot, h, k):
    table[slot] = np.int64(h >> np.uint64(33)) << 32 | k


@njit(cache=True, nogil=True)
def _intern(b, a, e, buf, start, length, table, counters, n_at, used_at, sep):
    """The id of the key b[a:e] among the keys kept in buf (added, in order of first sight,
    when new: then -1 - id)."""
    h = _hash(b, a, e)
    slot = _find(b, a, e, h, buf, start, length, table)
    if table[slot] >= 0:
        return table[slot] & 0xFFFFFFFF
    k = counters[n_at]
    used = counters[used_at]
    for i in range(e - a):
        buf[used + i] = b[a + i]
    start[k], length[k] = used, e - a
    counters[used_at] = used + (e - a) + sep
    if sep:
        buf[used + e - a] = SEP
    _put(table, slot, h, k)
    counters[n_at] = k + 1
    return -1 - np.int64(k)


@njit(cache=True, nogil=True)
def rehash(start, length, buf, count, table):
    """Fill an empty (all -1) table with keys 0..count-1 (first one of equal keys kept)."""
    for k in range(count):
        a, n = start[k], length[k]
        h = _hash(buf, a, a + n)
        slot = _find(buf, a, a + n, h, buf, start, length, table)
        if table[slot] < 0:
            _put(table, slot, h, k)


@njit(cache=True, nogil=True)
def _ascii(b, a, e):
    for i in range(a, e):
        if b[i] >= 0x80:
            return False
    return True


@njit(cache=True, nogil=True)
def nodes(b, count, node_at, node_end, body_at, name_at, name_end, op_at, op_end,
          dev_at, dev_end, n_inputs):
    """Split GraphDef wire bytes into `count` node fields and read each one's name, op and
    device places and input count (other top-level fields are passed over). Returns OK or
    REFUSED."""
    end = len(b)
    pos, k = 0, 0
    while pos < end:
        number, wire, start, stop = _field(b, pos, end)
        if number < 0:
            return REFUSED
        if number == 1:
            if wire != 2 or k >= count:
                return REFUSED
            node_at[k], node_end[k], body_at[k] = pos, stop, start
            k += 1
        pos = stop
    if k != count:
        return REFUSED
    for j in range(count):
        pos, stop = body_at[j], node_end[j]
        name_at[j] = op_at[j] = dev_at[j] = -1
        inputs = 0
        while pos < stop:
            number, wire, a, e = _field(b, pos, stop)
            if number < 0:
                return REFUSED
            if 1 <= number <= 4:
                if wire != 2 or not _ascii(b, a, e):
                    return REFUSED
                if number == 1:
                    if name_at[j] >= 0:
                        return REFUSED
                    name_at[j], name_end[j] = a, e
                elif number == 2:
                    if op_at[j] >= 0:
                        return REFUSED
                    op_at[j], op_end[j] = a, e
                elif number == 3:
                    inputs += 1
                else:
                    if dev_at[j] >= 0:
                        return REFUSED
                    dev_at[j], dev_end[j] = a, e
            pos = e
        if name_at[j] < 0 or op_at[j] < 0:
            return REFUSED
        n_inputs[j] = inputs
    return OK


@njit(cache=True, nogil=True)
def columns(b, count, body_at, node_end, name_at, name_end, op_at, op_end, in_off,
            nbuf, nstart, nlen, ntab, recent, obuf, ostart, olen, otab, pbuf, pstart, plen,
            ptab, counters, max_depth, ops, scope, src, port, flags, ref_at, ref_end,
            text_at, text_end):
    """The columns of the batch `nodes` split: names kept in nbuf (the first node of a name
    in ntab), op codes and scope ids (interned in order of first sight), and per input its
    text's place, producer (-1: none yet), port (-1: control) and flags. Returns (names
    seen before, 1 when a name is empty or holds ':' or '^'). `recent`: a small table of
    the names put last (inputs mostly read nodes written shortly before theirs: found there
    without a cache miss in the big table)."""
    first = counters[NODES]
    dups, odd = 0, 0
    pa, pz, sid = np.int64(0), np.int64(-1), np.int64(0)     # the last node's scope path
    for j in range(count):
        a, e = name_at[j], name_end[j]
        k = first + j
        used = counters[NBUF]
        last, slashes = -1, 0
        for i in range(a, e):
            c = b[i]
            nbuf[used + i - a] = c
            if c == 47:                       # '/'
                last = i
                slashes += 1
            elif c == 58 or c == 94:          # ':' '^'
                odd = 1
        if e == a:
            odd = 1
        nbuf[used + e - a] = SEP
        nstart[k], nlen[k] = used, e - a
        counters[NBUF] = used + e - a + 1
        h = _hash(nbuf, used, used + e - a)
        slot = _find(nbuf, used, used + e - a, h, nbuf, nstart, nlen, ntab)
        at = k
        if ntab[slot] < 0:
            _put(ntab, slot, h, k)
        else:
            dups += 1
            at = ntab[slot] & 0xFFFFFFFF
        recent[np.int64(h & np.uint64(len(recent) - 1))] = \
            np.int64(h >> np.uint64(33)) << 32 | at
        counters[NODES] = k + 1
        code = _intern(b, op_at[j], op_end[j], obuf, ostart, olen, otab, counters, OPS,
                       OBUF, 0)
        ops[j] = code if code >= 0 else -1 - code
        if last < 0:
            last = a
        elif slashes - 1 >= max_depth:
            counters[DEEP] = 1
        if last - a != pz - pa or not _same(b, a, b, pa, last - a):
            sid = _intern(b, a, last, pbuf, pstart, plen, ptab, counters, PATHS, PBUF, 1)
            sid = sid if sid >= 0 else -1 - sid
            pa, pz = a, last
        scope[j] = sid
        pos, stop, q = body_at[j], node_end[j], in_off[j]
        while pos < stop:                     # its inputs, while their names are recent
            number, wire, a, e = _field(b, pos, stop)
            pos = e
            if number != 3:
                continue
            text_at[q], text_end[q] = a, e
            _input(b, a, e, q, nbuf, nstart, nlen, ntab, recent, src, port, flags, ref_at,
                   ref_end)
            q += 1
    for q in range(in_off[count]):            # names of nodes later in the batch
        if flags[q] & LOOSE:
            a, e = ref_at[q], ref_end[q]
            k = ntab[_find(b, a, e, _hash(b, a, e), nbuf, nstart, nlen, ntab)]
            if k >= 0:
                src[q] = k & 0xFFFFFFFF
                flags[q] &= ~LOOSE
    return dups, odd


@njit(cache=True, nogil=True)
def _input(b, a, e, q, nbuf, nstart, nlen, ntab, recent, src, port, flags, ref_at,
           ref_end):
    """inputs.parse_input of the text b[a:e], its name looked up among the names so far."""
    control = e > a and b[a] == 94
    na = a + 1 if control else a
    nb = na
    while nb < e and b[nb] != 58:
        nb += 1
    plain = nb > na
    for i in range(na, nb):
        if b[i] == 94:
            plain = False
    value = 0
    if nb < e:                                # digits after the last ':'
        lc = e - 1
        while b[lc] != 58:
            lc -= 1
        digits = e - lc - 1
        plain = plain and lc == nb and 1 <= digits <= 9
        numeric = digits > 0
        for i in range(lc + 1, e):
            c = b[i]
            if c < 48 or c > 57:
                numeric = False
                break
            value = min(value * 10 + (c - 48), PORT_MAX + 1)
        if not numeric:
            value = 0
            plain = False
    flag = 0 if plain else SYNTAX
    if control:
        value = -1
    elif value > PORT_MAX:
        value = PORT_MAX
        flag |= BIG
    port[q] = value
    h = _hash(b, na, nb)
    k = recent[np.int64(h & np.uint64(len(recent) - 1))]
    if k >= 0 and k >> 32 == np.int64(h >> np.uint64(33)):
        k &= 0xFFFFFFFF
        if nlen[k] != nb - na or not _same(b, na, nbuf, nstart[k], nb - na):
            k = -1
    else:
        k = -1
    if k < 0:
        k = ntab[_find(b, na, nb, h, nbuf, nstart, nlen, ntab)]
        if k >= 0:
            k &= 0xFFFFFFFF
    src[q] = k
    if k < 0:
        flag |= LOOSE
        ref_at[q], ref_end[q] = na, nb
    flags[q] = flag


@njit(cache=True, nogil=True)
def small_nodes(buf, i, edge, most, limit, lengths):
    """lazy_graphdef._small_nodes compiled: (where they end, how many) of the node fields
    from buf[i] with one- or two-byte lengths under `limit`, each wholly before buf[edge],
    at most `most` (and len(lengths)) of them; lengths gets each one's length."""
    k, last = 0, edge - 3
    most = min(most, len(lengths))
    while k < most and i < last and buf[i] == 0x0A:
        n = np.int64(buf[i + 1])
        if n < 0x80:
            j = i + 2 + n
        else:
            m = np.int64(buf[i + 2])
            if m >= 0x80:
                break
            n = (n & 0x7F) | m << 7
            if n >= limit:
                break
            j = i + 3 + n
        if j > edge:
            break
        lengths[k] = n
        i = j
        k += 1
    return i, k
