"""const_columns.read's facts of the constants by one compiled pass (numba) over their
NodeDef bytes, one constant after another: no numpy pass per message level and field step
(the reader process's walk spent ~1 s at 1M nodes there). Imported only by wire_columns
once numba is loaded (the compiled reader: big graphs).

Only the plain encoding is read here, and anything else marks the constant `odd` (its
facts are then read from its NodeDef, as const_columns' are): a field not well formed, a
field of an unexpected wire type, an attr entry with another field or a key or value twice,
a `value` attr twice or without a value, an AttrValue holding anything but one tensor, a
tensor with two shapes, a field past TensorProto's 18, a dtype past 255, an element count
past 2^55. Every constant not marked odd gets tensors.facts' answers exactly."""

from __future__ import annotations

import numpy as np
from numba import njit

ELEMENTS_MOST = 1 << 55
_VALUE = np.frombuffer(b"value", np.uint8)


@njit(cache=True, nogil=True)
def _varint(b, pos, end):
    """(value as int64 two's complement, position after it), position -1 when it runs past
    end or over 10 bytes."""
    value = np.int64(0)
    shift = 0
    for _ in range(10):
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
    """(number, wire type, payload start, payload end, varint value) of the field at pos;
    number -1 when it is not well formed."""
    tag, pos = _varint(b, pos, end)
    if pos < 0 or tag < 8 or tag >= 2 ** 32:
        return -1, 0, 0, 0, np.int64(0)
    number, wire = tag >> 3, tag & 7
    if wire == 0:
        value, stop = _varint(b, pos, end)
        if stop < 0:
            return -1, 0, 0, 0, np.int64(0)
        return number, wire, pos, stop, value
    if wire == 2:
        n, start = _varint(b, pos, end)
        if start < 0 or n < 0 or n > end - start:
            return -1, 0, 0, 0, np.int64(0)
        return number, wire, start, start + n, np.int64(0)
    if wire == 1 or wire == 5:
        stop = pos + (8 if wire == 1 else 4)
        if stop > end:
            return -1, 0, 0, 0, np.int64(0)
        return number, wire, pos, stop, np.int64(0)
    return -1, 0, 0, 0, np.int64(0)


@njit(cache=True, nogil=True)
def _value_of(b, start, end, name):
    """(payload start, end) of the `value` attr's AttrValue in the NodeDef at b[start:end]
    ((-1, 0): none; (-2, 0): not the plain encoding)."""
    found_at, found_end = -1, 0
    pos = start
    while pos < end:
        number, wire, a, e, _ = _field(b, pos, end)
        if number < 0:
            return -2, 0
        pos = e
        if number != 5:
            continue
        if wire != 2:
            return -2, 0
        ka, ke, va, ve = -1, 0, -1, 0
        q = a
        while q < e:
            n2, w2, a2, e2, _ = _field(b, q, e)
            if n2 < 0 or w2 != 2 or n2 > 2:
                return -2, 0
            if n2 == 1:
                if ka >= 0:
                    return -2, 0
                ka, ke = a2, e2
            else:
                if va >= 0:
                    return -2, 0
                va, ve = a2, e2
            q = e2
        if ka < 0 or ke - ka != len(name):
            continue
        same = True
        for j in range(len(name)):
            if b[ka + j] != name[j]:
                same = False
        if not same:
            continue
        if found_at >= 0 or va < 0:
            return -2, 0
        found_at, found_end = va, ve
    return found_at, found_end


@njit(cache=True, nogil=True)
def _wire_ok(number, wire):
    """Whether TensorProto field `number` may come with this wire type (a parse takes it)."""
    if number == 1 or number == 3:
        return wire == 0
    if number == 5 or number == 9:
        return wire == 5 or wire == 2
    if number == 6 or number == 12:
        return wire == 1 or wire == 2
    if number in (7, 10, 11, 13, 16, 17):
        return wire == 0 or wire == 2
    return wire == 2            # 2, 4, 8, 14, 15, 18


