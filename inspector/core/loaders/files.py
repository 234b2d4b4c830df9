"""Reading input files safely: regular files only (never a FIFO, device or socket, which would
block or never end), sizes checked before reading, and one clear line for every failure."""

from __future__ import annotations

import errno
import os
import stat

from inspector.core.errors import ModelLoadError

PROTOBUF_LIMIT = 2 ** 31 - 1   # protobuf cannot parse a message of 2 GB or more
SIDE_FILE_LIMIT = 64 * 2 ** 20  # session files, logs, traces


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not an ordinary file"


def stat_input(path: str, error=ModelLoadError) -> os.stat_result:
    """os.stat with errors that say what is wrong: missing, a broken link, a link loop."""
    try:
        return os.stat(path)
    except FileNotFoundError:
        if os.path.islink(path):
            raise error("broken symbolic link (its target does not exist)", path=path) from None
        raise error("no such file or directory", path=path) from None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise error("symbolic link loop", path=path) from None
        if exc.errno == errno.ENAMETOOLONG:
            raise error("file name too long", path=path) from None
        raise error(f"cannot read: {exc.strerror or exc}", path=path) from None


def require_regular(path: str, st: os.stat_result | None = None, error=ModelLoadError):
    st = st or stat_input(path, error)
    if stat.S_ISDIR(st.st_mode):
        raise error("is a directory", path=path)
    if not stat.S_ISREG(st.st_mode):
        raise error(f"not a regular file ({_kind(st.st_mode)}): only files can be opened",
                    path=path)
    return st


def read_file(path: str, limit: int = PROTOBUF_LIMIT, what: str = "file",
              error=ModelLoadError, count: int | None = None) -> bytes:
    """The bytes of a regular file (its first `count` bytes if given), refusing files over
    `limit` before reading them."""
    st = require_regular(path, error=error)
    if count == 0:
        return b""
    if count is None and st.st_size > limit:
        size = f"{st.st_size / 2 ** 30:.1f} GB" if st.st_size >= 2 ** 30 else \
            f"{st.st_size / 2 ** 20:.0f} MB"
        raise error(f"{what} is {size}, over the {_limit_text(limit)} limit", path=path)
    try:
        with open(path, "rb") as fh:
            data = fh.read(count if count is not None else limit + 1)
    except OSError as exc:
        raise error(f"cannot read: {exc.strerror or exc}", path=path) from None
    if count is None and len(data) > limit:
        raise error(f"{what} grew past the {_limit_text(limit)} limit while being read",
                    path=path)
    return data


def _limit_text(limit: int) -> str:
    if limit >= PROTOBUF_LIMIT:
        return "protobuf 2 GB"
    return f"{limit / 2 ** 20:.0f} MB"


def read_text(path: str, limit: int = SIDE_FILE_LIMIT, what: str = "file",
              error=ModelLoadError) -> str:
    return read_file(path, limit, what, error).decode("utf-8", errors="replace")
