"""Interactive optimization driven as a user: marks, drag-and-drop pipeline, preview, diffs,
numeric check, saving and the session file."""

import json
import os
import shutil

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication
from test_gui import open_and_wait, wait_drawn

from inspector.core.analysis.metrics import compute_metrics
from inspector.core.loaders import load
from inspector.core.transforms import run_pipeline

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")



def wait_preview(qtbot, win, steps):
    qtbot.waitUntil(lambda: len(win.state.rows) == steps + 1 and
                    not win.tasks.is_busy() and
                    all(r.metrics.flops is not None for r in win.state.rows[1:]),
                    timeout=120000)


def palette_item(win, name):
    pal = win.pipeline_panel.palette
    for i in range(pal.topLevelItemCount()):
        group = pal.topLevelItem(i)
        for j in range(group.childCount()):
            if group.child(j).data(0, Qt.UserRole) == name:
                return group.child(j)
    raise KeyError(name)


def drop_on_list(win, mime, row=None):
    steps = win.pipeline_panel.steps
    if row is None or row >= steps.count():
        pos = QPoint(10, steps.viewport().height() - 3)
    else:
        rect = steps.visualItemRect(steps.item(row))
        pos = QPoint(rect.x() + 5, rect.y() + 2)
    enter = QDragEnterEvent(pos, Qt.CopyAction | Qt.MoveAction, mime, Qt.LeftButton,
                            Qt.NoModifier)
    QApplication.sendEvent(steps.viewport(), enter)
    drop = QDropEvent(QPointF(pos), Qt.CopyAction | Qt.MoveAction, mime, Qt.LeftButton,
                      Qt.NoModifier)
    QApplication.sendEvent(steps.viewport(), drop)
    return drop


def test_mark_with_keys_and_context_menu(qtbot, window, model):
    open_and_wait(qtbot, window, model)
    window.jump_to("Mul")
    window.canvas.setFocus()
    qtbot.keyClick(window.canvas, Qt.Key_I)
    assert window.workbench.inputs == ["Mul"]
    window.jump_to("softmax")
    window.canvas.setFocus()
    qtbot.keyClick(window.canvas, Qt.Key_O)
    assert window.workbench.outputs == ["softmax"]
    qtbot.waitUntil(lambda: window.state.strip is not None, timeout=20000)
    items = window.canvas.items_by_id
    assert items["Mul"].tag == "IN" and items["softmax"].tag == "OUT"
    assert items["DecodeJpeg"].dimmed and items["Cast"].dimmed and not items["Mul"].dimmed
    assert "keeps 63 nodes and drops 10 (" in window.workbench_panel.info.text()
    # the context menu unmarks
    window.canvas_ctl.context_menu("softmax", window.canvas.mapToGlobal(QPoint(5, 5)))
    action = next(a for a in window.canvas_ctl.menu.actions() if a.text() == "Unmark output")
    action.trigger()
    assert window.workbench.outputs == []
    window.canvas_ctl.menu.close()


def test_training_parts_and_missing_feeds_are_named(qtbot, window, fx, tmp_path):
    path = tmp_path / "train.pb"
    shutil.copy(os.path.join(fx, "v1_training.pb"), path)
    open_and_wait(qtbot, window, str(path))
    window.workbench.set_marks([], ["output"])
    qtbot.waitUntil(lambda: window.state.strip is not None, timeout=20000)
    text = window.workbench_panel.info.text()
    assert "training-only" in text and "gradients" in text and "saver" in text
    assert "input" in window.workbench_panel.warning.text()  # `input` still needs feeding
    window.workbench.set_marks(["input"], ["output"])
    qtbot.waitUntil(lambda: window.workbench_panel.warning.text() == "", timeout=20000)


def test_trace_to_inputs_and_copy_commands(qtbot, window, model):
    open_and_wait(qtbot, window, model)
    window.jump_to("softmax")
    window.trace_selected()
    qtbot.waitUntil(lambda: bool(window.marks.proposals), timeout=20000)
    proposals = window.marks.proposals
    assert proposals[0].name == "Mul" and proposals[0].shape == "[1,299,299,3]"
    assert window.workbench_panel.proposals.count() == 2
    window.workbench_panel._mark_proposal(window.workbench_panel.proposals.item(0))
    window.workbench.toggle_output("softmax")
    text = window.marks.copy("benchmark_model")
    assert QApplication.clipboard().text() == text
    assert "--input_layer=Mul" in text and "--input_layer_shape=1,299,299,3" in text
    assert "--output_layer=softmax" in text
    assert "--input_arrays=Mul" in window.marks.copy("tflite_convert")
    assert "--inputs=Mul" in window.marks.copy("transform_graph")


