"""The comparison window's first view of a wide graph (laid out left to right, wider than
the canvas at a readable scale) shows the boxes at its left end, not the empty middle
height of the whole graph (v1_training against its text copy: both canvases were blank)."""

import os
import shutil

from test_gui_compare import compare_paths

from inspector.gui.canvas.items import NodeItem

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
V1 = os.path.join(ROOT, "tests", "core", "data", "v1_training.pb")


def _boxes_in_view(canvas) -> int:
    seen = canvas.mapToScene(canvas.viewport().rect()).boundingRect()
    return sum(isinstance(i, NodeItem) and i.item.kind != "frame"
               for i in canvas.scene().items(seen))


def test_the_first_view_of_a_wide_pair_shows_boxes_on_both_sides(qtbot, window, tmp_path):
    a, b = tmp_path / "v1_training.pb", tmp_path / "v1_copy.pb"
    shutil.copy(V1, a)
    shutil.copy(V1, b)
    window.resize(1366, 768)
    win = compare_paths(qtbot, window, str(a), str(b), size=(1366, 768))
    qtbot.wait(50)
    for side, canvas in win.canvases.items():
        rect = canvas._laid_rect()
        assert rect.width() * canvas.zoom_level() > canvas.viewport().width(), side  # wide
        assert _boxes_in_view(canvas) >= 2, side
