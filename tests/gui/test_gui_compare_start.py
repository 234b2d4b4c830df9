"""The comparison window's first view of a wide graph (wider than the canvas at a readable
scale) shows its inputs, where the data flows from: v1_training against its text copy showed
both canvases blank (the empty middle height of the whole graph), then only the two control
NoOps at its left end (train, init), with no Placeholder in view."""

import os
import shutil

from PySide6.QtCore import QRectF
from test_gui_compare import compare_paths

from inspector.gui.canvas.items import NodeItem

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
V1 = os.path.join(ROOT, "tests", "core", "data", "v1_training.pb")


def _boxes_in_view(canvas) -> list:
    """The boxes wholly in view."""
    seen = canvas.mapToScene(canvas.viewport().rect()).boundingRect()
    return [i.item for i in canvas.scene().items(seen)
            if isinstance(i, NodeItem) and i.item.kind != "frame" and
            seen.contains(QRectF(i.item.x, i.item.y, i.item.w, i.item.h))]


def test_the_first_view_of_a_wide_pair_shows_its_inputs_on_both_sides(qtbot, window, tmp_path):
    a, b = tmp_path / "v1_training.pb", tmp_path / "v1_copy.pb"
    shutil.copy(V1, a)
    shutil.copy(V1, b)
    window.resize(1366, 768)
    win = compare_paths(qtbot, window, str(a), str(b), size=(1366, 768))
    qtbot.wait(50)
    for side, canvas in win.canvases.items():
        rect = canvas._laid_rect()
        assert rect.width() * canvas.zoom_level() > canvas.viewport().width(), side  # wide
        boxes = _boxes_in_view(canvas)
        assert len(boxes) >= 2, side
        graph = win.session.graphs[side]
        assert any(b.kind == "node" and graph.node(b.id).op == "Placeholder"
                   for b in boxes), (side, [b.id for b in boxes])


def test_changed_only_starts_at_the_changes(qtbot, window, tmp_path):
    """v1_training against itself without its Identity nodes, Changed only ticked: the scopes
    on the paths to the changes open and the view went to the graph's inputs, where the
    Placeholder sat alone, far from its readers and from anything that changed (seen under
    Xvfb at 1366x768). It starts at the first changes now, on both sides."""
    from PySide6.QtCore import QPoint, Qt

    from inspector.core.formats.writer import write_graph
    from inspector.core.loaders import load
    from inspector.core.transforms import run_pipeline

    a, b = tmp_path / "v1_training.pb", tmp_path / "v1_no_identity.pb"
    shutil.copy(V1, a)
    write_graph(run_pipeline(load(str(a)).graph.graph_def,
                             "remove_nodes(op=Identity)")[-1].graph_def, str(b))
    window.resize(1366, 768)
    win = compare_paths(qtbot, window, str(a), str(b), size=(1366, 740))
    win.show()
    qtbot.waitUntil(win.ready, timeout=60000)
    assert win.only.isChecked()                    # the window opens with Changed only on
    _changes_in_view(qtbot, win)
    for _ in range(2):                             # off (every scope closed), on again
        qtbot.mouseClick(win.only, Qt.LeftButton, pos=QPoint(6, win.only.height() // 2))
        qtbot.waitUntil(win.ready, timeout=60000)
    assert win.only.isChecked()
    _changes_in_view(qtbot, win)


def _changes_in_view(qtbot, win):
    qtbot.wait(50)
    for side, canvas in win.canvases.items():
        marked = set(win._drawn[side][1][0])       # the drawn items coloured as changed
        boxes = _boxes_in_view(canvas)
        assert marked & {b.id for b in boxes}, (side, [b.id for b in boxes])