def test_drag_transforms_reorder_edit_and_preview_matches_core(qtbot, window, model):
    open_and_wait(qtbot, window, model)
    window.workbench.set_marks(["Mul"], ["softmax"])
    pal = window.pipeline_panel.palette
    drop = drop_on_list(window, pal.mimeData([palette_item(window, "quantize_weights")]))
    assert drop.isAccepted()
    drop_on_list(window, pal.mimeData([palette_item(window, "strip_unused_nodes")]))
    assert [s.name for s in window.workbench.steps] == ["quantize_weights", "strip_unused_nodes"]
    # reorder: drag the second row above the first
    steps = window.pipeline_panel.steps
    steps.setCurrentRow(1)
    steps._drag_row = 1
    drop_on_list(window, steps.mimeData([steps.item(1)]), row=0)
    assert [s.name for s in window.workbench.steps] == ["strip_unused_nodes", "quantize_weights"]
    # the marked input's type and shape came filled in; edit a parameter in the form
    steps.setCurrentRow(0)
    assert window.workbench.steps[0].params == {"type": ["float"], "shape": ["1,299,299,3"]}
    kind = window.pipeline_panel.param_widgets["type"]
    kind.clear()
    qtbot.keyClick(kind, Qt.Key_Return)
    assert window.workbench.steps[0].params == {"shape": ["1,299,299,3"]}
    assert window.pipeline_panel.text.toPlainText() == \
        'strip_unused_nodes(shape="1,299,299,3")\nquantize_weights'
    wait_preview(qtbot, window, 2)
    gd = load(model).graph.graph_def
    reports = run_pipeline(gd, window.workbench.text, ["Mul"], ["softmax"])
    for row, report in zip(window.state.rows[1:], reports):
        expected = compute_metrics(report.graph_def, {"Mul": (1, 299, 299, 3)})
        m = row.metrics
        assert (m.node_count, m.serialized_bytes, m.gzip_bytes, m.const_parameters) == \
            (expected.node_count, expected.serialized_bytes, expected.gzip_bytes,
             expected.const_parameters)
        assert m.flops.total == expected.flops.total
    model = window.preview_panel.model
    assert model.rowCount() == 3 and cell(window, 2, 0).startswith("quantize_weights")
    assert " −" in cell(window, 2, 2)  # the size went down


def test_invalid_parameter_is_refused(qtbot, window, model):
    open_and_wait(qtbot, window, model)
    window.workbench.add_step("round_weights")
    window.pipeline_panel.steps.setCurrentRow(0)
    box = window.pipeline_panel.param_widgets["num_steps"]
    box.setText("many")
    qtbot.keyClick(box, Qt.Key_Return)
    assert "not a whole number" in window.pipeline_panel.form_error.text()
    assert window.workbench.steps[0].params == {}


def test_text_sync_undo_redo_and_disable(qtbot, window, model):
    open_and_wait(qtbot, window, model)
    panel = window.pipeline_panel
    panel.text.setPlainText("remove_device sort_by_execution_order")
    qtbot.mouseClick(panel.apply_text, Qt.LeftButton)
    assert [panel.steps.item(i).text() for i in range(panel.steps.count())] == \
        ["remove_device", "sort_by_execution_order"]
    panel.text.setPlainText("fold_constants(ignore_errors=true")
    qtbot.mouseClick(panel.apply_text, Qt.LeftButton)
    assert "missing ')'" in panel.text_error.text()
    panel.steps.item(0).setCheckState(Qt.Unchecked)
    assert window.workbench.text == "sort_by_execution_order"
    qtbot.keyClick(window, Qt.Key_Z, Qt.ControlModifier)
    assert window.workbench.text == "remove_device sort_by_execution_order"
    qtbot.keyClick(window, Qt.Key_Z, Qt.ControlModifier | Qt.ShiftModifier)
    assert window.workbench.text == "sort_by_execution_order"
    panel.steps.setCurrentRow(1)
    qtbot.keyClick(panel.steps, Qt.Key_Delete)
    assert [s.name for s in window.workbench.steps] == ["remove_device"]


