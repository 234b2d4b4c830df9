"""The window fits a laptop: minimum sizes with every panel open and a long pipeline, the
default size on small and large screens, Fit to window, the minimap of a tall graph."""

import pytest
from PySide6.QtCore import QPointF, QRect, QRectF, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDockWidget, QTableWidget
from test_gui import open_and_wait
from test_gui_workbench import wait_preview

from inspector.core.model import protos
from inspector.gui.main_window import fitting_size

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

TEN_STEPS = ("fold_constants(ignore_errors=true) fold_batch_norms fold_old_batch_norms "
             "remove_nodes(op=Identity,op=CheckNumerics) merge_duplicate_nodes "
             "sort_by_execution_order quantize_weights round_weights(num_steps=256) "
             "remove_device strip_unused_nodes")


def test_the_window_fits_1280x720_with_every_panel_and_ten_steps(qtbot, window, model):
    open_and_wait(qtbot, window, model)
    for dock in window.findChildren(QDockWidget):
        dock.show()
    window.workbench.set_marks(["Mul"], ["softmax"])
    before = window.minimumSizeHint()
    window.pipeline.apply_text(TEN_STEPS)
    assert len(window.workbench.steps) == 10
    wait_preview(qtbot, window, 10)
    qtbot.wait(50)
    hint = window.minimumSizeHint()
    assert hint.width() <= 1280 and hint.height() <= 720, hint
    assert hint.height() <= before.height() and hint.width() <= before.width()  # never grows
    window.resize(1280, 720)  # and at that size the status bar (progress, Cancel) is inside
    qtbot.wait(50)
    assert window.statusBar().geometry().bottom() < window.height()
    assert window.preview_panel.check_button.isVisibleTo(window)


@pytest.mark.parametrize("screen, expect", [((1366, 768), (1297, 729)),
                                            ((1920, 1080), (1500, 1000)),
                                            ((1024, 600), (972, 570))])
def test_the_default_size_fits_the_screen(screen, expect):
    assert fitting_size(QRect(0, 0, *screen)) == expect
    assert fitting_size(None) == (1500, 1000)


def tall_graph(path, n=380):
    """A chain without name scopes, drawn flat: as tall as graphs get (from 400 nodes in one
    scope the view groups them, see core/view/grouping.py)."""
    g = protos.GraphDef()
    g.node.add(name="input", op="Placeholder").attr["dtype"].type = 1
    for i in range(n):
        node = g.node.add(name=f"relu_{i}", op="Relu", input=[f"relu_{i - 1}" if i else "input"])
        node.attr["T"].type = 1
    path.write_bytes(g.SerializeToString())
    return str(path)


def test_fit_shows_all_of_a_tall_graph_and_never_enlarges_a_small_one(qtbot, window, tmp_path,
                                                                      demo_model):
    open_and_wait(qtbot, window, tall_graph(tmp_path / "tall.pb"))
    canvas = window.canvas
    whole = canvas.scene().itemsBoundingRect()
    shown = canvas.mapToScene(canvas.viewport().rect()).boundingRect()
    assert not shown.contains(whole)  # first look: the start, readable, not a thin line
    assert canvas.zoom_level() >= 0.2
    window.setFocus()
    qtbot.wait(200)  # docks settle (a later resize of the view would move what Fit showed)
    qtbot.keyClick(window, Qt.Key_0, Qt.ControlModifier)  # Fit to window
    shown = canvas.mapToScene(canvas.viewport().rect()).boundingRect()
    pixel = 1.0 / canvas.zoom_level()  # rounding to whole pixels, in scene units
    assert shown.adjusted(-pixel, -pixel, pixel, pixel).contains(whole), (shown, whole)

    open_and_wait(qtbot, window, demo_model)
    qtbot.keyClick(window, Qt.Key_0, Qt.ControlModifier)
    assert canvas.zoom_level() <= 1.0  # a 4-box graph at natural size, not cartoon-large


