"""Two files with the same bytes are the same model: a diff answers from the bytes alone, at
any size (no parse, no matching, no TensorFlow). The CLI's `diff` asks before it opens A; the
window's File > Compare with… before it opens B (B is then A's graph, and `compare` of a graph
with itself makes this diff)."""

from __future__ import annotations

import os

from inspector.core.compare.diff import Diff
from inspector.core.compare.matching import Matching
from inspector.core.loaders import sniff
from inspector.core.loaders.loaded import file_stamp

CHUNK = 1 << 20
RULE = "same file bytes"
WHOLE = ("graphdef", "tflite")     # kinds whose model is all in its file's bytes
BESIDE = (".meta", "saved_model.pb", "saved_model.pbtxt")   # read with files beside them


def same_bytes(path_a: str, path_b: str) -> int | None:
    """The files' size when both are regular files holding the same bytes and the first bytes
    are those of a model read from its file alone (_whole_model; a .meta or saved_model.pb
    only within one folder: its checkpoint is beside it), else None. Reads both files once,
    1 MiB at a time, until they differ."""
    try:
        if not (path_a and path_b and os.path.isfile(path_a) and os.path.isfile(path_b)):
            return None
        if any(os.path.basename(p).endswith(BESIDE) for p in (path_a, path_b)) and \
                os.path.dirname(os.path.abspath(path_a)) != os.path.dirname(
                    os.path.abspath(path_b)):
            return None
        size = os.path.getsize(path_a)
        if size == 0 or size != os.path.getsize(path_b):
            return None
        with open(path_a, "rb") as fa, open(path_b, "rb") as fb:
            head = fa.read(CHUNK)
            if head != fb.read(CHUNK) or not _whole_model(path_a, head):
                return None
            if os.path.samefile(path_a, path_b):
                return size
            while True:
                a = fa.read(CHUNK)
                if a != fb.read(CHUNK):
                    return None
                if not a:
                    return size
    except OSError:
        return None


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
