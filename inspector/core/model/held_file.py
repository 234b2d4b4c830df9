"""A model file's own descriptor, held by what reads the file on demand (the WeightStore's
weights, the NodeStore's NodeDefs): read with pread after checking that the file is still the
one opened (size and modification time), closed with its holder. No memory map: a file
truncated by another program gives an error, never a SIGBUS."""

from __future__ import annotations

import os

from inspector.core.errors import ModelLoadError


class HeldFile:
    """`_fd` (-1: none yet, or closed) and `stamp` (size, mtime_ns) of the file at `path`."""

    def __init__(self, path: str, fd: int = -1, stamp: tuple | None = None):
        self.path, self._fd = path, fd
        self.stamp = None if stamp is None else tuple(stamp)

    _os_close = staticmethod(os.close)     # (kept here: at interpreter exit `os` may be gone)

    def __del__(self):
        self.close()

    def close(self) -> None:
        fd, self._fd = getattr(self, "_fd", -1), -1
        if fd >= 0:
            try:
                self._os_close(fd)
            except OSError:       # closed already (a forked copy's, or at exit): nothing held
                pass

    @property
    def fd(self) -> int:
        return self._fd

    def unchanged(self) -> bool:
        """Whether the open file still has the size and modification time it was opened with."""
        st = os.fstat(self._fd)
        return (st.st_size, st.st_mtime_ns) == self.stamp

    def check(self, again: str = "open it again") -> None:
        """ModelLoadError (saying `again`) when the file was closed or changed on disk since
        it was opened."""
        if self._fd < 0:
            raise ModelLoadError("the model file was closed", path=self.path)
        if not self.unchanged():
            raise ModelLoadError(f"the model file changed on disk since it was opened; {again}",
                                 path=self.path)

    def pread(self, n: int, pos: int, again: str = "open it again") -> bytes:
        """n bytes at pos; ModelLoadError (saying `again`) when the file was closed, changed
        on disk since it was opened, or is shorter now."""
        self.check(again)
        data = os.pread(self._fd, n, pos)
        if len(data) != n:
            raise ModelLoadError("the model file is shorter than when it was opened",
                                 path=self.path)
        return data
