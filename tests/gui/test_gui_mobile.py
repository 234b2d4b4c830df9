"""Phone (TFLite) panel driven as a user: check compatibility (colours, scope bars, a list
that jumps to nodes), confirm with the converter, convert four variants, save one."""

import os

import pytest
from conftest import DEMO
from PySide6.QtCore import Qt
from test_gui import open_and_wait, wait_drawn

from inspector.core.mobile.tflite_compat import COLOURS
from tests.fixtures import tflite_graphs

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def demo(tmp_path):
    """A private copy (the session file with the marks is written beside the model)."""
    import shutil

    path = tmp_path / "demo_digits.pb"
    shutil.copy(DEMO, path)
    return str(path)


@pytest.fixture
def odd_model(tmp_path):
    graph_def, _, _ = tflite_graphs.beyond_builtins()
    path = tmp_path / "odd.pb"
    path.write_bytes(graph_def.SerializeToString())
    return str(path)


def test_check_colours_the_graph_and_the_list_jumps(qtbot, window, odd_model):
    open_and_wait(qtbot, window, odd_model)
    window.workbench.set_marks(["x"], ["out"])
    panel = window.mobile_panel
    qtbot.mouseClick(panel.check_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: panel.problems.topLevelItemCount() == 3, timeout=30000)
    assert window.state.overlay.mode == "compat"
    assert window.overlays_panel.mode_buttons["compat"].isChecked()
    assert window.mobile_dock.isVisible()
    names = [panel.problems.topLevelItem(k).text(1) for k in range(3)]
    assert names[0] == "erfinv/Erfinv" and set(names[1:]) == {"det", "cp"}   # worst first
    assert "needs Select TF ops: <b>2</b>" in panel.legend.text()
    items = window.canvas.items_by_id
    assert items["det"].heat == COLOURS["flex"] and items["det"].badge == "Select TF"
    assert items["erfinv/"].bar and items["erfinv/"].bar[0][0] == COLOURS["custom"]
    # a click on a row selects that node on the canvas
    rect = panel.problems.visualItemRect(panel.problems.topLevelItem(1))
    qtbot.mouseClick(panel.problems.viewport(), Qt.LeftButton, pos=rect.center())
    assert window.state.selected == names[1]
    # the converter confirms: 100 % of its located errors land on these nodes
    qtbot.mouseClick(panel.confirm_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: "located errors" in panel.verdict.text(), timeout=120000)
    assert "3 of 3 located errors placed on nodes" in panel.verdict.text()
    assert "agrees with the tables on every node" in panel.verdict.text()
    verdicts = {panel.problems.topLevelItem(k).text(1): panel.problems.topLevelItem(k).text(4)
                for k in range(3)}
    assert verdicts == {"erfinv/Erfinv": "needs a custom op", "det": "needs Select TF ops",
                        "cp": "needs Select TF ops"}
    assert window.canvas.items_by_id["det"].badge == "Select TF ✓"
    window.state.select("cp")      # Properties tells the status and the converter's words
    tree = window.properties.tree
    rows = {tree.topLevelItem(k).text(0): tree.topLevelItem(k)
            for k in range(tree.topLevelItemCount())}
    assert rows["TFLite"].text(1) == "needs Select TF ops"
    assert "ERROR_NEEDS_FLEX_OPS" in rows["TFLite"].child(0).text(1)
    # switching the overlay off removes the colours
    qtbot.mouseClick(window.overlays_panel.mode_buttons["none"], Qt.LeftButton)
    assert window.canvas.items_by_id["det"].heat is None


def test_confirm_before_any_check_checks_first(qtbot, window, odd_model):
    open_and_wait(qtbot, window, odd_model)
    window.workbench.set_marks(["x"], ["out"])
    window.mobile.confirm(False)              # Phone > Confirm with the converter, at once
    qtbot.waitUntil(lambda: "located errors" in window.mobile_panel.verdict.text(),
                    timeout=120000)
    assert window.mobile_panel.problems.topLevelItemCount() == 3


def test_choosing_the_tflite_overlay_runs_the_check(qtbot, window, demo):
    open_and_wait(qtbot, window, demo)
    window.overlays_panel.mode_buttons["compat"].click()
    qtbot.waitUntil(lambda: bool(window.state.overlay.compat), timeout=30000)
    window.state.expand_all()
    wait_drawn(qtbot, window, window.scenes_drawn)
    heats = {i.heat for i in window.canvas.items_by_id.values() if i.item.kind == "node"}
    assert COLOURS["builtin"] in heats and COLOURS["removed"] in heats


