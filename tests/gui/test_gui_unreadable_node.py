"""A big model (>= 32 MB: its NodeDefs stay in the file, node_store) with one node whose bytes
do not parse, opened in the window with its TensorFlow worker as a user does: the first
picture shows, the summary and the constants read (a broken neighbour is not theirs to
report), and a user who reaches the node (selects it, expands its scope, searches it) gets
one one-line dialog naming the file and the node; the window goes on. Before, the first
picture never came ("Layout failed" naming the node: an edge label read its NodeDef, and a
walk over the constants beside it parsed its span)."""

from __future__ import annotations

import os

import pytest

from inspector.core.loaders import reader_process
from inspector.core.runtime import executor
from tests.core.test_node_store import _broken
from tests.fixtures import scale_models


@pytest.fixture(scope="module")
def broken(tmp_path_factory):
    source = scale_models.blocks_graph(40_000)                     # 41 MB
    path, name = _broken(source, tmp_path_factory.mktemp("broken"), 30_000)
    assert os.path.getsize(path) >= reader_process.STORE_FROM       # kept in the file
    return path, name


@pytest.fixture
def worker():
    from inspector.worker.client import install

    previous = executor.installed()
    client = install()
    yield client
    client.stop()
    executor.use(previous)


def _boxes(qtbot):
    from PySide6.QtWidgets import QApplication, QMessageBox

    return [b for b in QApplication.topLevelWidgets()
            if isinstance(b, QMessageBox) and b.isVisible()]


def test_a_node_that_does_not_parse_is_one_dialog_when_reached(window, qtbot, worker,
                                                               broken, monkeypatch):
    from inspector.core.runtime import front_end

    monkeypatch.setattr(front_end, "WINDOW", True)   # as the app's start (tune_runtime)
    path, name = broken
    window.resize(1366, 768)
    errors: list = []
    window.error_shown.connect(errors.append)
    window.open_path(path)
    qtbot.waitUntil(lambda: window.scenes_drawn > 0 and window.state.summary is not None and
                    not window.tasks.is_busy(), timeout=60_000)
    graph = window.state.model.graph
    assert type(graph.structure).__name__ == "StoredGraphDef"
    assert window.state.summary.node_count == len(graph)             # the summary read
    assert not [e for e in errors if "Layout" in e or "summar" in e]
    for box in _boxes(qtbot):               # (the worker's preview reads the whole file)
        box.close()
    def own():      # the window's own reading (the worker's answers say "Preview failed")
        return [e for e in errors if e.startswith(path)]

    assert own() == []
    # selecting it: the node panel and one dialog name the file and the node
    window.state.select(name)
    qtbot.waitUntil(lambda: len(own()) == 1, timeout=10_000)
    said = own()[0]
    assert "\n" not in said and path in said and f"node '{name}'" in said
    assert "not a valid NodeDef" in said
    assert any(b.text() == said for b in _boxes(qtbot))
    for box in _boxes(qtbot):
        box.close()
    # its scope expanded: laid out (its edge has no label), no second dialog
    drawn = window.scenes_drawn
    window.state.set_expanded(name.rpartition("/")[0].rpartition("/")[0], True)
    qtbot.waitUntil(lambda: window.scenes_drawn > drawn and not window.tasks.is_busy(),
                    timeout=30_000)
    # searched: its name is found (the other nodes' attributes too), told once already
    searches = window.search.searches
    window.search_panel.box.setText(name)
    qtbot.waitUntil(lambda: window.search.searches > searches, timeout=60_000)
    assert name in window.search_panel.matches
    window.search_panel.box.setText("padding=same")
    qtbot.waitUntil(lambda: window.search.searches > searches + 1, timeout=60_000)
    assert len(window.search_panel.matches) > 1000
    assert own() == [said]
    # the window goes on: another node shows
    other = graph.name_list[3]
    window.state.select(other)
    qtbot.waitUntil(lambda: window.properties.shown == other, timeout=10_000)
    assert window.state.model.path == path
