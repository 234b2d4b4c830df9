"""The desktop app driven as a user would: open, drop, expand, search, walk, inspect, export."""

import os
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from conftest import DEMO
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent

from inspector.core.formats.dot_export import render

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def wait_drawn(qtbot, win, before=None):
    before = win.scenes_drawn if before is None else before
    qtbot.waitUntil(lambda: win.scenes_drawn > before and not win.tasks.is_busy(), timeout=60000)


def open_and_wait(qtbot, win, path):
    before = win.scenes_drawn
    win.open_path(path)
    wait_drawn(qtbot, win, before)


def click_item(qtbot, win, item_id, double=False):
    canvas = win.canvas
    node = canvas.items_by_id[item_id]
    canvas.centerOn(node.sceneBoundingRect().center())
    pos = canvas.mapFromScene(node.sceneBoundingRect().topLeft() + QPointF(12, 12))
    fn = qtbot.mouseDClick if double else qtbot.mouseClick
    fn(canvas.viewport(), Qt.LeftButton, pos=pos)


def test_open_by_argument_draws_scopes(qtbot, window):
    open_and_wait(qtbot, window, DEMO)
    ids = set(window.canvas.items_by_id)
    assert {"digits_1/", "pixels", "output"} <= ids
    assert window.state.model.path == DEMO
    assert "demo_digits.pb" in window.windowTitle()
    assert window.summary_panel.candidates.count() >= 4
    assert window.settings.value("recent")[0] == os.path.abspath(DEMO)


def test_open_recent_lists_paths_after_a_restart(qtbot, window, tmp_path):
    """Issue 38.3: one stored path came back from the settings file as a string, and the menu
    listed its characters."""
    from PySide6.QtCore import QSettings

    from inspector.gui.main_window import MainWindow

    open_and_wait(qtbot, window, DEMO)
    window.settings.sync()
    # read from the file as the next start would (a QSettings of the same file in this
    # process would share the first one's values)
    (tmp_path / "next_start.ini").write_bytes((tmp_path / "settings.ini").read_bytes())
    settings = QSettings(str(tmp_path / "next_start.ini"), QSettings.IniFormat)
    again = MainWindow(settings)
    qtbot.addWidget(again)
    actions = again.recent_menu.actions()
    assert [a.text() for a in actions] == [os.path.abspath(DEMO)]
    before = again.scenes_drawn
    actions[0].trigger()
    wait_drawn(qtbot, again, before)
    assert again.state.model.path == os.path.abspath(DEMO)
    assert again.recent_paths() == [os.path.abspath(DEMO)]
    again.tasks.cancel()
    again.tasks.wait(10.0)


def test_while_a_model_opens_the_canvas_and_sizes_say_so(qtbot, window, model, monkeypatch):
    """Issue 38.10: canvas and Sizes said "No model open" while the title, Summary and status
    bar named the model being opened and laid out."""
    import threading

    from inspector.core.app import opening
    from inspector.core.view import view_graph

    name = os.path.basename(model)
    loading, laying_out = threading.Event(), threading.Event()
    open_model, scene = opening.open_model, view_graph.ViewModel.scene
    monkeypatch.setattr(opening, "open_model",
                        lambda *a, **k: (loading.wait(30), open_model(*a, **k))[1])
    monkeypatch.setattr(view_graph.ViewModel, "scene",
                        lambda *a, **k: (laying_out.wait(30), scene(*a, **k))[1])
    window.show_panel(window.sizes_dock)   # its task (Optimize)
    canvas, sizes = window.canvas, window.sizes_panel.before
    assert canvas.waiting == "" and sizes.waiting == ""     # nothing asked: how to start
    window.open_path(model)                                  # 1. the file is read
    assert canvas.waiting == sizes.waiting == f"Opening {name}…"
    assert window.status_label.text() == f"Opening {name}…"
    window.cancel_work()                                     # cancelled: back to the hint
    assert canvas.waiting == sizes.waiting == ""
    loading.set()
    window.tasks.wait(10)
    loading.clear()
    window.open_path(model)
    assert canvas.waiting == f"Opening {name}…"
    loading.set()                                            # 2. laid out
    qtbot.waitUntil(lambda: window.state.model is not None and window.tasks.is_busy("layout"))
    assert name in window.windowTitle()
    assert not canvas.items_by_id and canvas.waiting == f"Opening {name}…"
    # the sizes of a small model may be measured (or being measured) before its first picture
    assert sizes.waiting in (f"Opening {name}…", f"Measuring {name}…") or \
        (sizes.tiles and sizes.waiting == "")
    laying_out.set()                                         # 3. drawn
    wait_drawn(qtbot, window, 0)
    assert canvas.items_by_id and canvas.waiting == ""
    qtbot.waitUntil(lambda: window.sizes.shown > 0 and bool(sizes.tiles), timeout=30000)
    assert sizes.waiting == ""