def test_convert_four_variants_and_save_one(qtbot, window, tmp_path, demo):
    open_and_wait(qtbot, window, demo)
    window.workbench.set_marks(["pixels"], ["output"])
    panel = window.mobile_panel
    window.show_panel(window.mobile_dock, 1)       # the Phone task, Conversion preview
    panel.samples.setValue(12)
    panel.compare.setValue(6)
    qtbot.mouseClick(panel.convert_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: panel.table.rowCount() == 4 and not window.tasks.is_busy(),
                    timeout=180000)
    cell = lambda r, c: panel.table.item(r, c).text()   # noqa: E731
    assert [cell(r, 0) for r in range(4)] == ["float", "dynamic", "float16", "int8"]
    assert "RANDOM DATA" in panel.warning.text() and "only 12" in panel.warning.text()
    assert panel.warning.isVisible()
    assert cell(3, 8) == "int8 → int8" and cell(0, 8) == "float32 → float32"
    assert cell(0, 4).endswith("of 6") and cell(0, 10) == "none"
    assert cell(0, 11) == "compatible"       # TF's analyzer on the GPU delegate
    assert {cell(r, 1) for r in range(4)} == {"TF's converter"}     # the tool, named
    sizes = {r.variant: r.size for r in window.state.tflite_preview.variants}
    assert sizes["dynamic"] < sizes["float16"] < sizes["float"]
    # save the selected variant; an existing file is never overwritten silently
    panel.table.selectRow(3)
    details = panel.details.toPlainText()
    assert panel.save_button.isEnabled() and "ops:" in details
    assert "in  pixels: int8 [1, 8, 8, 1]  s=0.00392" in details and "zp=-128" in details
    conv = next(n.name for n in window.state.model.graph if n.op == "Conv2D")
    window.state.select(conv)        # Properties: the TFLite op each variant merged it into
    props = window.properties.tree
    row = next(props.topLevelItem(k) for k in range(props.topLevelItemCount())
               if props.topLevelItem(k).text(0) == "TFLite")
    lines = {row.child(c).text(0): row.child(c).text(1) for c in range(row.childCount())}
    assert lines["float"].startswith("CONV_2D #") and "merged with 2 other" in lines["float"]
    assert "int8 error up to" in lines["int8"]
    tree = panel.mapping
    assert tree.topLevelItemCount() == 6
    errors = [float(tree.topLevelItem(k).text(3)) for k in range(6)]
    assert errors == sorted(errors, reverse=True) and errors[0] > 0     # worst first
    top = tree.topLevelItem(0)
    assert top.text(1) in ("CONV_2D", "FULLY_CONNECTED") and "channels" in top.text(5)
    qtbot.mouseClick(tree.viewport(), Qt.LeftButton, pos=tree.visualItemRect(top).center())
    assert window.state.selected == top.text(2).split(", ")[0]
    log = tmp_path / "phone.txt"
    log.write_text("Inference timings in us: Init: 900, First inference: 800, Warmup (avg): "
                   "700, Inference (avg): 612.5\n")
    assert window.mobile.load_measured("int8", str(log)) == pytest.approx(0.6125)
    assert cell(3, 7) == "0.61 ms measured" and cell(0, 7).endswith("s est.")
    assert "measured: 0.61 ms (phone.txt)" in panel.details.toPlainText()
    panel.open_button.click()            # the int8 variant in a window of its own
    other = window._beside[-1]
    qtbot.waitUntil(lambda: other.state.model is not None and other.scenes_drawn > 0,
                    timeout=30000)
    assert other.state.model.kind == "tflite"
    assert {n.op for n in other.state.model.graph} >= {"CONV_2D", "FULLY_CONNECTED"}
    other.mobile.check()                 # a .tflite is not converted again
    assert "already a TensorFlow Lite model" in other.last_error
    other.close()
    target = tmp_path / "digits_int8.tflite"
    assert window.mobile.save("int8", str(target)) == str(target)
    assert target.read_bytes()[4:8] == b"TFL3"
    before = target.read_bytes()
    assert window.mobile.save("float", str(target)) is None
    assert target.read_bytes() == before and "exists" in window.last_error