def test_step_diff_check_outputs_save_and_session(qtbot, window, model, tmp_path):
    from PySide6.QtCore import QSettings

    from inspector.gui.main_window import MainWindow

    open_and_wait(qtbot, window, model)
    window.workbench.set_marks(["Mul"], ["softmax"])
    window.workbench.set_text('strip_unused_nodes(type=float, shape="1,299,299,3") '
                              'remove_nodes(op=Identity, op=CheckNumerics) '
                              'fold_old_batch_norms quantize_weights')
    wait_preview(qtbot, window, 4)
    before = window.scenes_drawn
    click_row(qtbot, window, 3)  # fold_old_batch_norms, graph after it
    wait_drawn(qtbot, window, before)
    assert window.preview_panel.changes.count() > 0
    states = {n.diff for n in window.canvas.items_by_id.values()}
    assert "added" in states or "changed" in states
    before = window.scenes_drawn
    window.preview_panel.after.setChecked(False)  # the original, with what goes in red
    wait_drawn(qtbot, window, before)
    assert any(n.diff == "removed" for n in window.canvas.items_by_id.values())
    qtbot.mouseClick(window.preview_panel.check_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: "max abs error" in window.preview_panel.check_result.text(),
                    timeout=60000)
    assert window.preview.last_check[0].top1_agreement == 1.0
    out = tmp_path / "optimized.pb"
    said: list = []
    window.state.message.connect(said.append)   # a later task's label may replace it on screen
    assert window.preview.save_graph(str(out)) == str(out)
    qtbot.waitUntil(lambda: any(t.startswith("Saved") for t in said), timeout=60000)
    saved = load(str(out)).graph
    assert {n.op for n in saved} >= {"Dequantize"} and "DecodeJpeg" not in saved
    qtbot.waitUntil(lambda: os.path.exists(model + ".inspector.json"), timeout=5000)
    data = json.load(open(model + ".inspector.json"))
    assert data["inputs"] == ["Mul"] and len(data["pipeline"]) == 4
    # reopen in a new window: marks and pipeline come back
    other = MainWindow(QSettings(str(tmp_path / "o.ini"), QSettings.IniFormat))
    qtbot.addWidget(other)
    other.show()
    open_and_wait(qtbot, other, model)
    assert other.workbench.inputs == ["Mul"] and other.workbench.outputs == ["softmax"]
    assert other.workbench.text == window.workbench.text
    other.tasks.cancel()
    other.tasks.wait(10.0)


def test_unreadable_session_is_reported_and_kept(qtbot, window, model):
    with open(model + ".inspector.json", "w") as fh:
        fh.write("{ this is not json")
    open_and_wait(qtbot, window, model)
    assert "session file not used" in window.last_error
    folder = os.path.dirname(model)
    # opening writes nothing: the unreadable file stays as it was
    assert open(model + ".inspector.json").read() == "{ this is not json"
    assert not [p for p in os.listdir(folder) if ".unreadable-" in p]
    assert window.workbench.inputs == [] and window.workbench.steps == []
    window.workbench.set_marks([], ["softmax"])  # the first edit saves: the old file is kept
    qtbot.waitUntil(lambda: any(".unreadable-" in p for p in os.listdir(folder)),
                    timeout=5000)
    backups = [p for p in os.listdir(folder) if ".unreadable-" in p]
    assert open(os.path.join(folder, backups[0])).read() == "{ this is not json"


def cell(window, row: int, column: int) -> str:
    model = window.preview_panel.model
    return model.data(model.index(row, column))


def click_row(qtbot, window, row: int) -> None:
    """Click a row of the preview table as a user would (once the view has laid it out)."""
    table = window.preview_panel.table
    index = window.preview_panel.model.index(row, 0)
    table.scrollTo(index)
    qtbot.waitUntil(lambda: table.visualRect(index).isValid(), timeout=5000)
    qtbot.mouseClick(table.viewport(), Qt.LeftButton, pos=table.visualRect(index).center())
    qtbot.waitUntil(lambda: window.state.step == row, timeout=5000)


