"""View > Expand all and Collapse all on big graphs, as a user does them (their shortcuts):
Expand all opens the levels whose items fit a cap and says what it left collapsed and why (on
a 300k-node graph it drew 180k items: 35 s of layout, 1.5 GB); Collapse all takes the old
picture's items out of the scene in slices (clearing 180k items at once held the GUI thread
3.4 s on the slow class)."""

from __future__ import annotations

from PySide6.QtCore import Qt

from tests.fixtures import scale_models


def _open(qtbot, window, path, tmp_path):
    """A copy: the window keeps a session file beside the model (its open scopes)."""
    import shutil

    path = shutil.copy(path, tmp_path)
    window.open_path(path)
    # and the work that starts 300 ms after the first picture (the preview, shapes) done: a
    # picture built while it runs leaves its "N items shown" unsaid (the line says the work)
    qtbot.waitUntil(lambda: window.state.model is not None and window.scenes_drawn > 0 and
                    window.state.framed is window.state.model and
                    not window.tasks.is_busy(), timeout=60000)


def _keys(qtbot, window, key):
    """Ctrl+Shift+key, then wait for its picture to be drawn and built."""
    drawn = window.scenes_drawn
    qtbot.keyClick(window, key, Qt.ControlModifier | Qt.ShiftModifier)
    qtbot.waitUntil(lambda: window.scenes_drawn > drawn and not window.tasks.is_busy() and
                    window.canvas.viewport().updatesEnabled(), timeout=60000)


def test_expand_all_opens_the_levels_that_fit_and_says_what_it_left_collapsed(
        qtbot, window, monkeypatch, tmp_path):
    from inspector.core.view import expansion

    _open(qtbot, window, scale_models.blocks_graph(3_000), tmp_path)     # 3 scopes of 100 blocks
    h = window.state.view.hierarchy
    top = [c.path for c in h.root.children.values()]
    level = len(h.children("")) + sum(len(h.children(p)) for p in top)
    monkeypatch.setattr(expansion, "ITEMS_AT_MOST", level + 10)
    _keys(qtbot, window, Qt.Key_E)                               # View > Expand all scopes
    items = window.state.scene.items
    assert len(items) == level == len(window.canvas.items_by_id)
    assert set(top) <= window.state.expanded            # the top level is open, not below
    below = [c.path for p in top for c in h.scopes[p].children.values()
             if h.stats[c.path].shows]
    assert below and not set(below) & window.state.expanded
    said = window.status_line.label.text()
    assert f"{level} items shown" in said and f"{len(below):,} scopes below left " \
        "collapsed" in said and f"over {level + 10:,} items" in said, said


def test_expand_all_opens_the_first_top_scopes_when_no_whole_level_fits(
        qtbot, window, monkeypatch, tmp_path):
    from inspector.core.view import expansion

    _open(qtbot, window, scale_models.blocks_graph(3_000), tmp_path)
    h = window.state.view.hierarchy
    top = [c.path for c in h.root.children.values()]
    first = len(h.children("")) + len(h.children(top[0])) + len(h.children(top[1]))
    monkeypatch.setattr(expansion, "ITEMS_AT_MOST", first + 1)
    _keys(qtbot, window, Qt.Key_E)
    assert window.state.expanded == {"", top[0], top[1]}
    assert len(window.state.scene.items) == first
    assert f"opened 2 of the {len(top)} top scopes" in window.status_line.label.text()


def test_expand_all_opens_every_scope_that_fits(qtbot, window, tmp_path):
    """A graph whose every scope fits opens entirely, and nothing is said to be left."""
    _open(qtbot, window, scale_models.blocks_graph(3_000), tmp_path)
    _keys(qtbot, window, Qt.Key_E)
    h = window.state.view.hierarchy
    shown = {s.path for s in h.root.walk() if h.stats[s.path].shows}    # (not constants'
    assert len(shown) == 303 and shown <= window.state.expanded        # scopes: folded)
    assert "left collapsed" not in window.status_line.label.text()


