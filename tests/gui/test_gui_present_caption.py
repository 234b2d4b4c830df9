"""Presenting MobileNet v2's auto-tour at 1366x768: the spotlit block's plain-words line was
cut mid-word ('processing step x35: c…', seen under Xvfb). It shows a whole form of it."""

import os
import shutil

from PySide6.QtCore import Qt
from test_gui import open_and_wait
from test_gui_present import _settle

from inspector.gui.canvas.text_fit import caption_forms


def test_the_spotlit_blocks_caption_is_whole_while_presenting(qtbot, window, fx, tmp_path):
    path = tmp_path / "mobilenet_v2.pb"
    shutil.copy(os.path.join(fx, "mobilenet_v2.pb"), path)
    window.resize(1366, 768)
    open_and_wait(qtbot, window, str(path))
    qtbot.mouseClick(window.tour_panel.auto_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: len(window.tour.tour.stops) > 5 and not window.tasks.is_busy(),
                    timeout=120_000)
    tour = window.tour
    tour.reduce_motion = True
    tour.present()
    qtbot.wait(100)
    seen = []
    for k in range(1, 6):                        # the first blocks, one PageDown each
        qtbot.keyClick(window.canvas.viewport(), Qt.Key_PageDown)
        _settle(window, qtbot)
        window.canvas.viewport().grab()
        for item_id in tour.tour.stops[tour.current].focus:
            node = window.canvas.items_by_id.get(item_id)
            if node is None or node.item.kind != "scope" or not node.item.caption:
                continue
            line = [t for _, t in node.drawn][1]     # the name, then the plain words
            seen.append(line)
            assert line in caption_forms(node.item.caption), (line, node.item.caption)
    if os.environ.get("SHOT"):
        window.grab().save(os.environ["SHOT"])
    tour.leave()
    assert "processing step: clipping" in seen, seen       # Conv1_relu's: was cut