def test_opening_asks_for_one_layout(qtbot, window, monkeypatch):
    """Opening changes the view and the expansion; the canvas lays the model out once (two
    layouts of a big graph would share the one interpreter and delay the first picture)."""
    kinds = []
    submit = window.tasks.submit
    monkeypatch.setattr(window.tasks, "submit",
                        lambda kind, *a, **k: (kinds.append(kind), submit(kind, *a, **k))[1])
    open_and_wait(qtbot, window, DEMO)
    assert kinds.count("layout") == 1
    window.state.toggle_scope("digits_1")      # a real change still lays out again
    wait_drawn(qtbot, window)
    assert kinds.count("layout") == 2


def drop_files(widget, paths, pos=None):
    """Deliver a real drag-enter, drag-move and drop of local files to a widget."""
    from PySide6.QtGui import QDragEnterEvent, QDragMoveEvent
    from PySide6.QtWidgets import QApplication

    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(p) for p in paths])
    pos = pos or widget.rect().center()
    enter = QDragEnterEvent(pos, Qt.CopyAction, mime, Qt.LeftButton, Qt.NoModifier)
    QApplication.sendEvent(widget, enter)
    move = QDragMoveEvent(pos, Qt.CopyAction, mime, Qt.LeftButton, Qt.NoModifier)
    QApplication.sendEvent(widget, move)
    drop = QDropEvent(QPointF(pos), Qt.CopyAction, mime, Qt.LeftButton, Qt.NoModifier)
    QApplication.sendEvent(widget, drop)
    return enter.isAccepted() and drop.isAccepted()


@pytest.mark.parametrize("target", ["canvas", "side panel"])
def test_open_by_drop(qtbot, window, fx, target):
    """Dropping on the graph canvas (over a drawn graph, where the scene used to swallow the
    drop) opens the file, as dropping on a side panel does."""
    open_and_wait(qtbot, window, DEMO)
    path = os.path.join(fx, "inception_jpeg.pb")
    before = window.scenes_drawn
    widget = window.canvas.viewport() if target == "canvas" else window.summary_panel
    if target == "canvas":  # right over a node box
        item = next(iter(window.canvas.items_by_id.values()))
        pos = window.canvas.mapFromScene(item.sceneBoundingRect().center())
    else:
        pos = None
    assert drop_files(widget, [path], pos)
    wait_drawn(qtbot, window, before)
    assert window.state.model.path == path
    assert "mixed/" in window.canvas.items_by_id


def test_double_click_expands_and_collapses_a_scope(qtbot, window, fx):
    open_and_wait(qtbot, window, os.path.join(fx, "inception_jpeg.pb"))
    before = window.scenes_drawn
    click_item(qtbot, window, "mixed/", double=True)
    wait_drawn(qtbot, window, before)
    items = window.canvas.items_by_id
    assert items["mixed/"].item.kind == "frame"
    assert "mixed/tower_1/" in items and "mixed/join" in items
    before = window.scenes_drawn
    click_item(qtbot, window, "mixed/", double=True)
    wait_drawn(qtbot, window, before)
    assert window.canvas.items_by_id["mixed/"].item.kind == "scope"
    assert "mixed/join" not in window.canvas.items_by_id


def test_search_enter_and_f3_expand_and_select(qtbot, window, fx):
    open_and_wait(qtbot, window, os.path.join(fx, "inception_jpeg.pb"))
    box = window.search_panel.box
    qtbot.keyClicks(box, "Conv2D")
    before = window.scenes_drawn
    qtbot.keyClick(box, Qt.Key_Return)
    wait_drawn(qtbot, window, before)
    first = window.state.selected
    assert first.endswith("Conv2D") and first in window.canvas.items_by_id
    assert window.canvas.items_by_id[first].selected
    assert window.search_panel.status.text() == f"{len(window.search_panel.matches)} matches"
    qtbot.keyClick(window, Qt.Key_F3)
    qtbot.waitUntil(lambda: window.state.selected != first, timeout=20000)
    wait_drawn(qtbot, window, window.scenes_drawn - 1)
    assert window.state.selected.endswith("Conv2D")
    window.search_panel.regex.setChecked(True)
    box.setText("^mixed/tower_[12]/.*Relu$")
    qtbot.keyClick(box, Qt.Key_Return)
    qtbot.waitUntil(lambda: window.state.selected.endswith("Relu"), timeout=20000)
    assert window.search_panel.matches == ["mixed/tower_1/conv/Relu", "mixed/tower_1/conv_1/Relu"]



