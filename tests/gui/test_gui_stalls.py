"""What the GUI thread does during a user's actions (issue 47's stall budget), counted rather
than timed: it starts no thread (Thread.start() waits for the new thread to get the GIL:
56-93 ms while another thread computes, bench/stall_watch.py on 300k nodes)."""

from __future__ import annotations

import os
import threading

import pytest

from conftest import DEMO
from test_gui import open_and_wait, wait_drawn


def test_expand_search_select_and_constants_start_no_thread_on_the_gui_thread(
        qtbot, window, fx, monkeypatch):
    open_and_wait(qtbot, window, os.path.join(fx, "inception_jpeg.pb"))
    qtbot.waitUntil(lambda: window.state.summary is not None and not window.tasks.is_busy(),
                    timeout=60000)
    on_gui = []
    real = threading.Thread.start

    def start(self):
        if threading.current_thread() is threading.main_thread():
            on_gui.append(self.name)
        real(self)

    monkeypatch.setattr(threading.Thread, "start", start)
    before = window.scenes_drawn
    window.state.set_expanded("mixed", True)                    # a layout
    wait_drawn(qtbot, window, before)
    searches = window.search.searches
    window.search_panel.box.setText("Conv2D")                   # search as you type
    qtbot.waitUntil(lambda: window.search.searches > searches, timeout=20000)
    window.state.select("mixed/join")
    before = window.scenes_drawn
    window.consts_action.trigger()                              # another view, its layout
    wait_drawn(qtbot, window, before)
    qtbot.waitUntil(lambda: not window.tasks.is_busy(), timeout=60000)
    assert on_gui == []


@pytest.fixture
def app_start(monkeypatch):
    """charts_after_first_picture(make_window) as the app's start calls it, from the module
    state of a fresh process (not the one an earlier test left: an earlier window's later
    work, run after that test ended, set start_order._ready and made this test's panels
    build at once, unseen by run_now), put back afterwards."""
    from inspector.gui.panels import chart_slot
    from inspector.gui.startup import start_order

    for module, fresh in ((chart_slot, {"_deferred": False, "_waiting": [], "_thread": None,
                                        "_busy": None}),
                          (start_order, {"_deferred": False, "_waiting": {}, "_released": False,
                                         "_ready": False, "_preload": [], "_busy": None,
                                         "_until": 0.0})):
        for name, value in fresh.items():
            assert hasattr(module, name), name
            monkeypatch.setattr(module, name, value)
    from inspector.gui.app import charts_after_first_picture

    return charts_after_first_picture


def _main_window(qtbot, tmp_path, monkeypatch, start):
    from PySide6.QtCore import QSettings

    from inspector.gui.main_window import MainWindow

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.IniFormat)
    window = start(lambda: MainWindow(settings))
    qtbot.addWidget(window)
    window.show()
    return window


def test_charts_and_later_panels_wait_while_a_quiet_request_computes(qtbot, tmp_path,
                                                                      monkeypatch, app_start):
    """The app's start (charts_after_first_picture): pyqtgraph's charts and the later panels
    are made while no task's work runs, a quiet one (search as you type) included: made
    during a search of 300k nodes, a chart stalled the GUI thread ~100 ms."""
    from PySide6.QtWidgets import QWidget

    from inspector.gui.panels.chart_slot import ChartSlot
    from inspector.gui.startup import start_order

    made_busy, built_busy = [], []
    real_make, real_run = ChartSlot._make, start_order.run_now
    monkeypatch.setattr(ChartSlot, "_make", lambda slot: (
        made_busy.append(release.is_set() is False), real_make(slot))[1])
    monkeypatch.setattr(start_order, "run_now", lambda slot: (
        built_busy.append(release.is_set() is False), real_run(slot))[1])
    window = _main_window(qtbot, tmp_path, monkeypatch, app_start)
    shown = QWidget()
    qtbot.addWidget(shown)
    slot = ChartSlot(parent=shown)      # a chart on screen, waiting for pyqtgraph
    shown.show()
    assert slot.plot is None
    release = threading.Event()
    # a quiet request computes (the search index of a big graph) from before the first picture
    window.tasks.submit("search", lambda job: release.wait(30), lambda _: None, quiet=True)
    open_and_wait(qtbot, window, DEMO)
    qtbot.wait(4000)        # idle a second + warm-up + import: done by now were it idle
    assert slot.plot is None and made_busy == [] and built_busy == []
    release.set()
    qtbot.waitUntil(lambda: slot.plot is not None and bool(built_busy), timeout=30000)
    assert not any(made_busy) and not any(built_busy)
    window.tasks.cancel()
    window.tasks.wait(10.0)


