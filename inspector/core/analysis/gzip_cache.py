"""Each model file's gzip size (graph_flops' figure: metrics.gzip_size of its GraphDef, of the
file itself for a .tflite) kept across runs, so that diffing one original against many variants
compresses the original once (~1 s of CPU per 100 MB at normal speed). Keyed as the worker's
model cache is (decisions.md "Big models"): the file as it was opened, by its resolved path,
size and modification time (ns), with its inode, change time (as git's index: a rewrite whose
old time was put back), the reader's kind and the node count; only
for readers whose graph is that file's bytes alone (a GraphDef, a .tflite), never one frozen
with other files.

One small JSON file per key in the app's cache folder (`gzip-sizes/`), written atomically;
a file that does not read back as this key's entry (damaged, another version) is ignored and
replaced by the next store. Nothing here raises: a cache that cannot be read or written only
means the size is computed."""

from __future__ import annotations

import json
import os
import stat
import threading
import zlib

from inspector.core.analysis.metrics import CHUNK, SAMPLE_ABOVE

KINDS = ("graphdef", "tflite")   # readers whose graph is its file's bytes alone
KEEP = 500                       # entries kept (the least recently used go first)
# how the figure is made: a change to any of these makes every stored entry another's
HOW = [2, CHUNK, SAMPLE_ABOVE, zlib.ZLIB_RUNTIME_VERSION]


def folder() -> str:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache")
    return os.path.join(base, "graphdef-inspector", "gzip-sizes")


def key_of(model) -> list | None:
    """The cache key of an opened model (loaders.LoadedModel), None when its gzip size is
    not kept (a graph made here, a SavedModel, Keras, a .meta: more than one file's bytes)."""
    ref = getattr(model, "ref", None)
    if ref is None or model.kind not in KINDS or not ref.stamp:
        return None
    try:
        path = os.path.realpath(ref.path)
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    if (st.st_size, st.st_mtime_ns) != tuple(ref.stamp):    # changed since it was opened
        return None
    return [path, st.st_size, st.st_mtime_ns, st.st_ino, model.kind, len(model.graph),
            st.st_ctime_ns]    # the change time: a time put back (cp -p, touch -r) is seen


def _file(key: list) -> str:
    import hashlib

    name = hashlib.sha256(json.dumps(key).encode("utf-8", "surrogateescape")).hexdigest()
    return os.path.join(folder(), name[:32] + ".json")


def lookup(key: list | None) -> int | None:
    """The stored gzip size of `key`, None when there is none (or it does not read back)."""
    if key is None:
        return None
    try:
        path = _file(key)
        # non-blocking, and a regular file only: a FIFO planted in the folder hung the diff;
        # not through a link (utime below would touch the file it points at)
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) |
                     getattr(os, "O_NOFOLLOW", 0))
        with open(fd, "rb") as fh:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                return None
            entry = json.loads(fh.read(1 << 16))
        value = entry["gzip"]
        if entry["key"] != key or entry["how"] != HOW or type(value) is not int or value <= 0:
            return None
    except Exception:  # noqa: BLE001 - none, unreadable, damaged: the size is computed
        return None
    try:
        os.utime(path, follow_symlinks=False)   # recently used: pruned last
    except OSError:               # (a folder we may read but not write: used all the same)
        pass
    return value


def store(key: list | None, value) -> None:
    """Keep `value` (a positive int) as `key`'s gzip size (atomically; never raises)."""
    if key is None or type(value) is not int or value <= 0:
        return
    tmp = None
    try:
        path = _file(key)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        tmp = f"{path}.{os.getpid()}.{threading.get_ident()}.tmp"   # one a writer
        # a new file of our own: never through a FIFO (it would block) or a link planted there
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0),
                     0o644)
        with open(fd, "w", encoding="utf-8", errors="surrogateescape") as fh:
            json.dump({"key": key, "how": HOW, "gzip": value}, fh)
        os.replace(tmp, path)
        tmp = None
        _prune(os.path.dirname(path))
    except Exception:  # noqa: BLE001 - a cache not written: computed again next time
        pass
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def _prune(where: str) -> None:
    """Only the KEEP most recently used entries stay."""
    names = os.listdir(where)
    if len(names) <= KEEP:
        return
    def used(name: str) -> float:
        try:
            return os.stat(os.path.join(where, name)).st_mtime
        except OSError:
            return 0.0
    for name in sorted(names, key=used)[:len(names) - KEEP]:
        try:
            os.unlink(os.path.join(where, name))
        except OSError:
            pass
