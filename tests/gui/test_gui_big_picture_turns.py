"""A big picture is built, decorated and let go in event-loop turns that each hold the GUI
thread briefly: after its last box, the edge tiles, then the scene's index, then on_done with
the view's first paint, then the decorations, each in a turn of its own; the turns chained with 1 ms timers (a chain of 0 ms ones ran several pieces
back to back before any other timer got a turn: Expand all on 300k held the GUI thread ~165 ms
on the slow class in 8 such pieces). The timers are captured here and run one at a time, so
the turns are counted, not timed."""

from __future__ import annotations

import pytest

from inspector.core.app.decorations import Decorations
from inspector.gui.canvas import decorating, graph_canvas, let_go
from inspector.gui.canvas.graph_canvas import GraphCanvas

from tests.gui.test_gui_canvas_cache import scene_of_inception


class Turns:
    """Stands in for QTimer in a module: singleShot keeps (delay, callable) for run_one."""

    def __init__(self):
        self.queue: list = []

    def singleShot(self, delay, *args):     # noqa: N802 (Qt's name; a context object first)
        self.queue.append((delay, args[-1]))

    def run_one(self):
        delay, fn = self.queue.pop(0)
        fn()
        return delay


@pytest.fixture
def turns(monkeypatch):
    t = Turns()
    for module in (graph_canvas, decorating, let_go):
        monkeypatch.setattr(module, "QTimer", t)
    monkeypatch.setattr(GraphCanvas, "RETIRE_AT_ONCE", 3)      # every picture is "big"
    return t


def _canvas(qtbot) -> GraphCanvas:
    canvas = GraphCanvas()
    qtbot.addWidget(canvas)
    canvas.resize(600, 400)
    return canvas


def _drawn(qtbot, turns, monkeypatch):
    """A canvas with a picture drawn (every turn run), decorated 5 boxes a slice; its ids."""
    canvas = _canvas(qtbot)
    canvas.show_scene(scene_of_inception())
    while turns.queue:
        turns.run_one()
    monkeypatch.setattr(GraphCanvas, "DECORATE_SLICE", 5)
    return canvas, list(canvas.items_by_id)


def test_edge_tiles_and_on_done_take_turns_of_their_own(qtbot, turns):
    canvas, done = _canvas(qtbot), []
    canvas.show_scene(scene_of_inception(), lambda: done.append(
        (bool(canvas._edge_layers), canvas.viewport().updatesEnabled())))
    seen = []                      # per turn: (edge tiles in, on_done ran, updates on)
    while turns.queue and not done:
        turns.run_one()
        seen.append((bool(canvas._edge_layers), bool(done),
                     canvas.viewport().updatesEnabled()))
    assert done == [(True, True)]
    # a turn ended with the edge tiles in and on_done not run, the view still not painting
    # (before: the tiles, the paint's start and on_done in one turn)
    assert (True, False, False) in seen
    assert seen[-1] == (True, True, True)


def test_the_scene_indexes_a_big_picture_in_a_turn_before_its_first_paint_and_on_done(
        qtbot, turns):
    """The scene indexes its items once a turn adds none: after Expand all on 300k all 30k
    in one go (~9 ms of CPU at full speed), inside the first paint, behind on_done in the
    same turn. A query in a turn of its own indexes them first."""
    canvas, done, asked = _canvas(qtbot), [], []
    gs = canvas.scene()
    items = gs.items
    gs.items = lambda *a: (asked.append((len(canvas.items_by_id), bool(canvas._edge_layers),
                                         bool(done))), items(*a))[1]
    canvas.show_scene(scene_of_inception(), lambda: done.append(len(asked)))
    turns_after = []
    while turns.queue and not done:
        turns.run_one()
        turns_after.append((len(asked), bool(done)))
    count = len(scene_of_inception().items)
    assert asked[:1] == [(count, True, False)]     # every box and tile in, before on_done
    assert (1, False) in turns_after and turns_after[-1] == (1, True)   # its own turn