def test_ctrl_f_search_as_you_type_and_folded_matches(qtbot, window, fx):
    """Ctrl+F brings the Search panel forward and focuses it even when another tab is on top;
    results follow the typing; a match folded into a badge centres on the node carrying it."""
    open_and_wait(qtbot, window, os.path.join(fx, "inception_jpeg.pb"))
    window.workbench_dock.raise_()  # the Search tab is behind "Inputs and outputs"
    qtbot.waitUntil(lambda: window.search_panel.visibleRegion().isEmpty(), timeout=5000)
    window.canvas.setFocus()
    qtbot.keyClick(window.canvas, Qt.Key_F, Qt.ControlModifier)
    qtbot.waitUntil(lambda: not window.search_panel.visibleRegion().isEmpty(), timeout=5000)
    assert window.search_panel.box.hasFocus()
    qtbot.keyClicks(window.search_panel.box, "weights")
    qtbot.waitUntil(lambda: window.search_panel.results.count() > 0, timeout=10000)
    matches = window.search_panel.matches
    assert "conv/weights" in matches and window.search_panel.status.text().endswith("matches")
    assert window.state.selected is None  # typing lists results, it does not jump
    qtbot.keyClicks(window.search_panel.box, "xyz")
    qtbot.waitUntil(lambda: window.search_panel.status.text() == "no matches", timeout=10000)
    # a constant folded into conv/Conv2D's badge: the jump centres on conv/Conv2D
    window.search_panel.box.setText("conv/weights")
    qtbot.waitUntil(lambda: window.search_panel.matches[:1] == ["conv/weights"], timeout=10000)
    before = window.scenes_drawn
    window.search_panel.results.setCurrentRow(0)  # as a click on the row does
    wait_drawn(qtbot, window, before)
    qtbot.waitUntil(lambda: window.state.selected == "conv/weights", timeout=5000)
    host = window.canvas.items_by_id["conv/Conv2D"]
    centre = window.canvas.mapToScene(window.canvas.viewport().rect().center())
    assert host.sceneBoundingRect().adjusted(-2, -2, 2, 2).contains(centre)


def test_a_search_spanning_attrs_reads_them_in_key_order(qtbot, window, fx):
    """A node's attrs are searched as `key=value` in key order, as the properties panel lists
    them: a query over three of them finds the same nodes in every run (a map's own order
    changed from one process to the next)."""
    open_and_wait(qtbot, window, os.path.join(fx, "inception_jpeg.pb"))
    qtbot.keyClicks(window.search_panel.box, "padding=same strides=[1, 1, 1, 1] use_cudnn")
    qtbot.waitUntil(lambda: window.search_panel.status.text() == "4 matches", timeout=20000)
    assert window.search_panel.matches == ["conv_1/Conv2D", "mixed/tower_0/conv/Conv2D",
                                           "mixed/tower_1/conv/Conv2D",
                                           "mixed/tower_1/conv_1/Conv2D"]


def test_keyboard_walk_and_history(qtbot, window, fx):
    open_and_wait(qtbot, window, os.path.join(fx, "inception_jpeg.pb"))
    window.state.expand_all()
    wait_drawn(qtbot, window, window.scenes_drawn)
    window.jump_to("pool")
    window.canvas.setFocus()
    qtbot.keyClick(window.canvas, Qt.Key_Down)
    assert window.state.selected in ("mixed/tower_0/conv/Conv2D", "mixed/tower_1/conv/Conv2D",
                                       "mixed/tower_2/pool")
    down = window.state.selected
    qtbot.keyClick(window.canvas, Qt.Key_Right)
    assert window.state.selected != down
    qtbot.keyClick(window.canvas, Qt.Key_Up)
    assert window.state.selected == "pool"
    qtbot.keyClick(window, Qt.Key_Left, Qt.AltModifier)
    assert window.state.selected != "pool"
    qtbot.keyClick(window, Qt.Key_Right, Qt.AltModifier)
    assert window.state.selected == "pool"


def test_properties_of_a_constant_and_npy_export(qtbot, window, fx, tmp_path):
    open_and_wait(qtbot, window, os.path.join(fx, "inception_jpeg.pb"))
    window.jump_to("conv/weights")
    qtbot.waitUntil(lambda: window.properties.tensor is not None, timeout=10000)
    tree = window.properties.tree
    rows = {tree.topLevelItem(i).text(0): tree.topLevelItem(i)
            for i in range(tree.topLevelItemCount())}
    assert rows["op"].text(1) == "Const"
    tensor = rows["tensor"]
    stats = {tensor.child(i).text(0): tensor.child(i).text(1) for i in range(tensor.childCount())}
    from inspector.core.loaders import load

    values = load(os.path.join(fx, "inception_jpeg.pb")).graph.node("conv/weights") \
        .attr("value").numpy()
    assert float(stats["min"]) == pytest.approx(values.min(), rel=1e-5)
    assert float(stats["max"]) == pytest.approx(values.max(), rel=1e-5)
    assert stats["zeros"].endswith("%") and "first values" in stats
    assert window.properties.plot.isVisible()
    bars = [i for i in window.properties.plot.plot.getPlotItem().items
            if type(i).__name__ == "BarGraphItem"]
    assert len(bars) == 1      # the histogram was drawn in the chart
    out = window.properties.export_npy(str(tmp_path / "w.npy"))
    np.testing.assert_array_equal(np.load(out), values)
    attrs = rows["attributes"]
    assert any(attrs.child(i).text(0) == "dtype" and attrs.child(i).text(1) == "float"
               for i in range(attrs.childCount()))