def test_the_minimap_always_shows_the_whole_graph_and_jumps_in_one_click(qtbot, window,
                                                                          tmp_path):
    """Issue 38.4: it was a magnified crop of a tall graph that followed the view, the
    visible-area frame filling it; it must be an overview with the visible area in it."""
    open_and_wait(qtbot, window, tall_graph(tmp_path / "tall.pb"))
    minimap, canvas = window.minimap, window.canvas
    window.minimap_dock.show()
    minimap.resize(260, 160)
    drawn = minimap._transform().mapRect(minimap.bounds)
    assert QRectF(minimap.rect()).adjusted(-1, -1, 1, 1).contains(drawn), drawn
    frame = minimap._transform().mapRect(
        canvas.mapToScene(canvas.viewport().rect()).boundingRect())
    assert frame.height() < 0.5 * drawn.height()      # the view shows part: so does its frame
    target = QPointF(drawn.center().x(), drawn.bottom() - 2)   # near the graph's end
    qtbot.mouseClick(minimap, Qt.LeftButton, pos=target.toPoint())
    centre = canvas.mapToScene(canvas.viewport().rect().center())
    want = minimap._transform().inverted()[0].map(target)
    assert abs(centre.y() - want.y()) < 0.1 * minimap.bounds.height()
    assert centre.y() > 0.7 * minimap.bounds.height()   # one click went to the end


def test_help_lists_the_shortcuts_and_f11_goes_full_screen(qtbot, window):
    window.setFocus()
    qtbot.keyClick(window, Qt.Key_Slash, Qt.ControlModifier)
    qtbot.waitUntil(lambda: getattr(window, "help_dialog", None) is not None)
    table = window.help_dialog.findChild(QTableWidget)
    rows = {table.item(r, 2).text(): table.item(r, 1).text() for r in range(table.rowCount())}
    assert rows["Find…"] == "Ctrl+F" and rows["Fit to window"] == "Ctrl+0"
    assert rows["Full screen"].startswith("F11")
    assert rows["mark the selected node as an input / output"] == "I / O"  # canvas keys too
    window.help_dialog.close()
    full = next(a for a in window.findChildren(QAction) if a.text() == "F&ull screen")
    assert QKeySequence("F11") in full.shortcuts()
    full.trigger()
    qtbot.waitUntil(window.isFullScreen)
    full.trigger()
    qtbot.waitUntil(lambda: not window.isFullScreen())


def test_an_empty_window_says_how_to_start(qtbot, window):
    """No model: the canvas shows how to open one, the preview hides its bare chart."""
    canvas = window.canvas
    image = canvas.viewport().grab().toImage()
    blank = image.pixel(2, 2)
    inked = sum(image.pixel(x, y) != blank for y in range(image.height())
                for x in range(0, image.width(), 2))
    assert inked > 200  # the hint's text
    assert canvas.EMPTY_HINT.startswith("No model open") and "Ctrl+O" in canvas.EMPTY_HINT
    assert not window.preview_panel.chart.isVisibleTo(window)


def test_counts_say_1_node_and_2_nodes():
    from inspector.core.model.humanize import count

    assert [count(n, "node") for n in (0, 1, 2)] == ["0 nodes", "1 node", "2 nodes"]
    assert count(1, "match", "matches") == "1 match" and count(3, "match", "matches") == \
        "3 matches"


def test_charts_arrive_after_the_first_picture_when_deferred(qtbot, tmp_path, monkeypatch,
                                                             model):
    """The app's start: the window is made without pyqtgraph's charts; the first picture
    starts their import on a thread, then the summary's op chart is drawn in them."""
    from PySide6.QtCore import QSettings

    from inspector.gui import app
    from inspector.gui.startup import start_order
    from inspector.gui.main_window import MainWindow
    from inspector.gui.panels import chart_slot

    for name, value in (("_deferred", False), ("_thread", None), ("_waiting", [])):
        monkeypatch.setattr(chart_slot, name, value)
    for name, value in (("_deferred", False), ("_waiting", {}), ("_released", False),
                        ("_ready", False)):        # the start's deferrals end with this test
        monkeypatch.setattr(start_order, name, value)
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.IniFormat)
    win = app.charts_after_first_picture(lambda: MainWindow(settings))
    qtbot.addWidget(win)
    win.show()
    chart = win.summary_panel.chart
    assert chart.plot is None and chart in chart_slot._waiting
    open_and_wait(qtbot, win, model)
    qtbot.waitUntil(lambda: chart.plot is not None and win.state.summary is not None,
                    timeout=30000)
    qtbot.waitUntil(lambda: any(type(i).__name__ == "BarGraphItem"
                                for i in chart.plot.getPlotItem().items), timeout=10000)
    qtbot.waitUntil(lambda: not chart_slot.pending(), timeout=10000)   # one per turn
    assert chart.plot.isVisibleTo(chart)
    hidden = win.overlays_panel.histogram      # in a tab not shown: made when drawn
    assert hidden.plot is None
    hidden.draw(lambda plot, pg: plot.setTitle("drawn"))
    assert hidden.plot is not None
    win.tasks.cancel()
    win.tasks.wait(10.0)