def test_a_batch_norm_left_alone_says_why(qtbot, window, tmp_path):
    from test_transforms_tf import shared_batch_norm_graph

    path = tmp_path / "shared_conv.pb"
    path.write_bytes(shared_batch_norm_graph("conv").SerializeToString())
    open_and_wait(qtbot, window, str(path))
    window.workbench.set_marks(["input"], ["out", "side"])
    window.workbench.set_text("fold_old_batch_norms")
    wait_preview(qtbot, window, 1)
    click_row(qtbot, window, 1)
    rows = [window.preview_panel.changes.item(i).text()
            for i in range(window.preview_panel.changes.count())]
    assert rows == ["kept: bn — 'conv' is also read elsewhere; folding would change what that "
                    "reader gets"]


def test_a_step_that_changes_nothing_says_so_and_what_to_use(qtbot, window, model):
    open_and_wait(qtbot, window, model)
    window.workbench.set_marks(["Mul"], ["softmax"])
    window.workbench.set_text("fold_batch_norms")
    wait_preview(qtbot, window, 1)
    assert cell(window, 1, 0) == "fold_batch_norms  · changed nothing"
    tip = window.preview_panel.model.data(window.preview_panel.model.index(1, 0),
                                          Qt.ToolTipRole)
    assert "use it instead" in tip
    click_row(qtbot, window, 1)
    rows = [window.preview_panel.changes.item(i).text()
            for i in range(window.preview_panel.changes.count())]
    assert len(rows) == 1 and rows[0].startswith("changed nothing: no Mul by a constant")
    assert "fold_old_batch_norms folds into the weights; use it instead" in rows[0]


