"""Dataclasses made without compiling their methods again at every start.

`@dataclass` writes each class's `__init__`, `__repr__`, `__eq__` (and a frozen class's
`__setattr__`, `__delattr__`, `__hash__`) as source text and compiles it with `exec`: ~0.5 ms a
class, ~19 ms for the 34 classes before the app's first picture (~60 ms on the slow class),
most of it in the compiler. `install` gives the dataclasses module an `exec` that takes the
code compiled from the same text by an earlier run of the same program (the window, or a
subcommand: a file of marshalled code objects each, per Python version); `save` rewrites the
file with what this run used, when it compiled anything (so a file holds one run's classes,
loaded in ~1 ms). The text is the key, compiled as the dataclasses module's own `exec` would
(no `__future__` flags inherited), so a class gets the very code its text compiles to; a file
of another bytecode version, or whose check sum fails, or that does not load is ignored."""

from __future__ import annotations

import builtins
import dataclasses
import marshal
import os
import stat
import sys
import time
import zlib
from importlib.util import MAGIC_NUMBER

_code: dict = {}         # source text -> its code object (the file's, then this run's)
_used: dict = {}         # ... those this run made a class with
_compiled = [0]          # texts compiled by this run (not in the file)
_path: list = []         # the file, once installed


def _exec(source, globals=None, locals=None, /):
    """builtins.exec, with dataclasses' source text compiled once across runs."""
    if source.__class__ is str:
        code = _code.get(source)
        if code is None:
            # dont_inherit: not this module's `from __future__ import annotations` (it would
            # make every __init__'s annotations the strings '_type_a', ...)
            code = _code[source] = compile(source, "<string>", "exec", dont_inherit=True)
            _compiled[0] += 1
        _used[source] = code
        source = code
    return builtins.exec(source, globals, locals)


def cache_file(folder: str | None = None, program: str = "window") -> str:
    """The file of `program`'s compiled dataclass methods for this Python in `folder`
    (default: the app's cache folder, diagnostics.cache_dir)."""
    if folder is None:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache")
        folder = os.path.join(base, "graphdef-inspector")
    tag = sys.implementation.cache_tag
    return os.path.join(folder, f"dataclass-code.{program}.{tag}.marshal")


def install(folder: str | None = None, program: str = "window") -> bool:
    """Dataclasses made from here on take their code from `program`'s file in `folder` (once
    per process; False if the dataclasses module has its own `exec` already)."""
    if _path:
        return True
    if "exec" in vars(dataclasses):
        return False
    path = cache_file(folder, program)
    try:
        data = _read(path)
        stored = _entries(data) if data is not None else None
        if stored is not None:
            _code.update((k, v) for k, v in stored.items()
                         if k.__class__ is str and v.__class__ is _CODE_TYPE)
    except Exception:        # marshal raises SystemError too on some damaged data
        pass                 # none yet, or not readable: compiled as usual
    _path.append(path)
    dataclasses.exec = _exec
    return True


def save() -> bool:
    """Write what this run used to the file if it compiled anything new (atomically; never
    raises)."""
    if not _path or not _compiled[0]:
        return False
    path = _path[0]
    entries = dict(_used)
    tmp = f"{path}.{os.getpid()}.tmp"
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        payload = marshal.dumps(entries)
        # a new file of our own: never through a FIFO (it would block) or a link planted there
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0),
                     0o644)
        with open(fd, "wb") as fh:
            fh.write(_HEADER + zlib.crc32(payload).to_bytes(4, "little") + payload)
        os.replace(tmp, path)
        _remove_leftovers(path)
    except Exception:        # never in the way of the run
        try:
            os.unlink(tmp)
        except OSError:
            pass
        return False
    _compiled[0] = 0
    return True


MAX_BYTES = 16 << 20     # a file of one run's classes is ~100 kB


def _read(path: str) -> bytes | None:
    """The file's bytes; None unless it is a regular file under MAX_BYTES (a FIFO planted in
    the cache folder blocked the app's start, /dev/zero linked there filled its memory)."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    with open(fd, "rb") as fh:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_BYTES:
            return None
        return fh.read(MAX_BYTES + 1)


def _remove_leftovers(path: str, age: float = 60.0) -> None:
    """Delete `path`'s temporary files that runs killed while writing left (older than `age`
    seconds: a run writing now keeps its own)."""
    folder, base = os.path.split(path)
    now = time.time()
    for name in os.listdir(folder):
        if name.startswith(base + ".") and name.endswith(".tmp"):
            try:
                if now - os.stat(os.path.join(folder, name)).st_mtime > age:
                    os.unlink(os.path.join(folder, name))
            except OSError:
                pass


def _entries(data: bytes):
    """The {text: code} dict in a file's bytes; None unless written by this bytecode version
    and format, with its check sum intact."""
    start = len(_HEADER) + 4
    if data[:len(_HEADER)] != _HEADER or \
            zlib.crc32(data[start:]).to_bytes(4, "little") != data[len(_HEADER):start]:
        return None
    stored = marshal.loads(data[start:])
    return stored if isinstance(stored, dict) else None


_CODE_TYPE = type(compile("", "<string>", "exec"))
_HEADER = MAGIC_NUMBER + b"DCC2"    # bytecode version (as .pyc files), then this file format
