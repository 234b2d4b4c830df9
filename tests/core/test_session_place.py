"""Where a model's session file is kept: beside the model, or in the user's data folder for a
model among the app's own files (the bundled demo) or in a folder the user cannot write."""

import json
import os

import pytest

from inspector.core.app.demo_model import DEMO_MODEL
from inspector.core.app.session_file import data_session_path, session_path, session_paths
from inspector.core.app.workbench import Workbench


@pytest.fixture
def data(tmp_path, monkeypatch):
    folder = tmp_path / "data"
    monkeypatch.setenv("XDG_DATA_HOME", str(folder))
    return folder / "graphdef-inspector" / "sessions"


def test_a_writable_folder_keeps_the_session_beside_the_model(tmp_path, data):
    model = str(tmp_path / "net.pb")
    assert session_paths(model) == (model + ".inspector.json", (model + ".inspector.json",))


def test_the_demo_reads_the_data_folder_first_then_the_shipped_file(data):
    written, read = session_paths(DEMO_MODEL)
    assert os.path.dirname(written) == str(data)
    assert os.path.basename(written).endswith("-demo_digits.pb.inspector.json")
    assert read == (written, session_path(DEMO_MODEL))
    assert data_session_path(DEMO_MODEL) == written


def test_a_read_only_folder_saves_to_the_data_folder_and_restores_from_it(tmp_path, data,
                                                                          monkeypatch):
    folder = tmp_path / "ro"
    folder.mkdir()
    if os.geteuid() == 0:    # root may write anywhere: let the mode bits decide, as for a user
        real = os.access
        monkeypatch.setattr(os, "access", lambda p, mode: real(p, mode) and not (
            mode & os.W_OK and not os.stat(p).st_mode & 0o200))
    model = str(folder / "net.pb")
    open(model, "wb").close()
    with open(model + ".inspector.json", "w") as fh:      # came with the model
        json.dump({"version": 1, "outputs": ["a"],
                   "pipeline": [{"name": "strip_unused_nodes",
                                 "params": {"type": ["float"]}}]}, fh)
    os.chmod(folder, 0o555)
    try:
        bench = Workbench()
        assert bench.restore(model) == model + ".inspector.json"
        assert bench.outputs == ["a"]
        bench.set_marks([], ["a", "b"])
        written = bench.save(model)
        assert os.path.dirname(written) == str(data)
        assert json.load(open(model + ".inspector.json"))["outputs"] == ["a"]
        again = Workbench()
        assert again.restore(model) == written and again.outputs == ["a", "b"]
        other = str(tmp_path / "elsewhere" / "net.pb")   # same name, another path
        assert data_session_path(other) != written
    finally:
        os.chmod(folder, 0o755)


def test_relative_paths_in_a_data_folder_session_resolve_in_the_models_folder(tmp_path, data,
                                                                              monkeypatch):
    """A session kept in the data folder names files as if it sat beside the model: a file
    in the model's folder is used, one elsewhere stays disabled until the user enables it."""
    import inspector.core.formats.writer as writer

    monkeypatch.setattr(writer, "not_for_writing", lambda path: True)
    model = str(tmp_path / "net.pb")
    written = session_paths(model)[0]
    os.makedirs(os.path.dirname(written))
    with open(written, "w") as fh:
        json.dump({"version": 1, "pipeline": [
            {"name": "sparsify_gather", "params": {"input_checkpoint": ["ckpt/model"]}},
            {"name": "sparsify_gather", "params": {"input_checkpoint": ["../ckpt"]}}]}, fh)
    bench = Workbench()
    assert bench.restore(model) == written
    assert [s.enabled for s in bench.steps] == [True, False]
    assert str(tmp_path.parent / "ckpt") in bench.warnings[0]