def test_input_is_watched_on_the_window_not_by_an_application_wide_filter(
        qtbot, tmp_path, monkeypatch, app_start):
    """An application-wide event filter put every event of every object through Python
    (paints, timers, posted events; wrappers and enums made for Qt objects Python had not
    seen): while a task computed, each waited for the GIL, 100-350 ms stalls in the settle
    of blocks 100k/300k. The quiet watch sees the input that reaches the window's QWindow."""
    from PySide6.QtCore import QCoreApplication, QPoint, Qt
    from PySide6.QtTest import QTest

    app_wide = []
    real = QCoreApplication.installEventFilter
    monkeypatch.setattr(QCoreApplication, "installEventFilter",
                        lambda app, f: (app_wide.append(type(f).__name__), real(app, f))[1])
    window = _main_window(qtbot, tmp_path, monkeypatch, app_start)
    release = threading.Event()       # keeps the window busy: the watch goes on watching
    window.tasks.submit("search", lambda job: release.wait(30), lambda _: None, quiet=True)
    open_and_wait(qtbot, window, DEMO)
    qtbot.wait(500)                   # the first picture is painted: the watch starts
    assert app_wide == []
    from inspector.gui.startup.quiet_watch import QuietWatch

    watch = window.findChild(QuietWatch)
    qtbot.waitUntil(lambda: watch.watched is not None, timeout=20000)
    before = watch.inputs
    handle = window.windowHandle()
    QTest.mouseMove(handle, QPoint(40, 40))
    QTest.keyClick(handle, Qt.Key_Escape)
    assert watch.inputs >= before + 2
    release.set()
    window.tasks.cancel()
    window.tasks.wait(10.0)


def test_the_windows_events_leave_python_once_it_has_shown(qtbot, tmp_path, monkeypatch):
    """The workspace tidies the dock tab bars at the window's first show; its filter stayed
    and put every later event of the window through Python (each a wait for the GIL while a
    task computes: seen in a 300k mark's stall)."""
    from PySide6.QtCore import QSettings

    from inspector.gui.main_window import MainWindow
    from inspector.gui.workspace import Workspace

    calls = []
    real = Workspace.eventFilter
    monkeypatch.setattr(Workspace, "eventFilter",
                        lambda self, obj, event: (calls.append(event.type()),
                                                  real(self, obj, event))[1])
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))
    window = MainWindow(QSettings(str(tmp_path / "s.ini"), QSettings.IniFormat))
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    shown = len(calls)
    assert shown
    for size in ((1000, 700), (1366, 768)):
        window.resize(*size)
        qtbot.wait(50)
    window.setWindowTitle("another title")
    qtbot.wait(50)
    assert len(calls) == shown


def _unlisted_big_graph(qtbot, window):
    """A 30k-node graph open with its consumer index not made yet (as before the summary's
    task made it), and the Properties panel's "consumers" row (a function: it is remade)."""
    from tests.fixtures.scale_models import blocks_graph

    open_and_wait(qtbot, window, blocks_graph(30_000))
    qtbot.waitUntil(lambda: window.state.summary is not None and not window.tasks.is_busy(),
                    timeout=120000)
    graph = window.state.view.graph
    graph._consumers = None          # as before the summary's task made it
    panel = window.properties

    def consumers_row():
        rows = [panel.tree.topLevelItem(i) for i in range(panel.tree.topLevelItemCount())]
        return next(r for r in rows if r.text(0) == "consumers")
    return graph, consumers_row


def test_a_click_on_a_big_graph_makes_no_consumer_index_on_the_gui_thread(
        qtbot, window, monkeypatch):
    """Before the summary's task has made it, the first click on a node of a 300k-node graph
    sorted every input for its consumers on the GUI thread (~90 ms): it is made in a task,
    the Properties panel lists them when it is done."""
    from inspector.core.model import graph_index

    graph, consumers_row = _unlisted_big_graph(qtbot, window)
    made_on_gui = []
    real = graph_index.consumer_csr
    monkeypatch.setattr(graph_index, "consumer_csr", lambda g: (made_on_gui.append(
        threading.current_thread() is threading.main_thread()), real(g))[1])
    name = graph.name_list[1000]
    window.state.select(name)
    qtbot.waitUntil(lambda: consumers_row().text(1) != "listing…", timeout=30000)
    assert made_on_gui == [False]
    expected = graph.consumers(name)
    row = consumers_row()
    assert row.text(1) == str(len(expected)) and expected
    assert [row.child(i).text(0) for i in range(row.childCount())] == \
        [e.dst for e in expected[:200]]


def test_consumers_that_cannot_be_listed_say_why(qtbot, window, monkeypatch):
    """The consumer index's task passed `lambda exc: None`: a failure left "listing…" in the
    Properties panel for good. It says it there and on the status line."""
    from inspector.core.model import graph_index

    graph, consumers_row = _unlisted_big_graph(qtbot, window)

    def fails(_graph):
        raise MemoryError("no room for the consumer index")
    monkeypatch.setattr(graph_index, "consumer_csr", fails)
    window.state.select(graph.name_list[1000])
    qtbot.waitUntil(lambda: consumers_row().text(1) != "listing…", timeout=30000)
    assert consumers_row().text(1) == "not listed: no room for the consumer index"
    # said as the outcome of the click (state.tell): work running or starting after it (the
    # opening's shape inference, under load) shows its progress, then the line comes back
    # to it, not to "Ready" (review17: the line read "Inferring tensor shapes…" here)
    said = "Cannot list the consumers: no room for the consumer index"
    qtbot.waitUntil(lambda: window.status_label.text().startswith(said), timeout=30000)
    assert window.status_line.kept == said
