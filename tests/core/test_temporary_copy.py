"""exports.temporary_copy: the .tflite a window beside this one opens (Phone panel's variants
and quantization recipes share it)."""

import atexit
import os

from inspector.core.app.exports import temporary_copy


def test_temporary_copy_is_named_after_the_model_and_removed_at_exit(monkeypatch, tmp_path):
    registered = []
    monkeypatch.setattr(atexit, "register", lambda *a: registered.append(a))
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    import tempfile
    monkeypatch.setattr(tempfile, "tempdir", None)

    path = temporary_copy("/models/net.v2.pb/", "int8", b"TFL3data", prefix="inspector-recipe-")

    assert os.path.basename(path) == "net.v2_int8.tflite"
    folder = os.path.dirname(path)
    assert os.path.dirname(folder) == str(tmp_path)
    assert os.path.basename(folder).startswith("inspector-recipe-")
    with open(path, "rb") as f:
        assert f.read() == b"TFL3data"
    assert len(registered) == 1
    remove, target, ignore_errors = registered[0]
    assert target == folder and ignore_errors is True
    remove(target, ignore_errors)
    assert not os.path.exists(folder)