def test_exports_write_files_that_parse(qtbot, window, tmp_path):

    open_and_wait(qtbot, window, DEMO)
    for tf_style, name in ((False, "styled.dot"), (True, "tf.dot")):
        window.exporter.dot(tf_style, str(tmp_path / name))
        qtbot.waitUntil(lambda n=name: (tmp_path / n).exists() and not window.tasks.is_busy(),
                        timeout=30000)
        ET.fromstring(render((tmp_path / name).read_text(), "svg"))
    assert (tmp_path / "tf.dot").read_text().startswith("digraph graphname {")
    svg = window.exporter.svg(str(tmp_path / "view.svg"), whole=True)
    root = ET.parse(svg).getroot()
    assert root.tag.endswith("svg") and len(list(root.iter())) > 20
    png = window.exporter.png(True, str(tmp_path / "whole.png"))
    from PySide6.QtGui import QImage

    image = QImage(png)
    assert image.width() > 200 and image.height() > 200


def test_bad_file_shows_a_dialog_and_the_app_keeps_working(qtbot, window, fx):
    window.open_path(os.path.join(fx, "bad", "random.pb"))
    qtbot.waitUntil(lambda: bool(window.last_error), timeout=30000)
    assert "not a TensorFlow model" in window.last_error and "random.pb" in window.last_error
    assert window.error_box.isVisible()
    window.error_box.accept()
    open_and_wait(qtbot, window, DEMO)
    assert "digits_1/" in window.canvas.items_by_id


def test_a_checkpoint_folder_opened_says_which_file_to_open(qtbot, window, tmp_path):
    """A TF1 checkpoint folder as a package ships it (musicnn from PyPI: .meta, .index,
    .data-00000-of-00001, checkpoint) opened as a folder said only "directory holds no
    model" (1366x768 walk): the dialog names the model files in it. Fails on the old code:
    no file named."""
    folder = tmp_path / "MTT_musicnn"
    folder.mkdir()
    for name in (".meta", ".index", ".data-00000-of-00001", "checkpoint", "config.json"):
        (folder / name).write_bytes(b"x")
    window.open_path(str(folder))
    qtbot.waitUntil(lambda: bool(window.last_error), timeout=30000)
    assert window.error_box.isVisible()
    assert "holds no model" in window.last_error
    assert "open a model file in it instead: .meta" in window.last_error
    window.error_box.accept()


def test_a_big_graph_is_drawn_before_its_parameters_are_counted(qtbot, window, fx,
                                                                 monkeypatch):
    import inspector.core.view.view_graph as vg

    monkeypatch.setattr(vg, "DEFER_PARAMS_ABOVE", 3)
    scenes = []
    window.state.scene_changed.connect(scenes.append)
    open_and_wait(qtbot, window, os.path.join(fx, "inception_jpeg.pb"))
    qtbot.waitUntil(lambda: len(scenes) >= 2 and not window.tasks.is_busy(), timeout=60000)
    assert scenes[0].items["mixed/"].params is None
    assert scenes[-1].items["mixed/"].params > 0
    tip = window.canvas.items_by_id["mixed/"].toolTip()
    assert "parameters" in tip and "still being counted" not in tip


def test_a_big_graphs_counts_and_summary_wait_for_its_first_picture_on_screen(
        qtbot, window, fx, monkeypatch):
    """The parameter counts' read of the constants (the layout task's second pass) and the
    summary start once the first picture is painted, not while the GUI thread builds and
    paints it: the threads share one interpreter, and both took the GIL from that picture
    (300k nodes, slow class: ~40 ms of CPU between the scene and its paint). Fails on the
    old code: the counts started at the partial scene, nothing painted yet, and the summary
    at set_scene."""
    from PySide6.QtCore import QEvent, QObject

    import inspector.core.app.marks as marks
    import inspector.core.view.view_graph as vg
    from inspector.core.model.graph import Graph

    monkeypatch.setattr(vg, "DEFER_PARAMS_ABOVE", 3)
    paints = []

    class Paints(QObject):
        def eventFilter(self, obj, event):
            if event.type() == QEvent.Paint and window.canvas.items_by_id:
                paints.append(len(window.canvas.items_by_id))
            return False

    watch = Paints(window)
    window.canvas.viewport().installEventFilter(watch)
    seen = {}
    facts, summary_of = Graph.const_facts, marks.summary_of

    def counted(self, *args, **kwargs):
        seen.setdefault("counts", len(paints))
        return facts(self, *args, **kwargs)

    def summarized(model):
        seen.setdefault("summary", len(paints))
        return summary_of(model)

    monkeypatch.setattr(Graph, "const_facts", counted)
    monkeypatch.setattr(marks, "summary_of", summarized)
    open_and_wait(qtbot, window, os.path.join(fx, "inception_jpeg.pb"))
    qtbot.waitUntil(lambda: window.state.summary is not None and not window.tasks.is_busy(),
                    timeout=60000)
    window.canvas.viewport().removeEventFilter(watch)
    assert seen["counts"] >= 1 and seen["summary"] >= 1, (seen, paints)
    assert window.state.summary is not None