def test_cancel_stops_the_preview_computation(qtbot, window, fx, monkeypatch):
    """Cancel ends the preview's thread before the pipeline is done (it used to keep computing
    until the app quit), the window goes idle and says what it stopped. The second step waits
    for the click (under CI load the five steps after the first could end before the test's
    click reached the window), and the click waits for the second step."""
    import threading

    from inspector.core.app import preview

    clicked, calls, run_step = threading.Event(), [], preview.run_step

    def step_waiting_for_the_click(*args, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            clicked.wait(60.0)
        return run_step(*args, **kwargs)

    monkeypatch.setattr(preview, "run_step", step_waiting_for_the_click)
    open_and_wait(qtbot, window, os.path.join(fx, "mobilenet_v2.pb"))
    window.workbench.set_marks(["input"], ["Identity"])
    steps = ("fold_constants(ignore_errors=true) quantize_nodes quantize_weights round_weights "
             "sort_by_execution_order merge_duplicate_nodes")
    window.workbench.set_text(steps)
    engine = window.state.engine
    # the second step is under way, waiting for the click (waiting for the engine's first
    # row instead let the click land during the first step on a quiet machine: 1 call)
    qtbot.waitUntil(lambda: window.tasks.is_busy("preview") and len(calls) == 2,
                    timeout=120000)
    assert window.cancel_button.isVisible()
    qtbot.mouseClick(window.cancel_button, Qt.LeftButton)
    clicked.set()
    assert window.tasks.wait(60.0)  # the thread has ended
    assert len(calls) == 2 and len(engine._steps) <= 2  # no step after the one under way
    qtbot.waitUntil(lambda: not window.progress.isVisible(), timeout=5000)
    assert window.status_label.text().startswith("Cancelled: ")
    assert "previewing the pipeline" in window.status_label.text()
    assert len(window.state.rows) < 7 or any(r.metrics.flops is None
                                             for r in window.state.rows)


def test_nothing_stale_after_work_ends_or_the_pipeline_changes(qtbot, window, model):
    """Status texts clear when the work ends, a numeric-check result goes when the pipeline
    changes, and the table always selects the step the canvas shows."""
    open_and_wait(qtbot, window, model)
    qtbot.waitUntil(lambda: not window.tasks.is_busy(), timeout=60000)
    assert not window.status_label.text().endswith("…")  # not "Laying out…" forever
    window.workbench.set_marks(["Mul"], ["softmax"])
    window.workbench.set_text("remove_nodes(op=Identity) quantize_weights(minimum_size=8)")
    wait_preview(qtbot, window, 2)
    qtbot.waitUntil(lambda: not window.tasks.is_busy(), timeout=60000)
    assert not window.status_label.text().endswith("…")
    click_row(qtbot, window, 2)
    qtbot.mouseClick(window.preview_panel.check_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: "max abs error" in window.preview_panel.check_result.text(),
                    timeout=60000)
    qtbot.waitUntil(lambda: not window.tasks.is_busy(), timeout=60000)
    assert window.status_label.text() == "Ready"  # not "Running both graphs…"
    # a recompute of another pipeline: the check result goes, and while rows come in the
    # table never claims "original" while the canvas shows step 2
    selected = []
    window.state.rows_changed.connect(
        lambda rows: selected.append((window.preview_panel.currentRow(), window.state.step)))
    window.workbench.set_text("remove_nodes(op=Identity) round_weights")
    wait_preview(qtbot, window, 2)
    assert window.preview_panel.check_result.text() == ""
    assert all(row in (-1, step) for row, step in selected), selected
    assert window.preview_panel.currentRow() == window.state.step == 2
    assert "Dequantize" not in {n.op for n in window.state.view.graph}


def test_apply_text_refuses_unknown_transforms_and_params_are_checked_as_typed(qtbot, window,
                                                                               model):
    open_and_wait(qtbot, window, model)
    panel = window.pipeline_panel
    window.workbench.set_text("round_weights")
    qtbot.waitUntil(lambda: panel.steps.count() == 1)
    panel.text.setFocus()
    panel.text.selectAll()
    qtbot.keyClicks(panel.text, "fold_constants not_a_transform")
    qtbot.mouseClick(panel.apply_text, Qt.LeftButton)
    assert "not_a_transform" in panel.text_error.text()
    assert [s.name for s in window.workbench.steps] == ["round_weights"]  # left as it was

    panel.steps.setCurrentRow(0)
    box = panel.param_widgets["num_steps"]
    qtbot.keyClicks(box, "many")  # checked on every key, before anything is committed
    assert panel.form_error.text() and "num_steps" in panel.form_error.text()
    box.clear()
    qtbot.keyClicks(box, "16")
    assert panel.form_error.text() == ""
    qtbot.keyClick(box, Qt.Key_Return)
    assert window.workbench.steps[0].values("num_steps") == ["16"]


def test_strip_unused_nodes_comes_with_the_marked_inputs_shape(qtbot, window, model):
    open_and_wait(qtbot, window, model)
    window.workbench.set_marks(["Mul"], ["softmax"])  # Mul is not a Placeholder
    pal = window.pipeline_panel.palette
    item = palette_item(window, "strip_unused_nodes")
    pal.scrollToItem(item)
    rect = pal.visualItemRect(item)
    at = QPoint(rect.left() + 4, rect.center().y())  # the palette may be narrow
    qtbot.mouseClick(pal.viewport(), Qt.LeftButton, pos=at)  # a double click starts with one
    qtbot.mouseDClick(pal.viewport(), Qt.LeftButton, pos=at)
    qtbot.waitUntil(lambda: len(window.workbench.steps) == 1)
    step = window.workbench.steps[0]
    assert step.values("type") == ["float"] and step.values("shape") == ["1,299,299,3"]
    wait_preview(qtbot, window, 1)
    flops = window.state.rows[1].metrics.flops
    before = window.state.rows[0].metrics.flops
    assert flops.known and not flops.unknown_shape  # shapes flow from the new Placeholder
    # Sub and Mul, one FLOP per element of the 1x299x299x3 image each, are no longer counted
    assert flops.total == before.total - 2 * 299 * 299 * 3
    # the rows carry the totals, not a count per node (~100 MB at a million nodes)
    assert flops.per_node == {} and before.per_node == {}


def test_enter_in_an_op_parameter_commits_once_and_keeps_the_form(qtbot, window, model):
    """Issue 38.1: Enter in remove_nodes' `op` combo rebuilt the form inside the combo's own
    key handler (editingFinished and activated both committed): Qt crashed."""
    from shiboken6 import isValid

    open_and_wait(qtbot, window, model)
    panel = window.pipeline_panel
    pal = panel.palette
    drop_on_list(window, pal.mimeData([palette_item(window, "remove_nodes")]))
    qtbot.waitUntil(lambda: panel.steps.count() == 1)
    panel.steps.setCurrentRow(0)
    combo = panel.param_widgets["op"]
    combo.lineEdit().setFocus()
    qtbot.keyClicks(combo.lineEdit(), "Identity")
    undo_before = len(window.workbench._undo)
    qtbot.keyClick(combo.lineEdit(), Qt.Key_Return)
    qtbot.wait(50)  # anything deferred runs
    assert window.workbench.steps[0].values("op") == ["Identity"]
    assert len(window.workbench._undo) == undo_before + 1  # one commit
    assert isValid(combo) and panel.param_widgets["op"] is combo  # the form was kept
    assert combo.currentText() == "Identity"
    assert panel.text.toPlainText() == 'remove_nodes(op=Identity)'
    # Enter again, then picking the value from the list: nothing new to commit, no crash
    qtbot.keyClick(combo.lineEdit(), Qt.Key_Return)
    combo.activated.emit(combo.currentIndex())
    qtbot.wait(50)
    assert len(window.workbench._undo) == undo_before + 1
    # another step selected: its own form; the old widgets go later, never in their signal
    window.workbench.add_step("round_weights")
    qtbot.waitUntil(lambda: panel.steps.count() == 2)
    panel.steps.setCurrentRow(1)
    assert "num_steps" in panel.param_widgets and "op" not in panel.param_widgets


def test_use_suggested_marks_what_every_feature_would_use(qtbot, window, model):
    """One rule: the button marks exactly the ports profiling, the demo and the TFLite
    check take when nothing is marked."""
    from inspector.core.app.ports import ports_to_use

    open_and_wait(qtbot, window, model)
    qtbot.waitUntil(lambda: window.state.summary is not None, timeout=30000)
    unmarked = ports_to_use([], [], window.state.summary)
    assert window.overlays._io() == unmarked and window.mobile.ports() == unmarked
    qtbot.mouseClick(window.workbench_panel.suggest, Qt.LeftButton)
    assert (window.workbench.inputs, window.workbench.outputs) == unmarked
    assert window.workbench.outputs == ["softmax"]


def test_check_outputs_says_when_the_optimized_graph_answers_nan(qtbot, window, fx):
    """Preview > Check outputs on MobileNet v2 after quantize_weights (NaN answers, as TF's
    own engine makes them): it said 'max abs error nan ... top-1 agreement 100%'."""
    open_and_wait(qtbot, window, os.path.join(fx, "mobilenet_v2.pb"))
    window.workbench.set_marks(["input"], ["Identity"])
    window.workbench.set_text("quantize_weights")
    wait_preview(qtbot, window, 1)
    assert cell(window, 1, 0) == "⚠ quantize_weights  see its changes"
    click_row(qtbot, window, 1)
    first = window.preview_panel.changes.item(0).text()
    assert first.startswith("warning: 2 constants hold only zeros") and \
        "minimum_size=1281 keeps them float" in first, first
    qtbot.mouseClick(window.preview_panel.check_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: "max abs error" in window.preview_panel.check_result.text(),
                    timeout=120000)
    text = window.preview_panel.check_result.text()
    assert text.startswith("Identity: 1,000 of 1,000 values NaN or infinite in the "
                           "transformed graph's output (0 in the original's); max abs error "
                           "nan"), text
    assert text.endswith("top-1 agreement 0%"), text


def test_a_failed_step_leaves_the_rows_before_it_their_gzip_and_flops(qtbot, window, model):
    """strip_unused_nodes typed with no output marked fails (as it says); the original row's
    gzip, FLOPs and latency stayed '…' for good (the gzip and FLOPs passes never ran), so
    the user waited for numbers that never came."""
    open_and_wait(qtbot, window, model)
    panel = window.pipeline_panel
    panel.text.setPlainText("strip_unused_nodes fold_constants")
    qtbot.mouseClick(panel.apply_text, Qt.LeftButton)
    qtbot.waitUntil(lambda: len(window.state.rows) == 2 and window.state.rows[1].error and
                    not window.tasks.is_busy(), timeout=120000)
    original = [cell(window, 0, c) for c in range(7)]
    failed = [cell(window, 1, c) for c in range(7)]
    assert "needs outputs" in failed[0]
    assert "…" not in "".join(original[1:]), original
    assert original[5] != "unknown" and original[6].endswith(" ms")
    assert failed[1:] == original[1:]    # the step left the graph before it as it was


def test_fold_constants_says_when_a_noop_keeps_every_weight_twice(qtbot, window, fx):
    """A Keras export's NoOp reads every ReadVariableOp as a control input: fold_constants
    folds them into new constants and keeps the old ones for that NoOp, so the graph grew
    (tiny.h5 +65 %, the Keras MobileNet v2 27 MB, +97 %; fer's emotion model +76 %) with no
    word of why. The step now warns and names the cure, which works."""
    open_and_wait(qtbot, window, os.path.join(fx, "tiny.h5"))
    window.workbench.set_marks(["pixels"], ["Identity"])
    panel = window.pipeline_panel
    panel.text.setPlainText("fold_constants")
    qtbot.mouseClick(panel.apply_text, Qt.LeftButton)
    wait_preview(qtbot, window, 1)
    assert cell(window, 1, 0) == "⚠ fold_constants  see its changes"
    assert "+65%" in cell(window, 1, 2)
    click_row(qtbot, window, 1)
    first = window.preview_panel.changes.item(0).text()
    assert first == ("warning: 3 constants (5.9 KB) are now stored twice: folded into new "
                     "constants, and kept as they were because 'NoOp' reads the nodes that "
                     "read them as control inputs; run remove_control_dependencies before "
                     "fold_constants to keep one copy"), first
    panel.text.setPlainText("remove_control_dependencies fold_constants")
    qtbot.mouseClick(panel.apply_text, Qt.LeftButton)
    wait_preview(qtbot, window, 2)
    assert "⚠" not in cell(window, 2, 0)
    assert "−" in cell(window, 2, 2), cell(window, 2, 2)      # smaller than the original


def test_copied_commands_of_a_tfjs_model_write_the_graphdef_they_read_first(qtbot, window,
                                                                           tmp_path):
    """TensorFlow's tools read a GraphDef: the window's Copy as gave benchmark_model
    --graph=model.json (summarize's benchmark line was fixed in e1a1734, the window's copy
    was not). Each copied line now converts first, as summarize says."""
    import sys

    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "core"))
    from test_tfjs import write_tfjs

    path = write_tfjs(str(tmp_path))
    open_and_wait(qtbot, window, path)
    window.workbench.set_marks(["x"], ["y"])
    first = f"graphdef-inspector convert {path} -o model_frozen.pb && "
    text = window.marks.copy("benchmark_model")
    assert text.startswith(first + "benchmark_model --graph=model_frozen.pb "), text
    assert window.marks.copy("transform_graph").startswith(
        first + "transform_graph --in_graph=model_frozen.pb"), window.marks.copy("transform_graph")
    assert "--graph_def_file=model_frozen.pb" in window.marks.copy("tflite_convert")


