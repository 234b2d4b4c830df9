"""The comparison window opens in steps (issue 47: "window opens and lays out" held the GUI
thread 128-194 ms on the slow class, its build, both pictures and the first paint in one
event): the frame is painted first, its panes saying "Drawing A…", then each side's picture
goes in, and where the first view starts (the first changes, 4096 marks walked) is found in
the layout task, not on the GUI thread."""

import threading

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QFileDialog
from test_gui import open_and_wait
from test_gui_compare import folded_copy, private_copy
from test_gui_compare_window import menu_action

from inspector.core.app.comparing import CompareSession
from inspector.gui.compare_window import CompareWindow


class FirstPaints(QObject):
    """Whether a canvas had items at its viewport's first paint."""

    def __init__(self):
        super().__init__()
        self.items_at_first_paint: dict = {}
        self.canvases: dict = {}

    def watch(self, side, canvas) -> None:
        self.canvases[canvas.viewport()] = (side, canvas)
        canvas.viewport().installEventFilter(self)

    def eventFilter(self, watched, event) -> bool:
        if event.type() == QEvent.Paint and watched in self.canvases:
            side, canvas = self.canvases[watched]
            self.items_at_first_paint.setdefault(side, (len(canvas.items_by_id),
                                                        canvas.waiting))
        return False


def test_file_compare_with_paints_the_frame_first_then_shows_both_sides(
        qtbot, window, tmp_path, monkeypatch):
    a, b = private_copy(tmp_path), folded_copy(tmp_path)
    open_and_wait(qtbot, window, a)
    threads = []
    real = CompareSession.changes_drawn
    monkeypatch.setattr(CompareSession, "changes_drawn", lambda self, *args: threads.append(
        threading.current_thread() is threading.main_thread()) or real(self, *args))
    paints = FirstPaints()
    shown = CompareWindow.showEvent

    def watched_show(self, event):       # before the window's first paint
        for side, canvas in self.canvases.items():
            paints.watch(side, canvas)
        shown(self, event)

    monkeypatch.setattr(CompareWindow, "showEvent", watched_show)
    monkeypatch.setattr(CompareWindow, "UNPAINTED_MS", 60000)   # a slow first paint waited for
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *args, **kw: (b, ""))
    ctl = window.compare_ctl
    before = len(ctl.windows)
    menu_action(window, "Compare with…").trigger()          # File > Compare with…
    qtbot.waitUntil(lambda: len(ctl.windows) > before, timeout=60000)
    win = ctl.windows[-1]
    qtbot.addWidget(win)
    qtbot.waitUntil(win.ready, timeout=60000)
    # the frame was painted before any picture was in it, the panes saying what comes
    assert paints.items_at_first_paint == {"A": (0, "Drawing A…"), "B": (0, "Drawing B…")}
    # then both sides: every item of each side's scene drawn, in view, and decorated
    for side, canvas in win.canvases.items():
        assert canvas.isVisible() and canvas.viewport().updatesEnabled(), side
        assert len(canvas.items_by_id) > 1, side
        assert set(win._drawn[side][1][0]) <= set(canvas.items_by_id), side   # marks drawn
        seen = canvas.mapToScene(canvas.viewport().rect()).boundingRect()
        assert any(seen.intersects(node.sceneBoundingRect())
                   for node in canvas.items_by_id.values()), side
    assert win.session.diff.a_label in win.titles["A"].text()
    assert win.session.diff.b_label in win.titles["B"].text()
    assert win.changes.model().rowCount() > 0
    # where each first view starts was found in the layout task, never on the GUI thread
    assert threads and not any(threads)


def test_a_layout_with_a_node_selected_does_not_look_for_the_first_changes(
        qtbot, window, tmp_path, monkeypatch):
    """n / p select a node and lay its side out again: its view goes to the node, so the
    layout task does not walk the marks for the first changes (12-18 ms of a task's CPU per
    side on a 300k pair, competing with the GUI thread for the GIL at every step)."""
    import inspector.gui.compare_window as module
    from test_gui_compare import compare_window

    win = compare_window(qtbot, window, tmp_path)
    win.only.setChecked(False)       # every scope closed: a step opens the selected's
    qtbot.waitUntil(win.ready, timeout=60000)
    walked, laid = [], []
    real, real_layouts = CompareSession.changes_drawn, module.layouts
    monkeypatch.setattr(CompareSession, "changes_drawn",
                        lambda self, side, *a: walked.append(side) or real(self, side, *a))
    monkeypatch.setattr(module, "layouts",
                        lambda session, sides, task: laid.extend(sides) or
                        real_layouts(session, sides, task))
    for _ in range(4):
        win.step(1)
        qtbot.waitUntil(win.ready, timeout=60000)
        assert all(win.session.selected[s] for s in ("A", "B"))
    assert laid                      # the steps laid sides out again (scopes opened)
    assert walked == []
