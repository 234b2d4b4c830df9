"""A constant's statistics in sight at 1366x768 (walk16): MobileNet v2's first weights, found
with Search as a user finds them, listed their min, max, mean, std and zeros below the node's
inputs, outputs, consumers and attributes, under the fold of the Properties panel in the
window the app opens on a 1366x768 screen (1297x729). They come right under the op now."""

import os
import shutil

import pytest
from PySide6.QtCore import QRect, Qt
from test_gui import open_and_wait, wait_drawn

from inspector.gui.main_window import fitting_size

WEIGHTS = "mobilenetv2_1.00_224_1/Conv1_1/convolution/ReadVariableOp/resource"


@pytest.mark.parametrize("size", [fitting_size(QRect(0, 0, 1366, 768)), (1366, 768)])
def test_a_constants_statistics_show_without_scrolling_at_1366x768(qtbot, window, fx,
                                                                     tmp_path, size):
    path = tmp_path / "mobilenet_v2.pb"
    shutil.copy(os.path.join(fx, "mobilenet_v2.pb"), path)
    window.resize(*size)
    open_and_wait(qtbot, window, str(path))
    window.canvas.setFocus()
    qtbot.keyClick(window.canvas, Qt.Key_F, Qt.ControlModifier)        # Search
    qtbot.waitUntil(lambda: window.search_panel.box.isVisible(), timeout=5000)
    qtbot.keyClicks(window.search_panel.box, "Conv1_1/convolution/ReadVariableOp/resource")
    qtbot.waitUntil(lambda: WEIGHTS in window.search_panel.matches, timeout=10000)
    before = window.scenes_drawn
    window.search_panel.results.setCurrentRow(window.search_panel.matches.index(WEIGHTS))
    wait_drawn(qtbot, window, before)
    qtbot.waitUntil(lambda: window.state.selected == WEIGHTS, timeout=5000)
    window.properties_dock.raise_()                     # Properties, beside Search
    panel = window.properties
    qtbot.waitUntil(lambda: panel.tensor is not None, timeout=10000)
    qtbot.waitUntil(lambda: "TensorFlow says" in panel.meaning.text(), timeout=10000)
    qtbot.wait(200)                                    # its taller description laid out
    tree = panel.tree
    assert panel.isVisible() and tree.isVisible()
    tensor = next(tree.topLevelItem(k) for k in range(tree.topLevelItemCount())
                  if tree.topLevelItem(k).text(0) == "tensor")
    stats = {tensor.child(k).text(0): tensor.child(k) for k in range(tensor.childCount())}
    assert {"min", "max", "mean", "std", "zeros"} <= set(stats)
    bottom = tree.viewport().height()
    for key in ("min", "max", "mean", "std", "zeros"):      # each row whole in sight
        rect = tree.visualItemRect(stats[key])
        assert rect.isValid() and rect.top() >= 0 and rect.bottom() < bottom, \
            (key, rect, bottom)
    assert tree.verticalScrollBar().value() == 0
    assert panel.plot.isVisible()                        # the histogram below, as before
    if os.environ.get("SHOT"):
        window.grab().save(os.environ["SHOT"])