def test_collapse_all_takes_a_big_picture_out_in_slices(qtbot, window, monkeypatch, tmp_path):
    """The old picture's items leave the scene (deleted) a bite per event-loop turn, never all
    in one QGraphicsScene.clear(); the scene then holds the new picture's items only, and a click
    finds no old item."""
    from PySide6.QtCore import QTimer

    from inspector.gui.canvas import graph_canvas
    from inspector.gui.canvas.graph_canvas import GraphCanvas, NodeItem

    _open(qtbot, window, scale_models.flat_graph(10_000), tmp_path)
    _keys(qtbot, window, Qt.Key_E)
    canvas = window.canvas
    many = len(canvas.items_by_id)
    assert many > 5000
    monkeypatch.setattr(GraphCanvas, "RETIRE_AT_ONCE", 100, raising=False)
    monkeypatch.setattr(GraphCanvas, "CHUNK_SECONDS", 1e-4)      # a bite a slice
    scene, cleared, removed, turns = canvas.scene(), [], [0], []
    remove = scene.removeItem
    monkeypatch.setattr(scene, "clear", lambda: cleared.append(1))
    monkeypatch.setattr(scene, "removeItem",
                        lambda item: (removed.__setitem__(0, removed[0] + 1), remove(item)))
    delete = getattr(graph_canvas, "delete", None)
    monkeypatch.setattr(graph_canvas, "delete", lambda item: (
        removed.__setitem__(0, removed[0] + 1), delete(item)), raising=False)
    timer = QTimer()                   # what each event-loop turn removed
    timer.timeout.connect(lambda: turns.append(removed[0]))
    timer.start(0)
    _keys(qtbot, window, Qt.Key_C)                               # View > Collapse all scopes
    timer.stop()
    assert not cleared and removed[0] >= many
    bites = [b - a for a, b in zip(turns, turns[1:])]
    assert max(bites) <= 100 and len([b for b in bites if b]) > many / 100
    nodes = [i for i in scene.items() if isinstance(i, NodeItem)]
    assert len(nodes) == len(canvas.items_by_id) == len(window.state.scene.items)
    assert all(canvas.items_by_id[n.item.id] is n for n in nodes)


def test_the_status_line_s_counts_agree_past_a_thousand(qtbot, window, monkeypatch, tmp_path):
    """Regression: the line read "30301 items shown. Expand all opened 2 levels of scopes
    (30,301 items)": humanize.count put no thousands separator, the rest of the line did."""
    from inspector.core.view import expansion

    _open(qtbot, window, scale_models.blocks_graph(12_000), tmp_path)    # 3 scopes of 400
    h = window.state.view.hierarchy
    top = [c.path for c in h.root.children.values()]
    level = len(h.children("")) + sum(len(h.children(p)) for p in top)
    assert level >= 1000
    monkeypatch.setattr(expansion, "ITEMS_AT_MOST", level + 10)
    _keys(qtbot, window, Qt.Key_E)
    said = window.status_line.label.text()
    assert f"{level:,} items shown" in said and f"({level:,} items)" in said, said


def test_expand_all_that_ends_while_other_work_runs_says_what_it_drew_and_left(
        qtbot, window, monkeypatch, tmp_path):
    """expand3's finding: an Expand all that ended while the preview (or other work) ran left
    the line on the work's words, then "Ready": the item count and what was left collapsed
    were never said."""
    import threading

    from inspector.core.view import expansion

    _open(qtbot, window, scale_models.blocks_graph(3_000), tmp_path)
    h = window.state.view.hierarchy
    level = len(h.children("")) + sum(len(h.children(c.path))
                                      for c in h.root.children.values())
    monkeypatch.setattr(expansion, "ITEMS_AT_MOST", level + 10)
    release = threading.Event()
    window.tasks.submit("slow-work", lambda job: release.wait(30), lambda _: None,
                        label="Working on something else")
    drawn = window.scenes_drawn
    qtbot.keyClick(window, Qt.Key_E, Qt.ControlModifier | Qt.ShiftModifier)
    qtbot.waitUntil(lambda: window.scenes_drawn > drawn and
                    window.canvas.viewport().updatesEnabled(), timeout=60000)
    said = window.status_line.label.text()
    assert f"{level} items shown" in said and "left collapsed" in said, said
    assert "Still running: working on something else" in said, said
    assert window.status_line.label.toolTip() == said       # whole, however narrow the line
    release.set()
    qtbot.waitUntil(lambda: not window.tasks.is_busy(), timeout=30000)
    said = window.status_line.label.text()
    assert f"{level} items shown" in said and "Still running" not in said, said