def test_ops_header_from_the_panel(qtbot, window, tmp_path, demo):
    open_and_wait(qtbot, window, demo)
    target = tmp_path / "ops_to_register.h"
    window.mobile.write_header(str(target))      # written in the task, then shown
    qtbot.waitUntil(lambda: window.state.ops_header is not None, timeout=60000)
    text = target.read_text()
    assert "SHOULD_REGISTER_OP" in text and '"Conv2D"' in text
    assert "Conv2D" in window.mobile_panel.header_text.toPlainText()
    assert "kernel classes" in window.mobile_panel.header_info.text()
    window.last_error = ""
    window.mobile.write_header(str(target))      # there already: one line naming the file
    qtbot.waitUntil(lambda: bool(window.last_error), timeout=30000)
    assert window.last_error == f"{target}: output file exists (use --force to overwrite)"


def test_conversion_in_the_worker_and_cancel_leaves_no_orphan(fx, tmp_path):
    """The app as users start it: conversion runs in the TensorFlow worker, and Cancel in
    the middle of the next one leaves no process behind (a fresh process: it owns a worker)."""
    import json
    import shutil
    import subprocess
    import sys

    model = tmp_path / "mobilenet_v2.pb"
    shutil.copy(os.path.join(fx, "mobilenet_v2.pb"), model)
    from conftest import ROOT as root

    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    proc = subprocess.run([sys.executable, os.path.join(root, "tests", "gui",
                                                        "app_mobile_worker.py"),
                           str(model), str(tmp_path / "settings.ini")], cwd=root, env=env,
                          capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr[-3000:]
    seen = json.loads(proc.stdout.strip().splitlines()[-1])
    assert seen["engine"] == "RemotePreview" and seen["tensorflow_here"] == []
    assert seen["variants"] == ["float", "dynamic", "float16", "int8"]
    assert seen["sizes"][1] < seen["sizes"][2] < seen["sizes"][0]
    assert seen["int8_input"] == "int8" and seen["compared"] == [2, 2, 2, 2]
    assert seen["cancel_seconds"] < 20.0        # functional bound, not a speed figure
    assert seen["cancel_status"].startswith("Cancelled")
    assert seen["orphans"] == [] and seen["left_after"] == []
    assert seen["table_kept"] == 4              # the earlier results stay on screen


def test_memory_mapped_package_from_the_phone_menu_and_opened_again(qtbot, window, tmp_path,
                                                                    demo):
    open_and_wait(qtbot, window, demo)
    target = tmp_path / "digits.mmap"
    window.mobile.save_memmapped(str(target))
    qtbot.waitUntil(lambda: os.path.exists(target) and not window.tasks.is_busy(),
                    timeout=30000)
    assert "2 constant regions" in window.status_label.text()
    before = window.scenes_drawn
    window.open_path(str(target))
    wait_drawn(qtbot, window, before)
    model = window.state.model
    assert model.kind == "memmapped" and any("mapped on the phone" in n for n in model.notes)
    mapped = [n for n in model.graph if n.has_attr("memory_region")]
    assert len(mapped) == 2


def test_representative_photos_chosen_in_the_panel(qtbot, window, tmp_path, demo):
    import numpy as np
    from PIL import Image

    folder = tmp_path / "digits"
    folder.mkdir()
    rng = np.random.default_rng(2)
    for k in range(4):
        Image.fromarray(rng.integers(0, 255, (24, 24), dtype=np.uint8)).save(folder / f"{k}.png")
    open_and_wait(qtbot, window, demo)
    window.workbench.set_marks(["pixels"], ["output"])
    panel = window.mobile_panel
    panel.source.setCurrentIndex(1)
    window.mobile.choose_source("folder", [str(folder)])
    assert panel.source.currentText() == f"photos in {folder}"
    qtbot.mouseClick(panel.convert_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: panel.table.rowCount() == 4 and not window.tasks.is_busy(),
                    timeout=180000)
    assert "4 photos from digits through the detected preprocessing" in panel.about.toolTip()
    assert "RANDOM" not in panel.warning.text() and "only 4" in panel.warning.text()


def test_a_stop_taken_with_the_tflite_overlay_restores_the_whole_session(qtbot, window,
                                                                           odd_model):
    """The bug of issue 34: a stop with the "compat" overlay made the whole session file
    refused on the next open, marks, pipeline and tour with it."""
    open_and_wait(qtbot, window, odd_model)
    window.workbench.set_marks(["x"], ["out"])
    window.workbench.add_step("strip_unused_nodes")
    qtbot.mouseClick(window.mobile_panel.check_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: bool(window.state.overlay.compat), timeout=30000)
    assert window.state.overlay.mode == "compat"
    qtbot.mouseClick(window.tour_panel.add_button, Qt.LeftButton)
    assert window.tour.tour.stops[0].overlay == "compat"
    session = odd_model + ".inspector.json"
    qtbot.waitUntil(lambda: os.path.exists(session) and '"compat"' in open(session).read(),
                    timeout=5000)
    window.last_error = ""
    open_and_wait(qtbot, window, odd_model)
    assert window.last_error == ""
    assert window.workbench.inputs == ["x"] and window.workbench.outputs == ["out"]
    assert [s.name for s in window.workbench.steps] == ["strip_unused_nodes"]
    assert [s.overlay for s in window.tour.tour.stops] == ["compat"]


def _int8_variant_compared(qtbot, window, demo):
    """(the compare controller, its window): the demo converted in the Phone panel's
    Conversion preview (4 samples, 2 compared), its int8 variant compared with the
    GraphDef by the panel's Compare button."""
    open_and_wait(qtbot, window, demo)
    window.workbench.set_marks(["pixels"], ["output"])
    panel = window.mobile_panel
    window.show_panel(window.mobile_dock, 1)
    panel.samples.setValue(4)
    panel.compare.setValue(2)
    qtbot.mouseClick(panel.convert_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: panel.table.rowCount() == 4 and not window.tasks.is_busy(),
                    timeout=180000)
    panel.table.selectRow(3)                               # int8
    assert panel.diff_button.isEnabled()
    qtbot.mouseClick(panel.diff_button, Qt.LeftButton)
    ctl = window.compare_ctl
    qtbot.waitUntil(lambda: bool(ctl.windows), timeout=60000)
    win = ctl.windows[-1]
    qtbot.addWidget(win)
    return ctl, win


def test_a_variant_compares_with_the_graphdef_it_came_from(qtbot, window, demo):
    _, win = _int8_variant_compared(qtbot, window, demo)
    s = win.session
    ops = [n.name for n in s.graphs["B"] if "tflite_index" in n.proto.attr and
           n.op not in ("QUANTIZE", "DEQUANTIZE")]
    assert ops and all(s.counterparts("B", b) for b in ops)     # every TFLite op mapped
    assert s.diff.matching.quality(len(s.graphs["A"]))["shares"]["provenance"] > 0


def test_after_a_conversion_the_four_variants_show_without_scrolling_at_1366x768(
        qtbot, window, demo):
    """With random data (a warning) and the note on how each figure is made, the Phone
    panel scrolled and its table showed one variant of four at 1366x768: the note is a few
    words beside the button now (all of it in their tooltip), the warnings one line where
    they fit, and the table shows every variant."""
    window.resize(1366, 768)
    open_and_wait(qtbot, window, demo)
    window.workbench.set_marks(["pixels"], ["output"])
    panel = window.mobile_panel
    qtbot.keyClick(window, Qt.Key_3, Qt.ControlModifier)       # View > Task > Phone
    qtbot.mouseClick(panel.tabs.tabBar(), Qt.LeftButton,
                     pos=panel.tabs.tabBar().tabRect(1).center())   # Conversion preview
    panel.samples.setValue(4)
    panel.compare.setValue(2)
    qtbot.mouseClick(panel.convert_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: panel.table.rowCount() == 4 and not window.tasks.is_busy(),
                    timeout=180000)
    qtbot.wait(60)
    assert panel.warning.isVisible() and "RANDOM DATA" in panel.warning.text()
    assert "Representative data" in panel.about.toolTip() and \
        "QuantizationDebugger" in panel.about.toolTip()
    area = window.mobile_dock.widget()
    assert area.verticalScrollBar().maximum() == 0
    assert area.horizontalScrollBar().maximum() == 0
    table = panel.table
    shown = table.visibleRegion().boundingRect()
    last = table.visualItemRect(table.item(3, 0))
    assert last.bottom() <= table.viewport().height() and \
        table.viewport().visibleRegion().boundingRect().contains(last), (shown, last)


def test_the_why_column_shows_its_sentences_from_their_start_at_1366x768(qtbot, window,
                                                                          odd_model):
    """Regression: the list cut every column at its left (set for node names), so the Why
    column read "…ith Select TF ops (the TF kernel runs on the phone)" and the status
    "…nvertible (custom op)", beside an empty Converter column of 514 px. Now the node names
    alone are cut at their start, the Why column takes the room left, and each cell's whole
    text is its tooltip."""
    from PySide6.QtWidgets import QStyleOptionViewItem

    window.resize(1366, 768)
    open_and_wait(qtbot, window, odd_model)
    window.workbench.set_marks(["x"], ["out"])
    panel = window.mobile_panel
    qtbot.mouseClick(panel.check_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: panel.problems.topLevelItemCount() == 3, timeout=30000)
    listed, metrics = panel.problems, panel.problems.fontMetrics()
    for k in range(3):
        item = listed.topLevelItem(k)
        for column in (0, 3):       # status and why, whole
            assert metrics.horizontalAdvance(item.text(column)) + 8 <= \
                listed.columnWidth(column), (item.text(column), listed.columnWidth(column))
        assert item.text(3) in item.toolTip(3)
    for column, mode in ((0, Qt.ElideRight), (1, Qt.ElideLeft), (3, Qt.ElideRight)):
        option = QStyleOptionViewItem()
        option.textElideMode = listed.textElideMode()       # what the view hands over
        index = listed.indexFromItem(listed.topLevelItem(1), column)
        listed.itemDelegateForIndex(index).initStyleOption(option, index)
        assert option.textElideMode == mode, column


def test_an_any_size_inputs_size_is_given_in_the_panel_and_the_conversion_runs_at_it(
        qtbot, window, tmp_path):
    """Regression: the window converted an input declared [1,?,?,3] at [1,1,1,3] with no way
    to give its size (the CLI has tflite --input-shape). The Conversion preview's Input sizes
    field takes the same NAME=D,D,... (inputs.set_input_sizes, parse_sizes: the CLI's
    rules), hints the open input, converts at it on Enter and keeps it in the session; a
    size that does not fit the declared shape is one line, and nothing runs."""
    open_and_wait(qtbot, window, _any_size_model(tmp_path))
    qtbot.waitUntil(lambda: window.state.summary is not None and not window.tasks.is_busy(),
                    timeout=30000)
    panel = window.mobile_panel
    window.show_panel(window.mobile_dock, 1)       # the Phone task, Conversion preview
    assert panel.sizes.placeholderText() == "image=1,?,?,3"
    panel.samples.setValue(4)
    panel.compare.setValue(2)
    errors = []
    window.state.error.connect(errors.append)
    panel.sizes.setText("image=1,32,3")
    qtbot.keyClick(panel.sizes, Qt.Key_Return)
    assert errors and "does not fit its declared shape [1,?,?,3]" in errors[-1]
    assert window.state.workbench.input_shapes == {} and not window.tasks.is_busy()
    panel.sizes.setText("image=1,32,48,3")
    qtbot.keyClick(panel.sizes, Qt.Key_Return)
    qtbot.waitUntil(lambda: panel.table.rowCount() == 4 and not window.tasks.is_busy(),
                    timeout=180000)
    assert window.state.workbench.input_shapes == {"image": [1, 32, 48, 3]}
    for row in window.state.tflite_preview.variants:
        assert row.inputs[0]["shape"] == [1, 32, 48, 3], row.variant
    assert window.state.workbench.to_dict()["input_shapes"] == {"image": [1, 32, 48, 3]}



def test_a_huge_typed_input_size_is_one_line_before_anything_is_allocated(qtbot, window,
                                                                          tmp_path):
    """Regression: image=1,100000,100000,3 typed in Input sizes made 100 random samples at
    once, as float64 first, and the dialog read numpy's "Unable to allocate 224. GiB for an
    array with shape (1, 100000, 100000, 3) and data type float64". The samples are sized
    first (runtime/feed_budget): one line naming the input, what they need and the limit."""
    open_and_wait(qtbot, window, _any_size_model(tmp_path))
    qtbot.waitUntil(lambda: window.state.summary is not None and not window.tasks.is_busy(),
                    timeout=30000)
    panel = window.mobile_panel
    window.show_panel(window.mobile_dock, 1)
    errors = []
    window.state.error.connect(errors.append)
    panel.sizes.setText("image=1,100000,100000,3")
    qtbot.keyClick(panel.sizes, Qt.Key_Return)
    qtbot.waitUntil(lambda: bool(errors) and not window.tasks.is_busy(), timeout=120000)
    assert "node 'image': input sized [1,100000,100000,3] (float32): 100 samples need " \
           "10.9 TB (111.8 GB each), past the" in errors[-1], errors
    assert "give a smaller size or fewer samples" in errors[-1]
    assert "\n" not in errors[-1] and "allocate" not in errors[-1]
    assert panel.table.rowCount() == 0


def _any_size_model(tmp_path) -> str:
    """image [1,?,?,3] -> Conv2D -> Relu: an all-convolutional model, any image size."""
    import numpy as np
    import tensorflow as tf

    graph = tf.Graph()
    with graph.as_default():
        image = tf.compat.v1.placeholder(tf.float32, [1, None, None, 3], name="image")
        weights = tf.constant(np.ones((3, 3, 3, 4), np.float32), name="w")
        tf.nn.relu(tf.nn.conv2d(image, weights, 1, "SAME", name="conv"), name="out")
    path = tmp_path / "fcn.pb"
    path.write_bytes(graph.as_graph_def().SerializeToString())
    return str(path)


def test_sizes_typed_without_enter_are_given_when_convert_is_clicked(qtbot, window,
                                                                     monkeypatch, tmp_path):
    """Regression: sizes typed in Input sizes and then "Convert four variants" clicked (no
    Enter) were left out: the conversion ran at [1,1,1,3] with the typed text still in the
    field. The click gives them first, as Enter does; a bad item, or a node that is not an
    input (its size was left out without a word), is one line and nothing runs."""
    open_and_wait(qtbot, window, _any_size_model(tmp_path))
    qtbot.waitUntil(lambda: window.state.summary is not None and not window.tasks.is_busy(),
                    timeout=30000)
    runs = []
    monkeypatch.setattr(window.mobile, "convert",
                        lambda allow_io: runs.append(dict(window.state.workbench.input_shapes)))
    panel = window.mobile_panel
    errors = []
    window.state.error.connect(errors.append)
    panel.sizes.setText("image=1,x,3")
    qtbot.mouseClick(panel.convert_button, Qt.LeftButton)
    assert runs == [] and errors and "whole numbers" in errors[-1]
    panel.sizes.setText("out=1,2,2,4")          # a node, but not an input: left out before
    qtbot.keyClick(panel.sizes, Qt.Key_Return)
    assert runs == [] and "'out': not an input of the conversion (image)" in errors[-1]
    assert window.state.workbench.input_shapes == {}
    panel.sizes.setText("image=1,32,48,3")
    qtbot.mouseClick(panel.convert_button, Qt.LeftButton)
    assert runs == [{"image": [1, 32, 48, 3]}]
    qtbot.mouseClick(panel.convert_button, Qt.LeftButton)     # unchanged: converts again
    assert runs == [{"image": [1, 32, 48, 3]}] * 2


def test_a_tiny_variants_estimated_latency_reads_in_microseconds(qtbot):
    """Regression: the Conversion preview's Latency column read "0.00 ms est." for a tiny
    model (4dde54d fixed the Optimize preview's column and flops, not this one): under
    0.1 ms it is said in µs (humanize.latency), as are the details' estimates."""
    from inspector.core.mobile.measured import Measured, Row
    from inspector.gui.panels.mobile_panel import COLUMNS, MobilePanel

    panel = MobilePanel()
    qtbot.addWidget(panel)
    rows = [Row("float", tool="TF's converter", model=b"x", latency_ms={"phone": 0.0012}),
            Row("int8", tool="TF's converter", model=b"x", latency_ms={"phone": 13.74})]
    panel.show_preview(Measured(rows))
    column = COLUMNS.index("Latency")
    assert panel.table.item(0, column).text() == "1.2 µs est."
    assert panel.table.item(1, column).text() == "13.7 ms est."
    assert "speed on phone: 1.2 µs (estimate)" in panel.details.toPlainText()


def test_undone_sizes_leave_the_field_while_it_has_the_focus(qtbot, window, monkeypatch,
                                                             tmp_path):
    """Regression: after Enter the field keeps the focus, and it was never rewritten while
    focused, so Edit > Undo took the sizes back from the model and the field still showed
    them (and the next click on Convert gave them again). Only text being typed is kept."""
    open_and_wait(qtbot, window, _any_size_model(tmp_path))
    qtbot.waitUntil(lambda: window.state.summary is not None and not window.tasks.is_busy(),
                    timeout=30000)
    monkeypatch.setattr(window.mobile, "convert", lambda allow_io: None)
    window.show_panel(window.mobile_dock, 1)
    panel = window.mobile_panel
    window.activateWindow()
    panel.sizes.setFocus()
    qtbot.waitUntil(panel.sizes.hasFocus, timeout=5000)
    qtbot.keyClicks(panel.sizes, "image=1,32,48,3")
    qtbot.keyClick(panel.sizes, Qt.Key_Return)
    assert window.state.workbench.input_shapes == {"image": [1, 32, 48, 3]}
    assert panel.sizes.hasFocus()
    window.state.workbench.undo()
    assert window.state.workbench.input_shapes == {} and panel.sizes.text() == ""
    qtbot.keyClicks(panel.sizes, "image=1,8")             # being typed: kept
    window.state.workbench.redo()
    assert panel.sizes.text() == "image=1,8"


def test_the_compatibility_tab_s_lines_never_overlap_at_1366x768(qtbot, window, fx, tmp_path):
    """text_really.pb (a graph with training ops): the note on ops without a mobile kernel
    wraps to 3 lines at 1366 px, and the tab page, sized to its labels' one-line minimum,
    drew it over the list's last row (and kept an empty line for the converter's verdict)."""
    import shutil

    model = str(tmp_path / "text_really.pb")
    shutil.copy(os.path.join(fx, "text_really.pb"), model)
    window.resize(1366, 768)
    open_and_wait(qtbot, window, model)
    window.phone(0, lambda: window.mobile.check())
    panel = window.mobile_panel
    qtbot.waitUntil(lambda: panel.problems.topLevelItemCount() > 0 and
                    panel.mobile_kernels.text().startswith("No kernel"), timeout=30000)
    qtbot.wait(200)
    note, tree = panel.mobile_kernels, panel.problems
    assert note.heightForWidth(note.width()) >= 3 * note.fontMetrics().lineSpacing() - 2
    assert tree.geometry().bottom() < note.geometry().top()      # the list ends above it
    assert note.height() >= note.heightForWidth(note.width())    # every line of it shown
    assert not panel.verdict.isVisible()                         # no verdict yet: no line


def test_a_converter_that_fails_is_never_read_as_agreement(qtbot, window, fx, tmp_path):
    """Regression: on text_really.pb, Confirm with the converter failed ("Attempting to use
    uninitialized value conv1/weights"), yet the list read "converts" for the variable nodes
    and the verdict "The converter agrees with the tables on every node". A conversion that
    fails even with Select TF ops and custom ops is said as a failure, with its error, in the
    window and in `compat --confirm` alike (tflite_check.converter_verdict); the nodes it
    never reached read "not known"."""
    import shutil

    from conftest import run_cli

    model = str(tmp_path / "text_really.pb")
    shutil.copy(os.path.join(fx, "text_really.pb"), model)
    open_and_wait(qtbot, window, model)
    window.phone(0, lambda: window.mobile.check())
    panel = window.mobile_panel
    qtbot.waitUntil(lambda: panel.problems.topLevelItemCount() > 0 and
                    panel.confirm_button.isEnabled(), timeout=30000)
    qtbot.mouseClick(panel.confirm_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: panel.verdict.text() != "" and not window.tasks.is_busy(),
                    timeout=180000)
    said = panel.verdict.text()
    assert said.startswith("The converter failed: Attempting to use uninitialized value "
                           "conv1/weights"), said
    assert "agrees" not in said and "\n" not in said
    column = [panel.problems.topLevelItem(k).text(4)
              for k in range(panel.problems.topLevelItemCount())]
    assert "converts" not in column and "not known" in column, column
    code, out, err = run_cli("compat", model, "--confirm")
    assert code == 1, err                                  # a script sees the failure
    assert said in out.splitlines() and "agrees" not in out


def test_a_saved_comparison_of_a_variant_keeps_the_converted_file_beside_it(
        qtbot, window, demo, tmp_path, monkeypatch):
    """Regression: a comparison of a converted variant saved the variant's path in the
    app's temporary folder (/tmp/inspector-tflite-XXXX/demo_digits_int8.tflite), removed
    when the app exits: reopened later, it failed. Saving keeps the converted file beside
    the comparison (COMPARISON_VARIANT.tflite, atomically; a file of that name with other
    bytes is left alone and the copy takes the next number) and the comparison names it;
    reopening one whose model is gone says so in one line naming the file."""
    import json
    import shutil

    from PySide6.QtWidgets import QMessageBox

    ctl, win = _int8_variant_compared(qtbot, window, demo)
    temporary = win.session.paths[1]
    converted = open(temporary, "rb").read()
    saved_in = tmp_path                                    # beside the model
    (saved_in / "cmp_demo_digits_int8.tflite").write_bytes(b"someone else's file")
    saved = win.save_document(str(saved_in / "cmp.json"))
    assert saved
    kept = saved_in / "cmp_demo_digits_int8_2.tflite"
    assert kept.read_bytes() == converted
    assert (saved_in / "cmp_demo_digits_int8.tflite").read_bytes() == b"someone else's file"
    assert json.loads(open(saved).read())["models"]["B"] == kept.name
    assert "kept beside it: cmp_demo_digits_int8_2.tflite" in win.status.text()
    shutil.rmtree(os.path.dirname(temporary))              # as at the app's exit
    asked = []
    monkeypatch.setattr(QMessageBox, "question",
                        lambda *a, **k: asked.append(a[2]) or QMessageBox.Yes)
    before = len(ctl.windows)
    ctl.open_document(saved)
    qtbot.waitUntil(lambda: len(ctl.windows) > before, timeout=60000)
    again = ctl.windows[-1]
    qtbot.addWidget(again)
    assert not asked and again.session.diff.counts() == win.session.diff.counts()
    kept.unlink()                                          # later, the copy deleted
    warned = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: warned.append(a[2]))
    ctl.open_document(saved)
    qtbot.waitUntil(lambda: bool(warned), timeout=60000)        # said once the file is read
    assert warned == [f"{saved}: model B of the comparison is gone: {kept}"], warned