def test_a_first_picture_not_painted_in_time_is_not_held_on_to(qtbot, window, fx, monkeypatch):
    """A big graph's layout task waits at most SCREEN_WAIT for its first picture to be
    painted (a canvas that is not shown paints nothing), then goes on: the controller then
    holds neither that picture nor its wait (review16). Fails on the old code: the
    never-painted first scene stayed in `_on_screen` after the last picture was drawn."""
    import inspector.core.view.view_graph as vg
    import inspector.gui.controllers.canvas_controller as cc

    monkeypatch.setattr(vg, "DEFER_PARAMS_ABOVE", 3)
    monkeypatch.setattr(cc, "SCREEN_WAIT", 0.3)
    ctl, show = window.canvas_ctl, window.canvas.show_scene
    swallowed = []

    def first_never_built(scene, *args, **kwargs):
        if not swallowed:
            swallowed.append(scene)     # as a canvas that paints nothing
            return None
        return show(scene, *args, **kwargs)

    monkeypatch.setattr(window.canvas, "show_scene", first_never_built)
    open_and_wait(qtbot, window, os.path.join(fx, "inception_jpeg.pb"))
    qtbot.waitUntil(lambda: window.state.summary is not None and not window.tasks.is_busy(),
                    timeout=60000)
    assert swallowed and window.state.scene is not swallowed[0]
    assert window.state.scene.items["mixed/"].params > 0
    assert ctl._on_screen is None


def test_a_failed_first_layout_still_brings_the_summary(qtbot, window, monkeypatch):
    """The summary waits for the first scene; when that layout fails the user gets the
    error and the summary anyway."""
    from inspector.core.view.view_graph import ViewModel

    def broken(self, *args, **kwargs):
        raise RuntimeError("no room")

    monkeypatch.setattr(ViewModel, "scene", broken)
    window.open_path(DEMO)
    qtbot.waitUntil(lambda: bool(window.last_error), timeout=30000)
    assert "Layout failed: no room" in window.last_error
    window.error_box.accept()
    qtbot.waitUntil(lambda: window.state.summary is not None, timeout=30000)
    assert window.summary_panel.candidates.count() >= 4


def test_superseded_results_are_dropped_on_the_gui_thread(qtbot):
    import time

    from PySide6.QtCore import QObject

    from inspector.gui.tasks import gui_tasks

    owner = QObject()
    tasks = gui_tasks(owner)
    got = []
    tasks.submit("layout", lambda task: (time.sleep(0.3), "old")[1], got.append)
    tasks.submit("layout", lambda task: "new", got.append)
    qtbot.waitUntil(lambda: not tasks.is_busy(), timeout=5000)
    qtbot.wait(500)
    assert got == ["new"]
    tasks.submit("load", lambda task: (time.sleep(0.2), "x")[1], got.append)
    tasks.cancel()
    qtbot.wait(500)
    assert got == ["new"]


def test_a_task_that_ends_after_its_window_was_deleted_neither_crashes_nor_calls_back(qtbot):
    """A pipeline preview still running when its window is deleted (a test's teardown, the
    user closing the window) posts its result from its thread: the poster must not be a Qt
    child of the window (emitting on it while Qt deletes it crashed the process, ~4 in 15
    runs of test_gui.py under load) and the result is dropped."""
    import threading
    import time

    import shiboken6
    from PySide6.QtCore import QObject

    from inspector.gui.tasks import gui_tasks

    for _ in range(20):
        owner = QObject()
        tasks = gui_tasks(owner)
        assert tasks.poster.parent() is None
        got, started = [], threading.Event()
        tasks.submit("preview", lambda task: (started.set(), time.sleep(0.02), "late")[2],
                     got.append)
        started.wait(5)
        shiboken6.delete(owner)  # deleted while its task runs
        qtbot.wait(80)  # the task ends and posts meanwhile
        assert got == []


def test_cone_highlight_dims_unrelated_nodes(qtbot, window, fx):
    open_and_wait(qtbot, window, os.path.join(fx, "inception_jpeg.pb"))
    window.state.expand_all()
    wait_drawn(qtbot, window, window.scenes_drawn)
    window.jump_to("mixed/tower_0/conv/Conv2D")
    window.cone_action.trigger()
    items = window.canvas.items_by_id
    qtbot.waitUntil(lambda: items["pool"].in_cone, timeout=10000)  # computed off the GUI thread
    assert items["mixed/tower_0/conv/Conv2D"].selected
    assert items["pool"].in_cone and items["softmax"].in_cone
    assert items["mixed/tower_1/conv/Conv2D"].dimmed


