"""The Target report in the window (issue 36.6), as a user: open an int8 .tflite, Phone >
Target report, pick Ethos-U55-128, Run: the report lists the operators Vela leaves on the CPU
with its reasons, the graph colours every operator by where it runs, a row's click selects
its node."""

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from test_gui import open_and_wait

from inspector.core.mobile.targets import OFF, ON

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def mixed_int8(tmp_path):
    from fixtures.tflite_graphs import npu_mixed

    from inspector.core.tf.lite import convert_tflite

    gd, ins, outs = npu_mixed()
    rs = np.random.RandomState(1)
    rep = [{"x": rs.rand(1, 8, 8, 3).astype(np.float32)} for _ in range(8)]
    path = tmp_path / "mixed_int8.tflite"
    path.write_bytes(convert_tflite(gd, ins, outs, "int8", representative=rep)["model"])
    return str(path)


def test_target_report_lists_cpu_ops_and_colours_the_graph(qtbot, window, mixed_int8,
                                                           tmp_path):
    open_and_wait(qtbot, window, mixed_int8)
    next(a for a in window.findChildren(QAction)
         if a.text().startswith("Target &report")).trigger()
    view = window.targets.view
    qtbot.waitUntil(view.isVisible)
    combo = view.target
    combo.setFocus()
    while combo.currentData() != "ethos-u55-128":      # as a user: arrow down the list
        qtbot.keyClick(combo, Qt.Key_Down)
    qtbot.mouseClick(view.run_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: window.state.overlay.targets is not None, timeout=60000)
    report = window.state.overlay.targets
    assert report.target == "ethos-u55-128"
    assert view.summary.text() == "ETHOS-U55-128 NPU: 6 of 10 operators on the accelerator (60%)" \
        or view.summary.text().endswith("6 of 10 operators on the accelerator (60%)")
    rows = {view.table.item(r, 1).text(): view.table.item(r, 3).text()
            for r in range(view.table.rowCount())}
    assert set(rows) == {"REVERSE_V2", "DEQUANTIZE", "CUMSUM", "QUANTIZE"}
    assert rows["REVERSE_V2"] == "Unsupported reverse mask. Axis attribute is not supported."
    assert "NPU operators (Vela's count): 36" in view.details.text()
    assert view.headline.text().startswith(("µs per inference", "ms per inference"), 
                                           view.headline.text().index(" ") + 1)
    assert " · SRAM " in view.headline.text() and "KiB" in view.headline.text()
    assert "e-0" not in view.headline.text() + view.details.text()
    items = window.canvas.items_by_id
    assert items["rev"].heat == OFF and items["rev"].badge == "CPU"
    assert items["pool"].heat == ON and items["pool"].badge.endswith(" cycles")
    assert window.state.overlay.mode == "targets"
    assert window.overlays_panel.mode_buttons["targets"].isChecked()
    row = next(r for r in range(view.table.rowCount()) if view.table.item(r, 1).text() == "CUMSUM")
    rect = view.table.visualItemRect(view.table.item(row, 2))
    qtbot.mouseClick(view.table.viewport(), Qt.LeftButton, pos=rect.center())
    assert window.state.selected == "cumsum"
    window.targets.dialog.grab().save(str(tmp_path / "target_report.png"))
    window.grab().save(str(tmp_path / "window.png"))


def _layers(data: bytes) -> dict:
    """lite.tflite_layers' answer from our own reader (TF 2.21's interpreter path refuses
    LiteRT's op resolver type on main today: the conversion preview's own bug, issue 36.1)."""
    from inspector.core.loaders.tflite import read_model

    sub = read_model(data, "variant").subgraphs[0]
    return {"ops": [{"index": o.index, "op": o.op, "inputs": list(o.inputs),
                     "outputs": list(o.outputs)} for o in sub.operators],
            "tensors": [{"index": t.index, "name": t.name, "dtype": t.dtype.lower(),
                         "shape": list(t.shape), "scales": list(t.scales)}
                        for t in sub.tensors]}


