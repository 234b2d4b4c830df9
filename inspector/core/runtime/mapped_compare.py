"""Two open files' bytes compared where they lie: both mapped into memory and compared with
the C library's memcmp (no copy into Python buffers, no read per chunk: about half the CPU of
os.pread chunks), each half in a forked child of its own (both cores, no GIL). A file cut
short while it is compared kills only the child that touches a page past its new end
(SIGBUS): the parent says which file changed (FileChanged). Only where fork is safe
(apart.can_fork: one thread, no Qt or TensorFlow loaded, INSPECTOR_APART not 0) and mmap,
fork and memcmp exist; else `same` answers None and the caller reads the bytes itself."""

from __future__ import annotations

import ctypes
import mmap
import os
import signal
import sys

from inspector.core.runtime import apart

PARTS = 2                 # children, one range each (the slow class has two cores)


class FileChanged(OSError):
    """A file changed size while it was compared (a child died reading past its end)."""

    def __init__(self, which: int):
        super().__init__(f"file {which} changed while it was compared")
        self.which = which


def usable() -> bool:
    """Forking is safe here: apart's one rule (one Python thread, no library with threads
    of its own; mmap and the C library are tried by `same`)."""
    return apart.can_fork()


def same(fd_a: int, fd_b: int, size: int) -> bool | None:
    """Both files' first `size` bytes are equal (True/False); None where this way is not
    available (the caller reads the bytes). Raises FileChanged when a file got shorter than
    `size` while it was compared."""
    if size <= 0 or not usable():
        return None
    try:
        lib = _libc()
    except (OSError, AttributeError, ImportError):
        return None
    maps = []
    try:
        for fd in (fd_a, fd_b):
            maps.append(lib.map(fd, size))
        return _in_children(lib, maps[0], maps[1], size, (fd_a, fd_b))
    except FileChanged:
        raise
    except (_NoMap, OSError):     # no map, pipe or fork here: the caller reads the bytes
        return None
    finally:
        for addr in maps:
            lib.munmap(addr, size)


class _NoMap(Exception):
    pass


class _Lib:
    """The C library's mmap, madvise, munmap and memcmp through ctypes (each call releases the
    GIL)."""

    def __init__(self):
        lib = ctypes.CDLL(None, use_errno=True)
        p, n, i = ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int
        lib.mmap.restype, lib.mmap.argtypes = p, (p, n, i, i, i, ctypes.c_int64)
        lib.munmap.restype, lib.munmap.argtypes = i, (p, n)
        lib.madvise.restype, lib.madvise.argtypes = i, (p, n, i)
        lib.memcmp.restype, lib.memcmp.argtypes = i, (p, p, n)
        self.lib = lib
        self.failed = ctypes.c_void_p(-1).value

    def map(self, fd: int, size: int) -> int:
        addr = self.lib.mmap(None, size, mmap.PROT_READ, mmap.MAP_SHARED, fd, 0)
        if addr in (None, self.failed):
            raise _NoMap
        self.lib.madvise(addr, size, getattr(mmap, "MADV_SEQUENTIAL", 2))   # read ahead more
        return addr

    def munmap(self, addr: int, size: int) -> None:
        self.lib.munmap(addr, size)

    def equal(self, a: int, b: int, size: int) -> bool:
        return self.lib.memcmp(a, b, size) == 0


_LIB: list = []


def _libc() -> _Lib:
    if not _LIB:
        _LIB.append(_Lib())
    return _LIB[0]


def _ranges(size: int) -> list:
    """PARTS ranges (start, end) covering 0..size, cut at page boundaries."""
    cuts = [size * k // PARTS // 4096 * 4096 for k in range(PARTS)] + [size]
    return [(cuts[k], cuts[k + 1]) for k in range(PARTS) if cuts[k] < cuts[k + 1]]


def _in_children(lib: _Lib, a: int, b: int, size: int, fds: tuple) -> bool:
    """Each range compared in a forked child, which writes one byte to a pipe (b"=" equal,
    b"!" not) and leaves. The first b"!" ends the others; a child killed by SIGBUS read past
    a file's end: FileChanged names the file now shorter."""
    for stream in (sys.stdout, sys.stderr):      # nothing buffered twice
        try:
            stream.flush()
        except (OSError, ValueError, AttributeError):
            pass
    read_fd, write_fd = os.pipe()
    pids: list = []
    try:
        for start, end in _ranges(size):
            pid = os.fork()
            if pid == 0:                           # the child: compare, answer, leave
                answer = b"?"
                try:
                    os.close(read_fd)
                    _quiet_death()
                    answer = b"=" if lib.equal(a + start, b + start, end - start) else b"!"
                finally:
                    try:
                        os.write(write_fd, answer)
                    finally:
                        os._exit(0)
            pids.append(pid)
        os.close(write_fd)
        write_fd = -1
        answers = b""
        while len(answers) < len(pids):
            got = os.read(read_fd, len(pids))
            if not got or b"!" in got:
                answers += got
                break
            answers += got
    finally:
        for fd in (read_fd, write_fd):
            if fd >= 0:
                os.close(fd)
        statuses = _end(pids)
    if any(os.WIFSIGNALED(s) and os.WTERMSIG(s) == signal.SIGBUS for s in statuses):
        raise FileChanged(_shorter(fds, size))
    if b"!" in answers:
        return False
    if answers != b"=" * len(pids):       # a child failed otherwise: the caller reads
        return None
    return True


def _quiet_death() -> None:
    """A SIGBUS ends this child without a word: no faulthandler stacks (a test run's, the
    app's crash log) for a file that merely changed."""
    handler = sys.modules.get("faulthandler")
    if handler is not None and handler.is_enabled():
        handler.disable()
    signal.signal(signal.SIGBUS, signal.SIG_DFL)


def _end(pids: list) -> list:
    """Every child ended (killed if it still runs) and reaped: their wait statuses."""
    statuses = []
    for pid in pids:
        try:
            done, status = os.waitpid(pid, os.WNOHANG)
            if not done:
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
                done, status = os.waitpid(pid, 0)
            if os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL:
                continue                            # ours: its answer was not needed
            statuses.append(status)
        except ChildProcessError:
            pass
    return statuses


def _shorter(fds: tuple, size: int) -> int:
    """Which file (0 or 1) is now shorter than `size` (the first when neither is: it changed
    and grew back)."""
    for k, fd in enumerate(fds):
        try:
            if os.fstat(fd).st_size < size:
                return k
        except OSError:
            return k
    return 0
