"""A held model file closed at interpreter exit, when module globals such as `os` may already
be None: no "Exception ignored in HeldFile.__del__" on stderr (seen once by a script that
opened models and exited), and a descriptor closed elsewhere is no error either."""

from __future__ import annotations

import os

from inspector.core.model import held_file
from inspector.core.model.held_file import HeldFile


def test_closing_when_the_os_module_is_gone(tmp_path, monkeypatch):
    path = tmp_path / "m.pb"
    path.write_bytes(b"x")
    fd = os.open(path, os.O_RDONLY)
    held = HeldFile(str(path), fd)
    monkeypatch.setattr(held_file, "os", None)
    held.close()
    monkeypatch.undo()
    assert held.fd == -1
    try:
        os.fstat(fd)
    except OSError:
        pass
    else:
        raise AssertionError("the descriptor is still open")


def test_a_descriptor_closed_elsewhere_is_no_error(tmp_path):
    path = tmp_path / "m.pb"
    path.write_bytes(b"x")
    fd = os.open(path, os.O_RDONLY)
    held = HeldFile(str(path), fd)
    os.close(fd)
    held.close()
    assert held.fd == -1