def test_a_graphdef_gets_its_report_through_the_converted_variant(qtbot, window, tmp_path,
                                                                  mixed_int8):
    """A GraphDef has no .tflite of its own: once converted (the Phone panel's preview), the
    Ethos-U report reads the int8 variant and colours the GraphDef's nodes fused into each
    operator."""
    from fixtures.tflite_graphs import npu_mixed

    from inspector.core.mobile.tflite_mapping import map_model
    from inspector.core.mobile.tflite_preview import Preview, Variant

    gd, _, _ = npu_mixed()
    path = tmp_path / "mixed.pb"
    path.write_bytes(gd.SerializeToString())
    open_and_wait(qtbot, window, str(path))
    view = window.targets.open()
    view.choose("ethos-u55-128")
    assert not view.run_button.isEnabled()                  # nothing converted yet: it says so
    assert "make one from this graph first" in view.summary.text()
    data = open(mixed_int8, "rb").read()
    names = {n.name for n in window.state.model.graph.nodes}
    variant = Variant("int8", model=data, size=len(data),
                      mapping=map_model(_layers(data), names))
    window.state.set_tflite_preview(Preview([variant]))
    assert view.run_button.isEnabled()
    qtbot.mouseClick(view.run_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: window.state.overlay.targets is not None, timeout=60000)
    report = window.state.overlay.targets
    assert report.label.endswith("the int8 variant")
    assert {p.op for p in report.off} == {"REVERSE_V2", "DEQUANTIZE", "CUMSUM", "QUANTIZE"}
    window.state.expand_all()
    qtbot.waitUntil(lambda: "rev" in window.canvas.items_by_id, timeout=20000)
    items = window.canvas.items_by_id
    assert items["rev"].heat == OFF and items["cumsum"].heat == OFF
    conv = next(p for p in report.ops if p.op == "CONV_2D")
    assert conv.on and set(conv.nodes) >= {"conv", "Conv2D"}   # fused: one operator, 2 nodes
    assert items["conv"].heat == ON and items["Conv2D"].heat == ON


def test_long_node_names_leave_the_reasons_room_to_be_read(qtbot):
    """walk5 (basic-pitch's SavedModel, Phone > Target report > CPU at 1366x768): the Node
    column took its longest name's width (~460 of the dialog's 860 px), 'Why not on the
    accelerator' and 'What to do' got ~120 px each (the header read 'y not on the
    acceler'), each row 8 lines and 3 rows in sight. The three text columns now share."""
    from PySide6.QtWidgets import QDialog, QVBoxLayout

    from inspector.core.mobile.targets import Placement, TargetReport
    from inspector.gui.panels.target_panel import TargetReportView

    why = ("XNNPACK did not take it (ai-edge-litert 2.3.0 decided: no XNNPACK kernel for this "
           "op, or not for its types or parameters)")
    todo = ("it runs on LiteRT's builtin CPU kernels between XNNPACK partitions; replace it "
            "with XNNPACK-supported ops or move it to the model's edge")
    ops = tuple(Placement(i, "MIRROR_PAD", "StatefulPartitionedCall/model_1/cq_t2010v2_1/"
                          f"reflection_pad1d/MirrorPad_{i}", False, why, todo)
                for i in range(6))
    report = TargetReport("cpu", "CPU (XNNPACK)", "measured", ops)
    dialog = QDialog()
    qtbot.addWidget(dialog)
    view = TargetReportView([("cpu", "CPU (XNNPACK, measured by LiteRT)")], dialog)
    QVBoxLayout(dialog).addWidget(view)
    dialog.resize(900, 520)                       # the window's own size for it
    dialog.show()
    qtbot.waitExposed(dialog)
    view.show_report(report, "", [])
    qtbot.wait(50)
    table, header = view.table, view.table.horizontalHeader()
    for col in range(table.columnCount()):        # every title whole
        title = table.horizontalHeaderItem(col).text()
        assert header.fontMetrics().horizontalAdvance(title) + 8 <= header.sectionSize(col), \
            (title, header.sectionSize(col))
    lines = table.rowHeight(0) / table.fontMetrics().lineSpacing()
    assert lines <= 5, lines                      # was 8
    assert header.sectionSize(3) >= 200 and header.sectionSize(4) >= 200