def test_saved_model_asks_for_a_signature_showing_its_inputs_and_outputs(qtbot, window, fx):
    from PySide6.QtWidgets import QDialogButtonBox

    window.open_path(os.path.join(fx, "two_signatures"))
    qtbot.waitUntil(lambda: type(window.dialogs.last_box).__name__ == "SignatureDialog",
                    timeout=30000)
    dialog = window.dialogs.last_box
    assert [dialog.keys.item(i).text() for i in range(dialog.keys.count())] == [
        "embed", "serving_default"]
    assert dialog.key() == "serving_default"  # the default is offered first
    shown = dialog.details.toPlainText()
    assert "Inputs" in shown and "Outputs" in shown and "float" in shown
    item = dialog.keys.item(0)
    qtbot.mouseClick(dialog.keys.viewport(), Qt.LeftButton,
                     pos=dialog.keys.visualItemRect(item).center())
    assert dialog.details.toPlainText() != shown  # the other signature's tensors
    before = window.scenes_drawn
    qtbot.mouseClick(dialog.buttons.button(QDialogButtonBox.Open), Qt.LeftButton)
    wait_drawn(qtbot, window, before)
    assert window.state.model.signature.key == "embed"
    # the Summary panel names the outputs as the signature does, with its shapes
    panel = window.summary_panel.candidates
    qtbot.waitUntil(lambda: panel.count() >= 4, timeout=30000)
    rows = [panel.item(i).text().splitlines()[0] for i in range(panel.count())]  # (why below)
    assert any(r.startswith("embedding (Identity") and r.endswith("float [?,3]") for r in rows), \
        rows


def test_a_saved_model_that_cannot_be_frozen_opens_as_stored(qtbot, window, fx, tmp_path,
                                                             monkeypatch):
    import shutil

    path = str(tmp_path / "no_weights")
    shutil.copytree(os.path.join(fx, "two_signatures"), path)
    shutil.rmtree(os.path.join(path, "variables"))
    monkeypatch.setattr(window.dialogs, "choose_signature",
                        lambda name, found, chosen: chosen("serving_default"))
    open_and_wait(qtbot, window, path)
    assert window.state.model.path == path and not window.state.model.frozen
    box = window.dialogs.last_box
    assert box.windowTitle() == "Opened no_weights as stored"
    assert "the weights are still variables" in box.text() and "_UserObject" not in box.text()
    assert window.last_error == ""  # a notice, not an error




def test_constants_toggle_shows_them_as_nodes(qtbot, window, fx):
    open_and_wait(qtbot, window, os.path.join(fx, "inception_jpeg.pb"))
    window.state.expand_all()
    wait_drawn(qtbot, window, window.scenes_drawn)
    items = window.canvas.items_by_id
    assert "conv/weights" not in items
    assert any(b.shape == "[3,3,3,16]" for b in items["conv/Conv2D"].item.badges)
    before = window.scenes_drawn
    qtbot.keyClick(window, Qt.Key_K, Qt.ControlModifier)
    wait_drawn(qtbot, window, before)
    assert window.consts_action.isChecked()
    assert "conv/weights" in window.canvas.items_by_id
    assert not window.canvas.items_by_id["conv/Conv2D"].item.badges


def test_constants_toggled_twice_keep_the_view(qtbot, window, fx):
    open_and_wait(qtbot, window, os.path.join(fx, "inception_jpeg.pb"))
    view = window.state.original_view
    window.consts_action.trigger()          # asks for a view with constants as nodes
    assert window.tasks.is_busy("view") and window.state.original_view is view
    window.consts_action.trigger()          # and back, before that view is built
    assert not window.tasks.is_busy("view")
    qtbot.wait(300)
    assert window.state.original_view is view and not window.consts_action.isChecked()


def test_left_to_right_layout_and_legend(qtbot, window):
    open_and_wait(qtbot, window, DEMO)
    legend = [window.legend.item(i).text() for i in range(window.legend.count())]
    assert any(t.startswith("convolution") for t in legend)
    assert any(t.startswith("constant") for t in legend)
    items = window.canvas.items_by_id
    top_down = items["output"].item.y - items["pixels"].item.y
    before = window.scenes_drawn
    qtbot.keyClick(window, Qt.Key_L, Qt.ControlModifier)
    wait_drawn(qtbot, window, before)
    items = window.canvas.items_by_id
    assert top_down > 0
    assert items["output"].item.x > items["pixels"].item.x + 100
    assert abs(items["output"].item.y - items["pixels"].item.y) < top_down


def test_shift_arrows_pan_and_keys_zoom(qtbot, window, fx):
    open_and_wait(qtbot, window, os.path.join(fx, "inception_jpeg.pb"))
    canvas = window.canvas
    canvas.resetTransform()
    canvas.setFocus()
    bar = canvas.verticalScrollBar()
    start = bar.value()
    qtbot.keyClick(canvas, Qt.Key_Down, Qt.ShiftModifier)
    assert bar.value() > start
    zoom = canvas.zoom_level()
    qtbot.keyClick(canvas, Qt.Key_Minus)
    assert canvas.zoom_level() < zoom