def test_deferred_charts_wait_for_a_quiet_moment(qtbot, monkeypatch):
    """Made while a task runs, a chart's many short calls into Qt each wait for the task's
    thread to hand over the GIL: charts wait until no task runs, except one with something
    to draw, which waits WAIT_WHILE_BUSY at most."""
    import threading

    from inspector.gui.panels import chart_slot

    for name, value in (("_deferred", True), ("_thread", None), ("_waiting", []),
                        ("WAIT_WHILE_BUSY", 0.6)):
        monkeypatch.setattr(chart_slot, name, value)
    shown, drawn = chart_slot.ChartSlot(), chart_slot.ChartSlot()
    for slot in (shown, drawn):
        qtbot.addWidget(slot)
        slot.show()
    drawn.draw(lambda plot, pg: plot.setTitle("needed"))    # before pyqtgraph is there
    busy = threading.Event()
    busy.set()
    chart_slot.import_in_background(busy.is_set)
    qtbot.waitUntil(lambda: chart_slot._imported(), timeout=30000)
    qtbot.wait(250)
    assert shown.plot is None and drawn.plot is None       # a task runs: nothing made yet
    qtbot.waitUntil(lambda: drawn.plot is not None, timeout=5000)   # waited, then made
    assert drawn.plot.getPlotItem().titleLabel.text == "needed"
    qtbot.wait(300)
    assert shown.plot is None                               # nothing to draw: still waits
    busy.clear()
    qtbot.waitUntil(lambda: shown.plot is not None, timeout=5000)


def test_the_model_given_at_start_opens_once_the_window_has_painted(qtbot, tmp_path, model):
    """The app's start: the load's thread would hold the GIL in turns with the window's first
    paint (a 60 ms pause instead of 15 ms), so the model is opened after that paint; a window
    that never paints (hidden) opens it after the wait."""
    from PySide6.QtCore import QEvent, QObject, QSettings

    from inspector.gui import app
    from inspector.gui.main_window import MainWindow

    def make():
        win = MainWindow(QSettings(str(tmp_path / "s.ini"), QSettings.IniFormat))
        qtbot.addWidget(win)
        return win

    win, events = make(), []

    class Paints(QObject):
        def eventFilter(self, obj, event):
            if event.type() == QEvent.Paint and obj is win:
                events.append("paint")
            return False

    watcher = Paints(win)
    win.installEventFilter(watcher)
    win.loader.open = lambda path, signature=None: events.append(("open", path))
    app.open_once_painted(win, model)
    win.show()
    assert events == []                       # nothing opened before the event loop runs
    qtbot.waitUntil(lambda: ("open", model) in events, timeout=5000)
    assert events.index("paint") < events.index(("open", model))
    qtbot.wait(1200)                          # the fallback timer does not open it again
    assert events.count(("open", model)) == 1

    hidden, opened = make(), []
    hidden.loader.open = lambda path, signature=None: opened.append(path)
    app.open_once_painted(hidden, model, wait_ms=300)
    qtbot.wait(100)
    assert opened == []
    qtbot.waitUntil(lambda: opened == [model], timeout=3000)