def test_edit_trace_shows_its_proposals_from_the_explore_task(qtbot, window, model):
    """Edit > Trace selected output (Ctrl+T) in the Explore task: the proposals went to the
    Inputs and outputs panel, hidden there, and the line said "Ready": nothing seemed to
    happen. Now the panel comes forward, as from the node's context menu; with no node
    selected the line says what to do."""
    from PySide6.QtGui import QAction

    open_and_wait(qtbot, window, model)
    window.workspace.switch("explore")
    trace = next(a for a in window.findChildren(QAction)
                 if a.text() == "&Trace selected output to its inputs")
    trace.trigger()
    assert "Select a node" in window.status_line.label.text()
    window.jump_to("softmax")
    trace.trigger()
    qtbot.waitUntil(lambda: window.workbench_panel.proposals.count() == 2, timeout=20000)
    assert window.workbench_dock.isVisible() and window.workbench_panel.proposals.isVisible()


def test_a_steps_graph_has_its_own_tensor_shapes(qtbot, window, model):
    """The graph after a pipeline step shows tensor shapes on its edges as the model's does
    (walk5: after fold_constants the edges read "float", not "float [1,74,74,16]": shapes
    were inferred for the model's graph only). They are TF's inference of the step's own
    graph, in the worker: a node the step kept has the shapes it had."""
    open_and_wait(qtbot, window, model)
    qtbot.waitUntil(lambda: window.state.view.shapes is not None, timeout=60000)
    original = window.state.original_view
    window.workbench.set_marks(["Mul"], ["softmax"])
    window.workbench.set_text("fold_constants(ignore_errors=true)")
    wait_preview(qtbot, window, 1)
    click_row(qtbot, window, 1)
    qtbot.waitUntil(lambda: window.state.view is not original and
                    window.state.view.shapes is not None, timeout=60000)
    step = window.state.view
    assert step.shapes["pool"] == original.shapes["pool"] == [(1, 74, 74, 16)]
    assert len(step.shapes) >= 0.9 * len(step.graph)
    # and the canvas draws them: the step's picture is laid out again with its shapes
    qtbot.waitUntil(lambda: window.state.scene is not None and
                    any("[" in e.label for e in window.state.scene.edges), timeout=30000)