def test_function_library_bodies_open_as_graphs(qtbot, window, fx):
    open_and_wait(qtbot, window, os.path.join(fx, "while_v2.pb"))
    names = sorted(window.state.original_view.graph.functions)
    before = window.scenes_drawn
    assert window.show_function(names[0])
    wait_drawn(qtbot, window, before)
    ops = {n.item.label for n in window.canvas.items_by_id.values() if n.item.kind == "node"}
    assert {"_Arg", "_Retval"} <= ops
    before = window.scenes_drawn
    window.canvas_ctl.show_main_graph()
    wait_drawn(qtbot, window, before)
    assert "result" in window.canvas.items_by_id


def test_properties_list_outputs_with_inferred_shapes(qtbot, window, fx):
    open_and_wait(qtbot, window, os.path.join(fx, "inception_jpeg.pb"))
    qtbot.waitUntil(lambda: window.state.view.shapes is not None, timeout=60000)
    window.jump_to("pool")
    tree = window.properties.tree
    rows = {tree.topLevelItem(i).text(0): tree.topLevelItem(i)
            for i in range(tree.topLevelItemCount())}
    outputs = rows["outputs"]
    assert outputs.childCount() == 1
    assert (outputs.child(0).text(0), outputs.child(0).text(1)) == ("pool:0",
                                                                     "float [1,74,74,16]")


def test_exports_are_offered_beside_the_model_named_after_it(qtbot, window, model, monkeypatch):
    from PySide6.QtWidgets import QFileDialog

    offered = []
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        lambda parent, title, default, *a: offered.append(default) or ("", ""))
    open_and_wait(qtbot, window, model)
    window.exporter.svg()
    window.exporter.png(True)
    window.exporter.dot(False)
    folder = os.path.dirname(model)
    assert offered == [os.path.join(folder, n) for n in (
        "inception.svg", "inception.png", "inception.dot")]
    assert not window.tasks.is_busy() and window.last_error == ""  # cancelled: nothing done


def test_a_model_the_window_lets_go_is_freed_with_its_scenes(qtbot, window, model,
                                                            monkeypatch):
    """Collections leave alone what the app has frozen (gc_policy), so nothing of a model may
    hang on a reference cycle or a stale attribute: after the next model is open, the first
    one's graph and scenes are gone (a 100k-node model stayed, 90 MB, before this)."""
    import gc
    import weakref

    from inspector.gui.canvas.graph_canvas import GraphCanvas

    monkeypatch.setattr(GraphCanvas, "CHUNK_SECONDS", 1e-4)  # many slices: each
    open_and_wait(qtbot, window, model)                         # scheduled the next one
    window.demo.warm()                  # the demo's session (kept the model it warmed)
    monkeypatch.setattr(window.demo, "warm", lambda: None)    # not for the next model
    graph, first_scene = weakref.ref(window.state.model.graph), weakref.ref(window.state.scene)
    scope = next(i for i in window.state.scene.items.values() if i.kind == "scope")
    window.state.set_expanded(scope.id.rstrip("/"), True)
    wait_drawn(qtbot, window)
    window.state.select(scope.id)       # decorations, in slices too
    qtbot.wait(100)
    open_and_wait(qtbot, window, DEMO)
    qtbot.waitUntil(lambda: window.state.summary is not None and not window.tasks.is_busy(),
                    timeout=60000)
    assert window.tasks.wait(60.0)      # quiet tasks too (the warm-up holds its model)
    qtbot.wait(500)     # their answers delivered; TF work starts 300 ms after a first frame
    gc.collect()
    assert graph() is None and first_scene() is None


def test_a_function_s_body_says_which_function_it_is(qtbot, window, fx):
    """View > Function library: the line said "Function NAME (View > Main graph to go
    back)" and at once "14 items shown" over it, so nothing told the body from the main
    graph; it keeps the function's name now, and the main graph's line does not."""
    open_and_wait(qtbot, window, os.path.join(fx, "while_v2.pb"))
    name = sorted(window.state.original_view.graph.functions)[0]
    before = window.scenes_drawn
    assert window.show_function(name)
    wait_drawn(qtbot, window, before)
    qtbot.waitUntil(lambda: not window.tasks.is_busy(), timeout=30000)
    line = window.status_line.label
    qtbot.waitUntil(lambda: "items shown" in line.text(), timeout=10000)
    assert line.text().startswith(f"Function {name} (View > Main graph to go back): ")
    before = window.scenes_drawn
    window.canvas_ctl.show_main_graph()
    wait_drawn(qtbot, window, before)
    qtbot.waitUntil(lambda: "items shown" in line.text() and not window.tasks.is_busy(),
                    timeout=10000)
    assert not line.text().startswith("Function")