def test_layouts_run_on_their_own_cache_and_the_view_keeps_it(qtbot, window, model,
                                                               monkeypatch):
    """Issue 34.4: a layout task projects into its own copy of the view's LayoutCache; the
    view adopts it on the GUI thread, so opening a scope again lays nothing out again, and
    the edge geometry prepared by the task reaches the canvas beside the scene."""
    from test_gui import click_item, wait_drawn

    import inspector.core.view.projection as projection

    open_and_wait(qtbot, window, model)
    view = window.state.view
    assert view.cache.frozen and view.cache.layouts       # adopted: the first picture's
    shown = []
    show_scene = window.canvas.show_scene
    monkeypatch.setattr(window.canvas, "show_scene",
                        lambda scene, done=None, geometry=None:
                        (shown.append(geometry), show_scene(scene, done, geometry)))
    before = window.scenes_drawn
    click_item(qtbot, window, "mixed/", double=True)      # open the scope
    wait_drawn(qtbot, window, before)
    assert "mixed/join" in window.canvas.items_by_id and shown[-1] is not None
    assert any(key[0] == "mixed" for key in view.cache.layouts) and view.cache.frozen
    calls = []
    layered = projection.layered_layout
    monkeypatch.setattr(projection, "layered_layout",
                        lambda *a: calls.append(a[0]) or layered(*a))
    for _ in range(2):                                    # close it, open it again
        before = window.scenes_drawn
        click_item(qtbot, window, "mixed/", double=True)
        wait_drawn(qtbot, window, before)
    assert "mixed/join" in window.canvas.items_by_id and calls == []


def test_fit_of_a_graph_too_big_to_fit_shows_its_start_with_boxes_still_seen(qtbot, window):
    """The 300k-node model with every scope open: Ctrl+0 scaled it to 1/8000 (boxes of a
    hundredth of a pixel, a thin line) and every paint drew all 180k boxes: the window froze
    7.8 s, then 1-4 s at each repaint. Fit now stops at the smallest zoom, from the graph's
    start, and says so (the minimap shows all of it). Here: a 10k-node model, 6k boxes."""
    from inspector.gui.canvas.items import NodeItem
    from tests.fixtures import scale_models

    open_and_wait(qtbot, window, scale_models.blocks_graph(10_000))
    before = window.scenes_drawn
    window.setFocus()
    qtbot.keyClick(window, Qt.Key_E, Qt.ControlModifier | Qt.ShiftModifier)  # expand all
    # and the last picture built: the first one drawn can be the layout's early one (no
    # parameter counts yet), the final one then still going in (seen under CPU load)
    qtbot.waitUntil(lambda: window.scenes_drawn > before and not window.tasks.is_busy() and
                    window.canvas.viewport().updatesEnabled(), timeout=120000)
    canvas = window.canvas
    boxes = [i for i in canvas.items_by_id.values() if isinstance(i, NodeItem)]
    assert len(boxes) > 5000
    qtbot.keyClick(window, Qt.Key_0, Qt.ControlModifier)  # Fit to window
    shown = canvas.mapToScene(canvas.viewport().rect()).boundingRect()
    seen = [i for i in boxes if shown.intersects(i.sceneBoundingRect())]
    assert canvas.zoom_level() >= 0.00999      # the smallest zoom (zoom out stops there)
    assert 0 < len(seen) < len(boxes) / 2
    assert any(i.item.id.startswith("stage_0/") for i in seen)     # its start
    assert "Too big to fit" in window.status_label.text()


def one_scope_graph(path) -> str:
    """Everything in one top scope, as musicnn's "model": an input, 14 towers of 4 ops side by
    side, their sum, then a chain of 30 ops (wider and taller than the view at 100 %)."""
    g = protos.GraphDef()
    x = g.node.add(name="model/input", op="Placeholder")
    x.attr["dtype"].type = 1
    ends = []
    for t in range(14):
        last = "model/input"
        for k, op in enumerate(("Relu", "Tanh", "Sigmoid", "Elu")):
            node = g.node.add(name=f"model/tower_{t}/{op.lower()}_{k}", op=op, input=[last])
            node.attr["T"].type = 1
            last = node.name
        ends.append(last)
    total = g.node.add(name="model/sum", op="AddN", input=ends)
    total.attr["T"].type = 1
    total.attr["N"].i = len(ends)
    last = total.name
    for k in range(30):
        node = g.node.add(name=f"model/post_{k}", op="Relu", input=[last])
        node.attr["T"].type = 1
        last = node.name
    path.write_bytes(g.SerializeToString())
    return str(path)


