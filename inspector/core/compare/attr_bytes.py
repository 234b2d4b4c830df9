"""Each node's attributes as bytes, where the comparison only needs to know that two are equal:
a node's NodeDef as serialized, past its leading name, op, input and device fields (so its
attributes and whatever field follows them). The same bytes are the same attributes (the
converse need not hold: map entries may come in another order), so equal bytes stand for a
test whose answer they decide (an own signature computed once per distinct bytes; a pair's
attribute maps equal) and anything else takes the test itself. Read by whole-array steps,
PIECE nodes at a time (a serialization and a join each), so a call never holds the GIL long."""

from __future__ import annotations

from itertools import repeat

from inspector.core.compare.columns import PIECE, array_of, np, pieces

LEADING = (0x0A, 0x12, 0x1A, 0x22)   # the tags of name, op, input and device (length-delimited)
NODES_A_CALL = PIECE // 4        # NodeDefs sliced a C call (a wrapper each, or a stand-in's
#                                  parse of that many: each call holds the GIL)


def tails(protos, visit=None) -> tuple:
    """(keys, ids): node i's bytes past its leading name, op, input and device fields are
    keys[ids[i]] (ids: an int64 array; a distinct bytes string a key). A field whose length
    takes more than two bytes (16 KiB or more) stops the skip there: its bytes stay in the
    tail (never wrong, only less often equal). `protos`: the graph's NodeDefs as a sequence
    (columns.protos: a GraphDef's field or its stand-in), sliced NODES_A_CALL at a time and
    let go after their piece; visit(lo, nodes, ids) sees each piece's NodeDefs (nodes lo..)
    and their ids while they are at hand."""
    table: dict = {}
    ids: list = []
    get = table.setdefault
    for lo in range(0, len(protos), PIECE):
        hi = min(len(protos), lo + PIECE)
        nodes: list = []
        for at in range(lo, hi, NODES_A_CALL):
            nodes += protos[at:min(hi, at + NODES_A_CALL)]
        raw = [p.SerializeToString() for p in nodes]
        cuts = _past_leading(raw)
        got = [get(r[c:], len(table)) for r, c in zip(raw, cuts)]
        if visit is not None:
            visit(lo, nodes, got)
        ids += got
    return list(table), array_of(ids)


def _past_leading(raw: list) -> list:
    """Where each serialized NodeDef's leading name, op, input and device fields end: one
    field of every node still in them per whole-array step."""
    lens = np.fromiter(map(len, raw), np.int64, len(raw))
    ends = np.cumsum(lens)
    starts = ends - lens
    buf = np.frombuffer(b"".join(raw) + b"\0\0\0", np.uint8)     # (p + 2 stays inside)
    pos = starts.copy()
    live = np.flatnonzero(lens > 1)
    leading = np.array(LEADING, np.uint8)
    while len(live):
        p = pos[live]
        first, second = buf[p + 1].astype(np.int64), buf[p + 2].astype(np.int64)
        short = first < 128
        length = np.where(short, first, (first & 127) | (second << 7))
        after = p + np.where(short, 2, 3) + length
        ok = np.isin(buf[p], leading) & (short | (second < 128)) & (after <= ends[live])
        live = live[ok]
        pos[live] = after[ok]
        live = live[pos[live] + 1 < ends[live]]     # a tag and a length byte left
    return (pos - starts).tolist()


def same_tails(ca, cb, xs, ys) -> list | None:
    """Per pair (node xs[k] of A, ys[k] of B): True where both have the same tail bytes (so
    equal attribute maps), False where that is not known; None where either graph's tails
    were not read (compare.columns' `tails`, left by the fingerprints)."""
    ta, tb = ca.tails, cb.tails
    if ta is None or tb is None or not len(xs):
        return None
    (keys_a, ids_a), (keys_b, ids_b) = ta, tb
    code: dict = {}                  # (keys are distinct: a Const's tail holds its values)
    for lo in range(0, len(keys_a), PIECE):
        code.update(zip(keys_a[lo:lo + PIECE], range(lo, lo + PIECE)))
    into_a = np.concatenate([np.zeros(0, np.int64)] + [
        np.fromiter(map(code.get, keys_b[lo:lo + PIECE], repeat(-1)), np.int64,
                    min(PIECE, len(keys_b) - lo)) for lo in range(0, len(keys_b), PIECE)])
    same = ids_a[array_of(xs)] == into_a[ids_b[array_of(ys)]]
    return pieces(same)
