"""The comparison's canvases keep their boxes as pixmaps (GraphCanvas.set_cache_boxes): the
picture is the one an uncached canvas paints at every zoom, a box repaints when its look
changes, a repaint of an unchanged box calls no Python; a built picture is painted before
the next layout task starts (paint_now); the merged view's toggle clears B meanwhile."""

import os

from PySide6.QtWidgets import QApplication, QGraphicsItem

from inspector.core.app.decorations import Decorations
from inspector.gui.canvas.graph_canvas import GraphCanvas

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
INCEPTION = os.path.join(ROOT, "tests", "core", "data", "inception_jpeg.pb")


def scene_of_inception():
    from inspector.core.loaders import load
    from inspector.core.view.view_graph import ViewModel

    view = ViewModel(load(INCEPTION).graph)
    scopes = [p for p in view.hierarchy.scopes if p]
    return view.scene(frozenset({""} | set(scopes[:2])))


def built(qtbot, scene, cache: bool) -> GraphCanvas:
    canvas = GraphCanvas()
    qtbot.addWidget(canvas)
    canvas.set_cache_boxes(cache)
    canvas.resize(700, 520)
    canvas.show()
    qtbot.waitExposed(canvas)
    qtbot.wait(50)
    canvas.show_scene(scene)
    qtbot.waitUntil(lambda: canvas.viewport().updatesEnabled() and bool(canvas.items_by_id))
    return canvas


def look(canvas, ids) -> Decorations:
    return Decorations(selected=ids[3], cone=frozenset(ids[4:6]), dimmed=frozenset(ids[6:8]),
                       tags={ids[8]: "IN"}, diff={ids[9]: "removed", ids[10]: "changed"},
                       badges={ids[10]: "+3 -5 ~2"})


def test_cached_boxes_paint_the_same_picture_at_every_zoom(qtbot):
    scene = scene_of_inception()
    plain, cached = built(qtbot, scene, False), built(qtbot, scene, True)
    assert all(n.cacheMode() == QGraphicsItem.CacheMode.DeviceCoordinateCache
               for n in cached.items_by_id.values())
    assert all(n.cacheMode() == QGraphicsItem.CacheMode.NoCache for n in plain.items_by_id.values())
    ids = list(plain.items_by_id)
    for canvas in (plain, cached):
        canvas.decorate(look(canvas, ids))
    QApplication.processEvents()
    target = plain.items_by_id[ids[5]].sceneBoundingRect().center()
    for zoom in (0.3, 0.5, 1.0, 1.7, 3.1):     # not blurred, not moved, at any zoom
        for canvas in (plain, cached):
            canvas.resetTransform()
            canvas.scale(zoom, zoom)
            canvas.centerOn(target)
        cached.viewport().grab()                 # fills the cache at this zoom
        for _ in range(2):                       # then copied from it
            assert unlike(cached.viewport().grab().toImage(),
                          plain.viewport().grab().toImage()) == [], zoom


def unlike(a, b, tolerance: int = 8) -> list:
    """Pixels whose colour differs by more than `tolerance` in a channel (antialiased edges
    blended through a transparent pixmap differ by a level or two)."""
    assert a.size() == b.size()
    out = []
    for y in range(a.height()):
        for x in range(a.width()):
            p, q = a.pixel(x, y), b.pixel(x, y)
            if p != q and max(abs((p >> s & 255) - (q >> s & 255)) for s in (0, 8, 16)) > \
                    tolerance:
                out.append((x, y))
    return out[:10]