def test_a_scope_opened_shows_what_it_holds_not_an_empty_corner(qtbot, window, tmp_path):
    """Note13: musicnn's one top scope, double-clicked, showed the empty corner of its frame
    until Fit (the view kept its place in the scene). Now the frame is brought into view,
    zoomed out no further than a readable scale, from its start: its title and top box."""
    from test_gui import click_item, wait_drawn

    window.resize(1366, 768)
    open_and_wait(qtbot, window, one_scope_graph(tmp_path / "one.pb"))
    canvas = window.canvas
    assert list(canvas.items_by_id) == ["model/"] and canvas.zoom_level() == 1.0
    before = window.scenes_drawn
    click_item(qtbot, window, "model/", double=True)
    wait_drawn(qtbot, window, before)
    frame = canvas.items_by_id["model/"]
    assert frame.item.kind == "frame"
    shown = canvas.mapToScene(canvas.viewport().rect()).boundingRect()
    assert not shown.contains(frame.sceneBoundingRect())          # too big to see whole
    assert canvas.zoom_level() >= canvas.MIN_FIT_SCALE - 1e-6     # readable
    top = canvas.items_by_id["model/input"].sceneBoundingRect()
    assert shown.contains(top), (shown, top)                       # its top box
    title = QRectF(frame.item.x, frame.item.y, 120, 20)
    assert shown.intersects(title)                                 # and its title
    seen = [i for i, n in canvas.items_by_id.items()
            if n.item.kind != "frame" and shown.contains(n.sceneBoundingRect())]
    assert len(seen) >= 10, seen
    # closed again: the box is in view (the scene shrank around it)
    before = window.scenes_drawn
    click_item(qtbot, window, "model/", double=True)
    wait_drawn(qtbot, window, before)
    shown = canvas.mapToScene(canvas.viewport().rect()).boundingRect()
    assert shown.contains(canvas.items_by_id["model/"].sceneBoundingRect())


def test_enter_opens_and_closes_the_selected_scope_and_brings_it_into_view(qtbot, window,
                                                                          tmp_path):
    """8bd47d9 said Double-click, Enter and the context menu open a scope into view; Enter
    did nothing (note14). A click selects the box, Enter opens it (brought into view as a
    double-click does), Enter again closes it; the arrow keys still walk the graph."""
    from test_gui import click_item, wait_drawn

    window.resize(1366, 768)
    open_and_wait(qtbot, window, one_scope_graph(tmp_path / "one.pb"))
    canvas = window.canvas
    click_item(qtbot, window, "model/")
    assert window.state.selected == "model/" and window.focusWidget() is canvas
    before = window.scenes_drawn
    qtbot.keyClick(window.focusWidget(), Qt.Key_Return)
    wait_drawn(qtbot, window, before)
    assert "model" in window.state.expanded
    frame = canvas.items_by_id["model/"]
    assert frame.item.kind == "frame"
    shown = canvas.mapToScene(canvas.viewport().rect()).boundingRect()
    assert shown.contains(canvas.items_by_id["model/input"].sceneBoundingRect())
    before = window.scenes_drawn
    qtbot.keyClick(window.focusWidget(), Qt.Key_Enter, Qt.KeypadModifier)   # the keypad's
    wait_drawn(qtbot, window, before)
    assert "model" not in window.state.expanded
    assert canvas.items_by_id["model/"].item.kind == "scope"
    # on a node Enter opens nothing; the arrows walk from it as before
    before = window.scenes_drawn
    window.jump_to("model/input")       # (as Search and Go do)
    wait_drawn(qtbot, window, before)
    assert window.state.selected == "model/input" and "model" in window.state.expanded
    qtbot.keyClick(window.focusWidget(), Qt.Key_Return)
    qtbot.wait(200)
    assert "model" in window.state.expanded and window.state.selected == "model/input"
    qtbot.keyClick(window.focusWidget(), Qt.Key_Down)
    assert window.state.selected.startswith("model/tower_")
