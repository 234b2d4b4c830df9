"""Write outputs safely: atomically, and never over an existing file or the input unless forced."""

from __future__ import annotations

import os
import tempfile

from google.protobuf import text_format

from inspector.core.model import protos
from inspector.core.errors import InspectorError


def check_target(path: str, force: bool = False, source: str | None = None) -> None:
    if source and os.path.exists(path) and os.path.exists(source):
        if os.path.samefile(path, source) and not force:
            raise InspectorError("refusing to write over the input file (use --force)", path=path)
    if os.path.exists(path) and not force:
        raise InspectorError("output file exists (use --force to overwrite)", path=path)
    directory = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(directory):
        raise InspectorError("output directory does not exist", path=path)


def atomic_write(path: str, data: bytes | str, force: bool = False,
                 source: str | None = None) -> str:
    """Write via a temporary file in the same directory and rename it into place."""
    check_target(path, force, source)
    if isinstance(data, str):
        data = data.encode("utf-8")
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".inspector-", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return path


def write_graph(graph_def, path: str, as_text: bool = False, force: bool = False,
                source: str | None = None) -> str:
    data = text_format.MessageToString(graph_def) if as_text else \
        protos.serialize_graph_def(graph_def)
    return atomic_write(path, data, force=force, source=source)
