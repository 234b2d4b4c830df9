"""Sizes panel driven as a user: the treemap of the open model, a click on a tile goes to
its scope or node, other groupings, constants stored twice, before and after a step."""

import os

import pytest
from PySide6.QtCore import QPoint, Qt
from test_gui import open_and_wait

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _click(qtbot, view, tile):
    qtbot.mouseClick(view, Qt.LeftButton,
                     pos=QPoint(int(tile.x + tile.w / 2), int(tile.y + tile.h / 2)))


def test_treemap_click_goes_to_the_scope_and_node(qtbot, window, model):
    open_and_wait(qtbot, window, model)
    window.show_panel(window.sizes_dock)   # its task (Optimize)
    panel = window.sizes_panel
    qtbot.waitUntil(lambda: window.sizes.shown > 0 and bool(panel.before.tiles),
                    timeout=30000)
    view = panel.before
    size = os.path.getsize(model)
    top = [t for t in view.tiles if t.depth == 0]
    assert sum(t.weight for t in top) == pytest.approx(size, abs=16)
    biggest = max(top, key=lambda t: t.weight)
    assert biggest.id == "softmax/"           # the classifier's weights dominate this file
    qtbot.mouseClick(view, Qt.LeftButton,         # its header band: the scope itself
                     pos=QPoint(int(biggest.x + 6), int(biggest.y + 8)))
    assert window.state.selected == "softmax/"
    leaf = next(t for t in view.tiles if t.leaf and t.id in window.state.view.graph and
                t.w > 20 and t.h > 20)
    _click(qtbot, view, leaf)
    assert window.state.selected == leaf.id
    panel.by.setCurrentIndex(1)               # by op type
    qtbot.waitUntil(lambda: panel.before.by == "op", timeout=30000)
    const = next(t for t in panel.before.tiles if t.id == "Const")
    _click(qtbot, panel.before, const)
    assert window.state.model.graph.node(window.state.selected).op == "Const"


def test_duplicates_and_before_after_a_step(qtbot, window, fx, tmp_path):
    import shutil

    path = tmp_path / "mobilenet_v2.pb"
    shutil.copy(os.path.join(fx, "mobilenet_v2.pb"), path)
    open_and_wait(qtbot, window, str(path))
    assert window.sizes.shown == 0          # nothing computed for a panel out of sight
    window.show_panel(window.sizes_dock)   # its task (Optimize)
    panel = window.sizes_panel
    qtbot.waitUntil(lambda: window.sizes.shown > 0, timeout=30000)
    qtbot.mouseClick(panel.find_duplicates, Qt.LeftButton)
    qtbot.waitUntil(lambda: "duplicated" in panel.duplicates.text(), timeout=60000)
    assert "could be shared" in panel.duplicates.text()
    window.workbench.set_marks(["input"], ["Identity"])
    window.workbench.set_text("quantize_weights")
    qtbot.waitUntil(lambda: len(window.state.rows) == 2 and not window.tasks.is_busy(),
                    timeout=120000)
    shown = window.sizes.shown
    window.preview_panel.table.selectRow(1)
    qtbot.waitUntil(lambda: window.sizes.shown > shown and panel.after.isVisible(),
                    timeout=60000)
    assert panel.after.root.bytes < panel.before.root.bytes / 3
    assert "After the step" in panel.totals.text()