def test_a_big_picture_is_decorated_from_the_next_turn_on_in_1_ms_timer_turns(
        qtbot, turns, monkeypatch):
    canvas, ids = _drawn(qtbot, turns, monkeypatch)
    assert len(ids) > 12
    canvas.decorate(Decorations(selected=ids[0], dimmed=frozenset(ids[-3:])))
    first = canvas.items_by_id[ids[0]]
    assert not getattr(first, "selected", False)     # not in the caller's turn (before: it was)
    delays = []
    while turns.queue:
        delays.append(turns.run_one())
    assert first.selected and canvas.items_by_id[ids[-1]].dimmed
    assert len(delays) == -(-len(ids) // 5)            # one slice a turn
    assert set(delays) == {1}                          # before: 0 ms


def test_letting_go_goes_in_1_ms_timer_turns(turns):
    from PySide6.QtCore import QRectF

    boxes = [QRectF(0, 0, i, i) for i in range(5)]
    let_go.let_go([boxes])
    delays = []
    while turns.queue:
        delays.append(turns.run_one())
    assert not boxes and set(delays) == {1}            # before: 0 ms


def test_a_decoration_of_a_picture_replaced_before_its_turn_touches_none_of_its_boxes(
        qtbot, turns, monkeypatch):
    """CI (test_gui_menu_results): 'Internal C++ object (NodeItem) already deleted' from a
    decoration slice whose picture had been replaced and its boxes deleted in between."""
    canvas, ids = _drawn(qtbot, turns, monkeypatch)
    canvas.decorate(Decorations(selected=ids[0]))      # its slices wait for their turns
    canvas.show_scene(scene_of_inception())            # a new picture: the old boxes go
    while turns.queue:                                 # (before: the old slices ran on
        turns.run_one()                                # deleted boxes and raised)
    assert not any(getattr(b, "selected", False) for b in canvas.items_by_id.values())


def test_a_box_deleted_between_two_decoration_slices_is_passed_over(qtbot, turns, monkeypatch):
    """CI dry run 7 under load: a box of the picture being decorated was already deleted at
    its slice (the cause: a deleted canvas's slices, see the test below); the slice passes
    it over instead of raising in the event loop and leaving the rest undecorated."""
    from shiboken6 import delete

    canvas, ids = _drawn(qtbot, turns, monkeypatch)
    canvas.decorate(Decorations(selected=ids[-1]))
    delete(canvas.items_by_id[ids[7]])
    while turns.queue:
        turns.run_one()
    assert canvas.items_by_id[ids[-1]].selected


@pytest.mark.parametrize("deleted_during", ["the decoration", "the build"])
def test_a_canvas_deleted_mid_way_runs_none_of_its_later_turns(qtbot, monkeypatch,
                                                               deleted_during):
    """The cause of CI's 'Internal C++ object (NodeItem) already deleted' in
    test_gui_menu_results (whose own picture of 52 boxes is decorated in one go): the test
    before it (test_gui_layout, Expand all on 10k: 6k boxes, 7 slices) ended while its
    decoration slices were still due (1 ms timers; under load they spread out), its window
    and canvas were deleted, and the next test's event loop ran those slices on the deleted
    boxes. A build's slices did the same on the deleted canvas. The turns' timers now belong
    to the canvas and die with it. Real timers here."""
    from PySide6.QtWidgets import QApplication
    from shiboken6 import delete

    monkeypatch.setattr(GraphCanvas, "RETIRE_AT_ONCE", 3)
    monkeypatch.setattr(GraphCanvas, "DECORATE_SLICE", 5)
    canvas = GraphCanvas()               # (not the test's to close: deleted below)
    canvas.resize(600, 400)
    ran = []
    for name in ("_decorate_slice", "_build_slice"):
        real = getattr(GraphCanvas, name)
        monkeypatch.setattr(GraphCanvas, name,
                            lambda self, *a, _real=real, _name=name:
                            (ran.append(_name), _real(self, *a))[1])
    built = []
    canvas.show_scene(scene_of_inception(), lambda: built.append(1))
    if deleted_during == "the decoration":
        qtbot.waitUntil(lambda: bool(built), timeout=10000)
        canvas.decorate(Decorations(selected=list(canvas.items_by_id)[0]))
    ran.clear()
    delete(canvas)                       # as the window's deletion at a test's end does
    for _ in range(20):
        QApplication.processEvents()
        qtbot.wait(5)
    assert ran == []                     # before: the slices ran on, and raised