@njit(cache=True, nogil=True)
def facts(b, starts, ends, size_of, field_of, lazy_mark, has_value, odd, dtype, elements,
          stored, decodable, lazy, unknown, rank, dims):
    """Fill the columns (const_columns.ConstPart's, rank instead of dim_off) of the Const
    NodeDefs at b[starts[i]:ends[i]]. Returns the dims written, or -1 when `dims` is too
    short (the caller calls again with a longer one)."""
    w = 0
    for i in range(len(starts)):
        va, ve = _value_of(b, starts[i], ends[i], _VALUE)
        if va == -2:
            odd[i] = True
            continue
        if va < 0:
            continue
        has_value[i] = True
        # the AttrValue: one tensor (field 8) and nothing else
        ta, te, count = -1, 0, 0
        pos = va
        while pos < ve:
            number, wire, a, e, _ = _field(b, pos, ve)
            if number != 8 or wire != 2:
                count = -1
                break
            ta, te, count = a, e, count + 1
            pos = e
        if count != 1:
            odd[i] = True
            continue
        # the TensorProto: dtype, shape, version, content (the last of each)
        raw_dtype, version, shapes, sa, se, ca, ce = np.int64(0), np.int64(0), 0, 0, 0, 0, 0
        pos = ta
        while pos < te:
            number, wire, a, e, value = _field(b, pos, te)
            if number < 0 or number > 18 or not _wire_ok(number, wire):
                shapes = -1
                break
            if number == 1:
                raw_dtype = value
            elif number == 2:
                shapes, sa, se = shapes + 1, a, e
            elif number == 3:
                version = value
            elif number == 4:
                ca, ce = a, e
            pos = e
        dt = raw_dtype & 0xFFFFFFFF
        if shapes < 0 or shapes > 1 or dt > 255:
            odd[i] = True
            continue
        is_lazy = (version & 0xFFFFFFFF) == lazy_mark
        # the shape: its dims (2) and unknown_rank (3)
        r, is_unknown, negative, zero, product, bad = 0, False, False, False, np.int64(1), False
        pos = sa
        while pos < se and not bad:
            number, wire, a, e, value = _field(b, pos, se)
            if number < 0 or (number == 2 and wire != 2) or (number == 3 and wire != 0):
                bad = True
                break
            pos = e
            if number == 3:
                is_unknown = value != 0
            elif number == 2:
                size, q = np.int64(0), a
                while q < e:
                    n2, w2, a2, e2, v2 = _field(b, q, e)
                    if n2 < 0 or (n2 == 1 and w2 != 0):
                        bad = True
                        break
                    if n2 == 1:
                        size = v2
                    q = e2
                if w + r >= len(dims):
                    return -1
                dims[w + r] = size
                r += 1
                if size < 0:
                    negative = True
                elif size == 0:
                    zero = True
                elif product > ELEMENTS_MOST // size:
                    bad = True
                else:
                    product *= size
        if bad:
            odd[i] = True
            continue
        if zero:
            product = 0
        size = size_of[dt]
        content = 0 if is_lazy else ce - ca
        count = 0 if is_unknown or negative or product <= 0 else product
        if size == 0 and field_of[dt] == 0 and dt != 20 and dt != 21:
            ok = False
        elif is_unknown or negative:
            ok = False
        elif content > 0:
            ok = size > 0 and content == product * size
        else:
            ok = True
        kept = count * size if is_lazy else content
        if not is_lazy and content == 0:
            kept = _typed_bytes(b, ta, te, dt, field_of[dt], size)
        dtype[i], elements[i], stored[i], decodable[i] = dt, count, kept, ok
        lazy[i], unknown[i], rank[i] = is_lazy, is_unknown, r
        w += r
    return w


@njit(cache=True, nogil=True)
def _typed_bytes(b, start, end, dt, mine, size):
    """The bytes of the values a tensor holds in its typed field (`mine`), as a parse holds
    them (packed or not): strings' lengths for DT_STRING, else values x item size."""
    if mine == 0:
        return np.int64(0)
    values, strings = np.int64(0), np.int64(0)
    pos = start
    while pos < end:
        number, wire, a, e, _ = _field(b, pos, end)
        pos = e
        if number != mine:
            continue
        if number == 8:
            values += 1
            strings += e - a
        elif wire != 2:
            values += 1
        elif number == 5 or number == 9:
            values += (e - a) // 4
        elif number == 6 or number == 12:
            values += (e - a) // 8
        elif number in (7, 10, 11, 13, 16, 17):
            for q in range(a, e):
                if b[q] < 0x80:
                    values += 1
    return strings if dt == 7 else values * max(size, 1)
