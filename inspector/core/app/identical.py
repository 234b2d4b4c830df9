"""Two files with the same bytes are the same model: a diff answers from the bytes alone, at
any size (no parse, no matching, no TensorFlow, and no import of either: this module and the
records it writes need no graph, protobuf or numpy). The CLI's `diff` asks before it opens A;
the window's File > Compare with… before it opens B (B is then A's graph, and `compare` of a
graph with itself makes this diff)."""

from __future__ import annotations

import os
import threading

from inspector.core.compare.records import Diff, Matching
from inspector.core.loaders import sniff
from inspector.core.loaders.loaded import file_stamp

HEAD = 1 << 20             # the first bytes, which say whether the file holds a whole model
CHUNK = 1 << 20            # the bytes compared per read: 1 MiB (kept in cache for the compare)
HALVES_FROM = 64 << 20     # files this big are compared on two threads, a half each
RULE = "same file bytes"
WHOLE = ("graphdef", "tflite")     # kinds whose model is all in its file's bytes
BESIDE = (".meta", "saved_model.pb", "saved_model.pbtxt")   # read with files beside them


def same_bytes(path_a: str, path_b: str) -> int | None:
    """The files' size when both are regular files holding the same bytes and the first bytes
    are those of a model read from its file alone (_whole_model; a .meta or saved_model.pb
    only within one folder: its checkpoint is beside it), else None. The same file (one inode)
    at once; else both read CHUNK at a time until they differ (_same_from)."""
    try:
        if not (path_a and path_b and os.path.isfile(path_a) and os.path.isfile(path_b)):
            return None
        if any(os.path.basename(p).endswith(BESIDE) for p in (path_a, path_b)) and \
                os.path.dirname(os.path.abspath(path_a)) != os.path.dirname(
                    os.path.abspath(path_b)):
            return None
        with open(path_a, "rb", buffering=0) as fa, open(path_b, "rb", buffering=0) as fb:
            sa, sb = os.fstat(fa.fileno()), os.fstat(fb.fileno())
            size = sa.st_size
            if size == 0 or size != sb.st_size:
                return None
            head = os.pread(fa.fileno(), HEAD, 0)
            if not _whole_model(path_a, head):
                return None
            if (sa.st_dev, sa.st_ino) == (sb.st_dev, sb.st_ino):
                return size
            return size if _same_from(fa.fileno(), fb.fileno(), size) else None
    except OSError:
        return None


def _same_from(fd_a: int, fd_b: int, size: int) -> bool:
    """The two open files hold the same `size` bytes: compared a chunk at a time (the reads
    and the compare in C), stopping at the first difference; a file
    of HALVES_FROM or more as two halves, the second on a thread of its own (each half's
    reads leave the GIL free for the other's)."""
    differ: list = []
    if size < HALVES_FROM:
        return _same_range(fd_a, fd_b, 0, size, differ)
    middle = size // 2 // CHUNK * CHUNK
    other = threading.Thread(target=_same_range, args=(fd_a, fd_b, middle, size, differ),
                             name="inspector-same-bytes", daemon=True)
    other.start()
    _same_range(fd_a, fd_b, 0, middle, differ)
    other.join()
    return not differ


def _same_range(fd_a: int, fd_b: int, start: int, end: int, differ: list) -> bool:
    """Bytes start..end of both files are the same; on a difference (or a file cut short)
    `differ` gets an entry, and a range another thread compares stops at its next chunk.
    (os.pread's new bytes each chunk: reads into two buffers made once cost the kernel a
    third more.)"""
    pos = start
    try:
        while pos < end and not differ:
            n = min(CHUNK, end - pos)
            a = os.pread(fd_a, n, pos)
            if len(a) != n or a != os.pread(fd_b, n, pos):
                break
            pos += n
        else:
            return not differ
    except OSError:
        pass
    differ.append(pos)
    return False


def _whole_model(path: str, head: bytes) -> bool:
    """A .tflite or a GraphDef read from this file alone (sniff.holds_whole_model); anything
    else (garbage too) takes the full path, which says what is wrong with it."""
    return sniff.holds_whole_model(path, head)


def same_as_opened(model, path: str) -> int | None:
    """same_bytes of the file `model` was opened from and `path`, if that file has not
    changed since (its size and modification time as when opened), else None."""
    ref = getattr(model, "ref", None)
    try:
        if ref is None or model.kind not in WHOLE or ref.path != model.path or \
                ref.stamp != file_stamp(model.path):
            return None
    except OSError:
        return None
    return same_bytes(model.path, path)


def identical_diff(a_label: str, b_label: str, size: int, graph=None) -> Diff:
    """The diff of two files with the same bytes: equal, nothing changed. With A's `graph`
    (the window has it) every node is paired with itself, so a node chosen on one side
    selects its counterpart; without (the CLI, which does not parse), no pairs."""
    m = Matching()
    names = graph.names() if graph is not None else []
    m.b_of = dict(zip(names, names))
    m.a_of = dict(m.b_of)
    m.rule = dict.fromkeys(names, RULE)
    totals = {"file bytes": [size, size]}
    if graph is not None:
        totals = {"nodes": [len(names), len(names)], **totals}
    return Diff(a_label, b_label, [], len(names), m, [], totals, {}, [],
                {"shares": {RULE: 1.0}, "matched": 1.0, "disagreeing_pairs": 0,
                 "same_file_bytes": True}, [])
