"""Two files with the same bytes are the same model: a diff answers from the bytes alone, at
any size (no parse, no matching, no TensorFlow, and no import of either: this module and the
records it writes need no graph, protobuf or numpy). The CLI's `diff` asks before it opens A;
the window's File > Compare with… before it opens B (B is then A's graph, and `compare` of a
graph with itself makes this diff)."""

from __future__ import annotations

import os

from inspector.core.errors import InspectorError
from inspector.core.loaders import sniff
from inspector.core.runtime import mapped_compare
from inspector.core.runtime.lazy_import import later

# imported on first use, not by the command line's early answer (launcher, cli.quick_diff)
json = later("json", globals(), "json")
loaded = later("inspector.core.loaders.loaded", globals(), "loaded")
records = later("inspector.core.compare.records", globals(), "records")
threading = later("threading", globals(), "threading")

HEAD = 1 << 20             # the first bytes, which say whether the file holds a whole model
CHUNK = 1 << 20            # the bytes compared per read: 1 MiB (kept in cache for the compare)
HALVES_FROM = 64 << 20     # files this big: mapped_compare (a half per child), else two threads
RULE = "same file bytes"
WHOLE = ("graphdef", "tflite")     # kinds whose model is all in its file's bytes
BESIDE = (".meta", "saved_model.pb", "saved_model.pbtxt",   # read with files beside them
          "tensorflowjs_model.pb")     # (TF.js 0.x: its weights in the shards beside it)
_DIFFER: set = set()       # the last pair found different: (device, inode, size, mtime) each


def same_bytes(path_a: str, path_b: str) -> int | None:
    """The files' size when both are regular files holding the same bytes and the first bytes
    are those of a model read from its file alone (_whole_model; a .meta, saved_model.pb or
    TF.js 0.x tensorflowjs_model.pb only within one folder: its checkpoint or weight shards
    are beside it), else None. The same file (one inode)
    at once; else compared until they differ (_same_from). A file that changed while it was
    compared (its size or modification time, or cut short under the compare): InspectorError
    naming it."""
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
            key = tuple((s.st_dev, s.st_ino, s.st_size, s.st_mtime_ns) for s in (sa, sb))
            if key in _DIFFER:       # the launcher's early answer asked first: not again
                return None
            try:
                same = _same_from(fa.fileno(), fb.fileno(), size)
            except mapped_compare.FileChanged as exc:
                raise _changed((path_a, path_b)[exc.which]) from None
            for path, fd, before in ((path_a, fa, sa), (path_b, fb, sb)):
                after = os.fstat(fd.fileno())
                if (after.st_size, after.st_mtime_ns) != (before.st_size, before.st_mtime_ns):
                    raise _changed(path)
            if not same:
                _DIFFER.clear()
                _DIFFER.add(key)
            return size if same else None
    except OSError:
        return None


def _changed(path: str) -> InspectorError:
    return InspectorError("the file changed while it was compared; compare again", path=path)


def _same_from(fd_a: int, fd_b: int, size: int) -> bool:
    """The two open files hold the same `size` bytes: compared a chunk at a time (the reads
    and the compare in C), stopping at the first difference; a file of HALVES_FROM or more
    mapped and compared in place by two children (mapped_compare, where forking is safe), else
    as two halves, the second on a thread of its own (each half's reads leave the GIL free
    for the other's)."""
    differ: list = []
    if size < HALVES_FROM:
        return _same_range(fd_a, fd_b, 0, size, differ)
    same = mapped_compare.same(fd_a, fd_b, size)
    if same is not None:
        return same
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
                ref.stamp != loaded.file_stamp(model.path):
            return None
    except OSError:
        return None
    return same_bytes(model.path, path)


def identical_diff(a_label: str, b_label: str, size: int, graph=None) -> Diff:
    """The diff of two files with the same bytes: equal, nothing changed. With A's `graph`
    (the window has it) every node is paired with itself, so a node chosen on one side
    selects its counterpart; without (the CLI, which does not parse), no pairs."""
    m = records.Matching()
    names = graph.names() if graph is not None else []
    m.b_of = dict(zip(names, names))
    m.a_of = dict(m.b_of)
    m.rule = dict.fromkeys(names, RULE)
    totals = {"file bytes": [size, size]}
    if graph is not None:
        totals = {"nodes": [len(names), len(names)], **totals}
    return records.Diff(a_label, b_label, [], len(names), m, [], totals, {}, [],
                {"shares": {RULE: 1.0}, "matched": 1.0, "disagreeing_pairs": 0,
                 "same_file_bytes": True}, [])


def identical_report(a_label: str, b_label: str, size: int, as_json: bool) -> str:
    """What `diff A B` prints for two files with the same bytes (`--json`: the document): the
    text and JSON that compare.document writes for identical_diff's Diff (a test holds them
    equal), made without the diff's records (their dataclasses: ~20 ms on a slow machine)."""
    if not as_json:
        return (f"Comparing {a_label} with {b_label}\n"
                f"Equal: the two files hold the same bytes ({size:,} bytes), nothing changed.\n")
    return json.dumps({
        "format": "graphdef-inspector diff", "version": 1, "a": a_label, "b": b_label,
        "equal": True, "verdict": "equal", "unrelated": False,
        "counts": {"renamed": 0, "unchanged": 0}, "interface": [],
        "totals": {"file bytes": [size, size]}, "notes": [], "op_histogram": {},
        "renamed_scopes": {}, "groups": [], "entries": [],
        "quality": {"shares": {RULE: 1.0}, "matched": 1.0, "disagreeing_pairs": 0,
                    "same_file_bytes": True},
        "matching": {"pairs": [], "merged": {}, "split": {}, "disagreeing": []},
        "unchanged": 0}, indent=1)