def test_long_node_names_are_shown_whole_beside_short_sentences_at_1366x768(qtbot, window,
                                                                           tmp_path):
    """A real model's names (a TF.js SSD: "StatefulPartitionedCall/map/while/..._switch/
    _426") were cut to "…ionedCall/map/Const_switch/_426" in a 220 px Node column beside a
    Why column twice as wide as its sentence (1366x768 walk, h06-compat.png): the Node
    column now takes the room the sentences leave. Fails on the old code: the names were
    cut (column 220 px)."""
    from inspector.core.model import protos

    g = protos.GraphDef()
    x = g.node.add(name="x", op="Placeholder")
    x.attr["dtype"].type = 1
    p = g.node.add(name="p", op="Placeholder")
    p.attr["dtype"].type = 10
    names = [f"StatefulPartitionedCall/map/while/TensorArrayV2_{k}_switch/_42{k}"
             for k in range(3)]
    for name in names:
        s = g.node.add(name=name, op="Switch", input=["x", "p"])
        s.attr["T"].type = 1
        out = g.node.add(name=f"out_{name[-1]}", op="Identity", input=[name])
        out.attr["T"].type = 1
    path = tmp_path / "long_names.pb"
    path.write_bytes(g.SerializeToString())
    window.resize(1366, 768)
    open_and_wait(qtbot, window, str(path))
    panel = window.mobile_panel
    qtbot.mouseClick(panel.check_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: panel.problems.topLevelItemCount() >= 3, timeout=30000)
    listed, metrics = panel.problems, panel.problems.fontMetrics()
    rows = [listed.topLevelItem(k) for k in range(listed.topLevelItemCount())]
    assert {item.text(1) for item in rows} >= set(names)
    for item in rows:
        for column in (1, 2, 3):          # the name, the op and the sentence, whole
            assert metrics.horizontalAdvance(item.text(column)) + 8 <= \
                listed.columnWidth(column), (item.text(column), listed.columnWidth(column))
    assert listed.header().length() <= listed.viewport().width() + 1   # no sideways scroll