def test_properties_show_the_end_of_long_input_names_at_1366x768(qtbot, window, tmp_path):
    """musicnn's Sigmoid listed its input as "model/dense_1…" in a 150 px Property column
    beside a half-empty Value column (1366x768 walk, m06-selected-node.png): the column
    widens for long names (up to 60% of the panel) and a name still too long is cut at
    its start, so its end (the node) shows; the whole name is the row's tooltip. Fails on
    the old code: the column stayed 150 px and cut the name's end."""
    from PySide6.QtWidgets import QStyleOptionViewItem

    from inspector.core.model import protos

    g = protos.GraphDef()
    x = g.node.add(name="x", op="Placeholder")
    x.attr["dtype"].type = 1
    long = "model/batch_normalization_10/cond/FusedBatchNorm_1/Switch"
    for name, op, ins in ((long, "Relu", ["x"]), ("model/dense_1/BiasAdd", "Relu", [long]),
                          ("model/Sigmoid", "Sigmoid", ["model/dense_1/BiasAdd"])):
        node = g.node.add(name=name, op=op, input=ins)
        node.attr["T"].type = 1
    path = tmp_path / "names.pb"
    path.write_bytes(g.SerializeToString())
    window.resize(1366, 768)
    open_and_wait(qtbot, window, str(path))
    tree = window.properties.tree
    for selected, shown in (("model/Sigmoid", "model/dense_1/BiasAdd"),
                            ("model/dense_1/BiasAdd", long)):
        window.state.select(selected)
        qtbot.wait(50)
        inputs = next(tree.topLevelItem(k) for k in range(tree.topLevelItemCount())
                      if tree.topLevelItem(k).text(0) == "inputs")
        row = inputs.child(0)
        assert row.text(0) == shown and row.toolTip(0) == shown
        width = tree.columnWidth(0)
        assert 150 < width <= 0.6 * tree.viewport().width() + 1, width
        option = QStyleOptionViewItem()
        index = tree.indexFromItem(row, 0)
        tree.itemDelegateForIndex(index).initStyleOption(option, index)
        assert option.textElideMode == Qt.ElideLeft      # its end shows


def test_a_search_result_s_tooltip_is_its_whole_name(qtbot, window, tmp_path):
    """In the 290 px Search dock at 1366x768 musicnn's results read "…ization_1/cond/
    FusedBatchNorm/Switch" with no way to read the rest (1366x768 walk, m11-search-
    legend.png): hovering a result shows its whole name. Fails on the old code: no
    tooltip."""
    from PySide6.QtCore import QPoint
    from PySide6.QtGui import QHelpEvent
    from PySide6.QtWidgets import QApplication, QToolTip

    from inspector.core.model import protos

    g = protos.GraphDef()
    x = g.node.add(name="x", op="Placeholder")
    x.attr["dtype"].type = 1
    long = "model/batch_normalization_10/cond/FusedBatchNorm_1/Switch_1"
    relu = g.node.add(name=long, op="Relu", input=["x"])
    relu.attr["T"].type = 1
    path = tmp_path / "names.pb"
    path.write_bytes(g.SerializeToString())
    window.resize(1366, 768)
    open_and_wait(qtbot, window, str(path))
    window.show_panel(window.search_dock)
    panel = window.search_panel
    qtbot.keyClicks(panel.box, "Switch_1")
    qtbot.waitUntil(lambda: panel.results.count() == 1, timeout=10000)
    viewport = panel.results.viewport()
    assert panel.results.fontMetrics().horizontalAdvance(long) > viewport.width()   # cut
    at = panel.results.visualItemRect(panel.results.item(0)).center()
    QApplication.sendEvent(viewport, QHelpEvent(QHelpEvent.ToolTip, at,
                                                viewport.mapToGlobal(at)))
    qtbot.waitUntil(lambda: QToolTip.text() == long, timeout=3000)
    QApplication.sendEvent(viewport, QHelpEvent(QHelpEvent.ToolTip, QPoint(5, 400),
                                                viewport.mapToGlobal(QPoint(5, 400))))


def test_a_big_graphs_likely_outputs_get_the_shapes_its_edges_show(qtbot, window, model,
                                                                  monkeypatch):
    """A graph above output_shapes.LIMIT nodes gets no shape walk for its summary (walk5: the
    100k model's Summary said 'output  float' with no shape while its edges showed it): its
    likely outputs take TensorFlow's shapes of the graph once those are in. The limit is
    lowered here to make the Inception-style model 'big'."""
    from inspector.core.analysis import output_shapes

    monkeypatch.setattr(output_shapes, "LIMIT", 0)
    open_and_wait(qtbot, window, model)
    qtbot.waitUntil(lambda: window.state.view.shapes is not None and
                    window.state.summary is not None, timeout=60000)
    assert window.state.view.shapes["softmax"] == [(1, 10)]
    qtbot.waitUntil(lambda: any(c.name == "softmax" and c.shape == "[1,10]"
                                for c in window.state.summary.outputs), timeout=30000)
    rows = window.summary_panel.candidates      # and the Summary panel says it
    qtbot.waitUntil(lambda: any("softmax" in rows.item(i).text() and "[1,10]" in
                                rows.item(i).text() for i in range(rows.count())),
                    timeout=10000)