def _relabel_after_ready(qtbot, window) -> None:
    """The line says "Ready"; the shown picture's shapes come again and it is laid out again
    for its labels (waited for, with nothing running after it)."""
    window.state.say("Ready")
    before = window.scenes_drawn
    view = window.state.view
    window.state.set_shapes(view, dict(view.shapes))
    qtbot.waitUntil(lambda: window.scenes_drawn > before and not window.tasks.is_busy(),
                    timeout=30000)
    qtbot.wait(50)


def test_a_picture_redrawn_for_its_labels_is_not_counted_again(qtbot, window, model):
    """When the shapes of a graph come (a step's come after its picture: 6b675b5) the picture
    is laid out again for its edge labels; its item count, said already, is not said again
    over the "Ready" the line went back to when the work ended (CI dry run 13:
    test_nothing_stale... read "16 items shown" after the check)."""
    open_and_wait(qtbot, window, model)
    qtbot.waitUntil(lambda: window.state.view.shapes is not None and
                    not window.tasks.is_busy(), timeout=60000)
    qtbot.waitUntil(lambda: "items shown" in window.status_label.text() or
                    window.status_label.text() == "Ready", timeout=10000)
    _relabel_after_ready(qtbot, window)
    assert window.status_label.text() == "Ready"
    # a new picture (a scope opened) is counted as before
    scope = next(i.id for i in window.state.scene.items.values() if i.kind == "scope")
    window.state.set_expanded(scope, True)
    qtbot.waitUntil(lambda: "items shown" in window.status_label.text(), timeout=30000)


