"""After Expand all on a 300k-node graph the GUI thread waited ~100 ms (slow class) for the
GIL the layout task held in single C calls: PySide's table of wrappers rebuilt as it grew
past ~173k entries (the edge geometry's QPointF and QRectF, 2-4 an edge or a box, and the
minimap's QRectF, twice: a minimap task for a scene whose layout had prepared it already),
and big temporaries freed in one go at a function's return. The layout now prepares plain
numbers, the minimap draws its boxes once into a picture made in the task, and the big
temporaries go a piece at a time (core.runtime.pieces.emptied). Counted, not timed."""

from __future__ import annotations

import pytest
import shiboken6
from PySide6.QtCore import Qt

from inspector.core.runtime import pieces
from inspector.gui.canvas import edges, minimap
from inspector.gui.canvas.edges import edge_geometry
from inspector.gui.canvas.graph_canvas import GraphCanvas
from inspector.gui.canvas.minimap import Minimap, boxes_picture, minimap_groups, scene_bounds
from tests.fixtures import scale_models
from tests.gui.test_gui_expand_all import _keys, _open


@pytest.fixture(scope="module")
def view():
    from inspector.core.loaders import load
    from inspector.core.view.view_graph import ViewModel

    return ViewModel(load(scale_models.blocks_graph(3_000)).graph)


def _expanded(view):
    from inspector.core.view.expansion import expand_all

    return view.scene(expand_all(view.hierarchy).paths | {""})


def test_edge_tiles_hold_a_few_qt_objects_a_tile_none_an_edge_or_a_label(qapp, view,
                                                                         monkeypatch):
    scene = _expanded(view)
    made = []
    for name in ("QPointF", "QRectF"):
        real = getattr(edges, name)
        monkeypatch.setattr(edges, name, lambda *a, _real=real: made.append(1) or _real(*a))
    before = len(shiboken6.getAllValidWrappers())
    tiles = edge_geometry(scene.edges, scene.items, scene.direction)
    after = len(shiboken6.getAllValidWrappers())
    assert len(tiles) >= 5 and sum(len(t["labels"]) for t in tiles) > 1000
    assert made == []         # before: two QPointF an edge, two QRectF a box, more a label
    assert after - before <= 5 * len(tiles)      # its paths and its rectangle a tile


def test_the_minimap_keeps_numbers_and_draws_its_boxes_once_into_a_picture(
        qtbot, view, monkeypatch):
    scene = _expanded(view)
    groups = minimap_groups(scene)
    assert all(type(r) is tuple for rects in groups.values() for r in rects)
    canvas = GraphCanvas()
    qtbot.addWidget(canvas)
    given, drawn_here = Minimap(canvas), Minimap(canvas)
    for m in (given, drawn_here):
        qtbot.addWidget(m)
        m.resize(260, 160)
        m.show()
        qtbot.waitExposed(m)
    # as the layout and minimap tasks make it, at the minimap's size
    given.show_scene(scene, groups, boxes_picture(groups, scene_bounds(scene),
                                                  given.picture_size()))
    drawn_here.show_scene(scene)
    made = []
    real = minimap.boxes_picture
    monkeypatch.setattr(minimap, "boxes_picture", lambda *a: made.append(1) or real(*a))
    first = given.grab().toImage()
    assert made == []                       # the task's picture: nothing drawn in paint
    second = drawn_here.grab().toImage()
    assert made == [1]
    drawn_here.grab()
    assert made == [1]                      # drawn once, copied at each paint
    assert first == second                  # the same picture either way
    drawn_here.resize(300, 200)
    drawn_here.grab()
    assert made == [1, 1]                   # a new size: drawn again


def test_a_new_picture_shows_the_minimap_its_layout_made_without_a_second_task(
        qtbot, window, tmp_path, monkeypatch):
    _open(qtbot, window, scale_models.blocks_graph(3_000), tmp_path)
    kinds, submit = [], window.tasks.submit
    monkeypatch.setattr(window.tasks, "submit",
                        lambda kind, *a, **k: (kinds.append(kind), submit(kind, *a, **k))[1])
    before = window.minimap.groups
    _keys(qtbot, window, Qt.Key_E)                               # View > Expand all scopes
    assert "layout" in kinds and "minimap" not in kinds, kinds   # before: a minimap task too
    groups = window.minimap.groups
    assert groups is not before
    assert sum(map(len, groups.values())) == len(window.state.scene.items) > 1000


def test_the_layout_s_big_temporaries_are_freed_a_piece_at_a_time(qapp, view, monkeypatch):
    held = [{i: [i] for i in range(1000)}, set(range(1000)), list(range(1000))]
    pieces.emptied(*held)
    assert held == [{}, set(), []]
    got = []
    real = pieces.emptied
    monkeypatch.setattr(pieces, "emptied",
                        lambda *h: (got.append(sum(map(len, h))), real(*h))[1])
    scene = _expanded(view)
    assert len(got) == 2 and sum(got) > len(scene.items)     # the projection's
    edge_geometry(scene.edges, scene.items, scene.direction)
    assert len(got) == 4 and sum(got[2:]) > 2 * len(scene.edges)  # the labels' grids, shapes