def test_a_cached_box_repaints_when_its_look_changes_and_only_then(qtbot):
    canvas = built(qtbot, scene_of_inception(), True)
    ids = [i for i, n in canvas.items_by_id.items() if n.item.kind == "node"]
    canvas.resetTransform()
    node = canvas.items_by_id[ids[0]]
    canvas.centerOn(node)
    canvas.viewport().grab()
    assert node.drawn                            # painted once, into its pixmap
    node.drawn = None                            # set again by its next paint()
    before = canvas.viewport().grab().toImage()
    assert node.drawn is None                    # unchanged: copied, no Python paint
    canvas.decorate(Decorations(selected=ids[0]))
    after = canvas.viewport().grab().toImage()
    assert node.drawn                            # its look changed: painted again
    box = canvas.mapFromScene(node.sceneBoundingRect()).boundingRect()
    from inspector.gui.canvas.items import RING

    above = 2 * canvas.style.px(7) + 8           # the room kept above a cached box
    margin = RING + 3                            # and around it (a selection ring)
    x, y = box.left() + box.width() // 2, round(box.top() + above + margin)   # its top border
    assert before.pixelColor(x, y) != after.pixelColor(x, y)
    red = after.pixelColor(x, y)
    assert red.red() > 150 and red.green() < 120, red.name()      # red: selected


def test_a_built_picture_is_painted_before_a_task_starts(qtbot):
    canvas = built(qtbot, scene_of_inception(), True)
    assert canvas.unpainted
    canvas.paint_now()                           # synchronously, here
    assert not canvas.unpainted
    assert any(n.drawn for n in canvas.items_by_id.values())
    canvas.paint_now()                           # nothing new: nothing painted
    assert not canvas.unpainted


def test_the_merged_view_clears_b_while_it_is_laid_out(qtbot, window, tmp_path):
    """Regression: B's old picture was painted again at its new width (A hidden) while the
    merged view's task computed; now B says what it waits for until the new one is built."""
    from test_gui_compare import compare_window

    win = compare_window(qtbot, window, tmp_path)
    assert all(n.cacheMode() == QGraphicsItem.CacheMode.DeviceCoordinateCache
               for c in win.canvases.values() for n in c.items_by_id.values())
    canvas = win.canvases["B"]
    win.merged_box.click()
    assert canvas.items_by_id == {} and canvas.waiting == "Laying out the merged view…"
    qtbot.waitUntil(win.ready, timeout=60000)
    assert "conv/BatchNorm (gone)" in canvas.items_by_id
    win.merged_box.click()
    assert canvas.items_by_id == {} and canvas.waiting == "Laying out B…"
    qtbot.waitUntil(win.ready, timeout=60000)
    assert "conv/BatchNorm (gone)" not in canvas.items_by_id and canvas.items_by_id


def test_a_new_scene_keeps_the_boxes_that_only_moved_and_paints_the_same_picture(qtbot):
    """A comparison step opens one scope and closes another: the boxes drawn alike are kept
    (moved, with their pixmaps), and the picture is the one a canvas built afresh paints."""
    from inspector.core.loaders import load
    from inspector.core.view.view_graph import ViewModel

    view = ViewModel(load(INCEPTION).graph)
    first = view.scene(frozenset({"", "conv"}))
    second = view.scene(frozenset({"", "conv_1"}))
    stepped = built(qtbot, first, True)
    before = dict(stepped.items_by_id)
    stepped.show_scene(second)
    qtbot.waitUntil(lambda: stepped.viewport().updatesEnabled())
    kept = [i for i, n in stepped.items_by_id.items() if before.get(i) is n]
    assert "mixed/" in kept and "softmax/" in kept            # moved down, kept
    assert "conv/" in stepped.items_by_id and before["conv/"] is not stepped.items_by_id["conv/"]
    assert set(stepped.items_by_id) == set(second.items)
    assert all(stepped.items_by_id[i].pos().y() == second.items[i].y for i in kept)
    fresh = built(qtbot, second, False)
    ids = list(fresh.items_by_id)
    for canvas in (stepped, fresh):
        canvas.decorate(look(canvas, ids))
        canvas.resetTransform()
        canvas.centerOn(second.items["mixed/"].x, second.items["mixed/"].y)
    QApplication.processEvents()
    assert unlike(stepped.viewport().grab().toImage(), fresh.viewport().grab().toImage()) == []