def test_a_picture_first_drawn_while_work_ran_is_not_counted_at_its_relabel(qtbot, window,
                                                                           model):
    """A picture drawn while other work ran is not said (the line says the work, then
    "Ready"); its later re-layout for its labels (its shapes came) is not said either (CI dry
    run 14: a step's picture came while its shapes were inferred, and their re-layout, with
    nothing running, said "16 items shown" over "Ready")."""
    import threading

    open_and_wait(qtbot, window, model)
    qtbot.waitUntil(lambda: window.state.view.shapes is not None and
                    not window.tasks.is_busy(), timeout=60000)
    release = threading.Event()
    window.tasks.submit("test work", lambda task: release.wait(30), lambda _: None,
                        lambda exc: None, label="Working on something else")
    before = window.scenes_drawn
    scope = next(i.id for i in window.state.scene.items.values() if i.kind == "scope")
    window.state.set_expanded(scope, True)                 # a new picture, while work runs
    qtbot.waitUntil(lambda: window.scenes_drawn > before, timeout=30000)
    assert "items shown" not in window.status_label.text()
    release.set()
    qtbot.waitUntil(lambda: not window.tasks.is_busy(), timeout=30000)
    _relabel_after_ready(qtbot, window)
    assert window.status_label.text() == "Ready"


def test_a_partly_restored_session_names_its_file(qtbot, window, model):
    """hostile15: 'The session file was restored, but:' named no file, and the session may
    be the one kept in the user's data folder, not the one beside the model. The first line
    names it; each dropped part is its own line under it."""
    with open(model + ".inspector.json", "w") as fh:
        json.dump({"version": 1, "inputs": ["Mul"], "outputs": ["softmax"],
                   "pipeline": [{"name": "remove_device", "enabled": "yes"}]}, fh)
    open_and_wait(qtbot, window, model)
    qtbot.waitUntil(lambda: bool(window.last_error), timeout=10000)
    first, *rest = window.last_error.splitlines()
    assert first == f"{model}.inspector.json: the session file was restored, but:"
    assert rest == ["pipeline step 1: 'enabled' must be true or false: step dropped"]
    assert window.workbench.inputs == ["Mul"] and window.workbench.outputs == ["softmax"]