def test_a_top1_that_a_constant_output_makes_meaningless_is_flagged_in_its_cell(
        qtbot, window, tmp_path):
    """walk16: on a classifier whose answer is the same for every input (an untrained
    MobileNet: every class 0.1 %), the Conversion preview's Top-1 column read "100% of 16"
    for every variant, as if int8 agreed perfectly; the note that this top-1 is meaningless
    was the last line of the selected variant's details, below their fold. The cell now
    leads with ⚠ (kept when the column is cut) and its tooltip says why. A model whose
    answers vary keeps its plain figure (test_convert_four_variants_and_save_one)."""
    import tensorflow as tf

    g = tf.Graph()
    with g.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [1, 8], name="x")
        logits = tf.matmul(x, tf.zeros([8, 5]), name="logits")     # untrained: all equal
        tf.nn.softmax(logits, name="probs")
    path = tmp_path / "constant.pb"
    path.write_bytes(g.as_graph_def().SerializeToString())
    open_and_wait(qtbot, window, str(path))
    panel = window.mobile_panel
    qtbot.keyClick(window, Qt.Key_3, Qt.ControlModifier)       # View > Task > Phone
    qtbot.mouseClick(panel.tabs.tabBar(), Qt.LeftButton,
                     pos=panel.tabs.tabBar().tabRect(1).center())   # Conversion preview
    panel.samples.setValue(4)
    panel.compare.setValue(3)
    qtbot.mouseClick(panel.convert_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: panel.table.rowCount() == 4 and not window.tasks.is_busy(),
                    timeout=180000)
    for r in range(4):
        cell = panel.table.item(r, 4)
        assert cell.text() == "⚠ 100% of 3", (r, cell.text())
        assert cell.toolTip().startswith("top-1 is meaningless: the TF graph's output is "
                                         "constant"), cell.toolTip()
