"""The normal canvas after a demo run, MobileNet v2 at 1366x768: a block's plain-words line
was cut ('feature extractor …' on Conv1_1, whose repeat tag narrows the line; seen under
Xvfb). Every block in view shows a whole form of its caption."""

import os
import shutil

from test_gui import drop_files, open_and_wait
from test_gui_demo import _photo, _wait_run

from inspector.gui.canvas.text_fit import caption_forms


def test_block_captions_are_whole_on_the_normal_canvas(qtbot, window, fx, tmp_path):
    path = tmp_path / "mobilenet_v2.pb"
    shutil.copy(os.path.join(fx, "mobilenet_v2.pb"), path)
    window.resize(1366, 768)
    open_and_wait(qtbot, window, str(path))
    assert drop_files(window.canvas.viewport(), [_photo(str(tmp_path / "photo.jpg"))])
    _wait_run(qtbot, window, 0)
    canvas = window.canvas
    conv = next(n for i, n in canvas.items_by_id.items() if i.endswith("/Conv1_1/"))
    canvas.centerOn(conv)
    qtbot.wait(50)
    canvas.viewport().grab()
    seen = {}
    for item_id, node in canvas.items_by_id.items():
        if node.item.kind != "scope" or not node.item.caption or not node.plain or \
                not getattr(node, "drawn", None):
            continue
        line = [t for _, t in node.drawn][1]      # the name, then the plain words
        seen[item_id] = line
        assert line in caption_forms(node.item.caption) and "…" not in line, \
            (item_id, line, node.item.caption)
    assert seen.get(conv.item.id) == "feature extractor", seen
    if os.environ.get("SHOT"):
        window.grab().save(os.environ["SHOT"])
