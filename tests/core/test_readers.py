"""The reader registry (Qt-free): one reader per format, tried in order over one load context;
the Open dialog's filter and what a model can do are read from it."""

from __future__ import annotations

import os

import pytest
from conftest import DEMO

from inspector.core.app.opening import model_can, open_dialog_filter
from inspector.core.loaders import LoadedModel, load, loaded, make_graph, readers
from inspector.core.model import protos


def test_the_open_dialog_offers_every_format_tflite_included():
    text = open_dialog_filter()
    first = text.split(";;")[0]
    for pattern in ("*.pb", "*.pbtxt", "*.meta", "*.keras", "*.h5", "model.json", "*.tflite",
                    "saved_model.pb"):
        assert pattern in first
    assert "TensorFlow Lite model (*.tflite)" in text and text.endswith("All files (*)")


def test_capabilities_come_from_the_reader():
    model = load(DEMO)
    assert model.kind == "graphdef" and model_can(model, "transform") and model_can(model, "run")
    assert readers.capabilities("tflite") == frozenset()


def test_a_reader_is_one_register_call(tmp_path, monkeypatch):
    """A new format: match/open and one line in the registry; nothing else changes."""
    path = tmp_path / "toy.tgraph"
    path.write_bytes(b"TOYGRAPH a b c\n")

    def open_toy(ctx):
        graph_def = protos.GraphDef()
        for name in ctx.head.split()[1:]:
            node = graph_def.node.add()
            node.name, node.op = name.decode(), "NoOp"
        graph, problems = make_graph(graph_def, ctx.path)
        return LoadedModel(ctx.path, "toy", graph, ctx.st.st_size, problems=problems)

    toy = readers.Reader("toy", "Toy graph", ("*.tgraph",),
                         lambda ctx: not ctx.is_dir and ctx.head.startswith(b"TOYGRAPH"),
                         open_toy, frozenset({readers.RUN}))
    monkeypatch.setattr(readers, "REGISTRY", list(readers.REGISTRY))
    monkeypatch.setattr(readers, "CAPABILITIES", dict(readers.CAPABILITIES))
    monkeypatch.setattr(loaded, "CAPABILITIES", readers.CAPABILITIES)
    readers.register(toy)
    readers.REGISTRY.insert(0, readers.REGISTRY.pop())   # tried before the GraphDef reader
    model = load(str(path))
    assert model.kind == "toy" and sorted(n.name for n in model.graph) == ["a", "b", "c"]
    assert model_can(model, "run") and not model_can(model, "transform")
    assert "Toy graph (*.tgraph)" in open_dialog_filter()


def test_each_file_is_read_once_per_open(tmp_path, monkeypatch):
    """The readers share one context: the file's head is read once, its content once."""
    from inspector.core.loaders import files

    reads = []
    real = files.read_file

    def counting(path, *args, **kwargs):
        reads.append(os.path.basename(path))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(files, "read_file", counting)
    load(DEMO)
    assert reads.count(os.path.basename(DEMO)) == 2        # the head, then the whole file


@pytest.mark.parametrize("name", ["empty.pb"])
def test_bad_files_still_give_one_line(tmp_path, name):
    from inspector.core.errors import ModelLoadError

    path = tmp_path / name
    path.write_bytes(b"")
    with pytest.raises(ModelLoadError, match="empty"):
        load(str(path))
