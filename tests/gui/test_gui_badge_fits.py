"""A badge above a box is drawn whole: the Quantization tab's per-layer error overlay put
the SNR by the marked output beside its OUT tag, in what was left of the box's width, and
it read "9…" (issue 45, item 18)."""

import os

import pytest
from PySide6.QtCore import Qt
from test_gui import open_and_wait
from test_gui_quant import demo  # noqa: F401  (the fixture)

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def test_the_snr_badge_by_the_marked_output_is_drawn_whole(qtbot, window, demo):  # noqa: F811
    open_and_wait(qtbot, window, demo)
    window.workbench.set_marks(["pixels"], ["output"])
    mobile, panel = window.mobile_panel, window.quant_panel
    window.show_panel(window.mobile_dock, mobile.tabs.indexOf(panel))
    mobile.samples.setValue(8)
    mobile.compare.setValue(4)
    for name, box in panel.boxes.items():
        box.setChecked(name == "int8")
    qtbot.mouseClick(panel.run_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: panel.table.rowCount() == 1 and not window.tasks.is_busy(),
                    timeout=120000)
    assert window.state.overlay.mode == "quant_error"
    canvas = window.canvas
    node = canvas.items_by_id[window.state.visible_id("output")]
    qtbot.waitUntil(lambda: bool(node.badge) and node.tag == "OUT", timeout=10000)
    assert node.badge.endswith("dB") or node.badge == "exact", node.badge
    canvas.center_on_item(window.state.visible_id("output"))
    canvas.viewport().grab()
    drawn = [t for _, t in node.drawn]
    assert node.badge in drawn, (node.badge, drawn)             # was "9…"
    at = node.drawn_at[drawn.index(node.badge)]
    assert node.boundingRect().contains(at), (at, node.boundingRect())      # not clipped
    tag = node.drawn_at[drawn.index("OUT")]
    assert not at.intersects(tag), (at, tag)                    # beside the tag, not on it
    assert node.badge in node.toolTip()
    if os.environ.get("INSPECTOR_SHOTS"):
        window.grab().save(os.path.join(os.environ["INSPECTOR_SHOTS"], "quant_out_badge.png"))
