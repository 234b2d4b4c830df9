"""Menu actions show their result (issue 38.21): Auto-tour and the Phone menu bring their
panel (and tab) to the front; clicking a tour stop keeps the Tour panel in front (a stop's
overlay does not raise its dock, a card stop covers the canvas only); leaving Present puts
back the user's own view."""

import json

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from test_gui import click_item, open_and_wait

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def menu_action(window, text) -> QAction:
    return next(a for a in window.findChildren(QAction) if a.text() == text)


def in_front(window, widget) -> bool:
    """Is `widget` what the user sees at its centre (not a hidden tab, not covered)?"""
    shown = widget.visibleRegion().boundingRect() if widget.isVisible() else None
    if shown is None or shown.isEmpty():
        return False
    at = widget.mapTo(window, shown.center())
    top = window.childAt(at)
    return top is widget or widget.isAncestorOf(top)


def click_stop(qtbot, window, row) -> None:
    stops = window.tour_panel.stops
    rect = stops.visualItemRect(stops.item(row))
    qtbot.mouseClick(stops.viewport(), Qt.LeftButton, pos=rect.center())


def test_auto_tour_and_phone_menus_show_their_panels(qtbot, window, model):
    open_and_wait(qtbot, window, model)
    window.properties_dock.raise_()           # the Tour tab is behind Properties
    assert not in_front(window, window.tour_panel)
    menu_action(window, "&Auto-tour").trigger()
    assert in_front(window, window.tour_panel)
    qtbot.waitUntil(lambda: len(window.tour.tour.stops) > 0 and not window.tasks.is_busy(),
                    timeout=120000)
    assert in_front(window, window.tour_panel)
    window.preview_dock.raise_()              # the Phone tab is behind Preview
    window.mobile_panel.tabs.setCurrentIndex(0)
    monkey = []
    window.mobile.convert = lambda allow_io: monkey.append(allow_io)   # no conversion run
    menu_action(window, "Con&vert four variants").trigger()
    assert monkey == [False]
    assert in_front(window, window.mobile_panel)
    assert window.mobile_panel.tabs.currentIndex() == 1       # Conversion preview
    window.preview_dock.raise_()
    menu_action(window, "Check &TFLite compatibility").trigger()
    assert in_front(window, window.mobile_panel)
    assert window.mobile_panel.tabs.currentIndex() == 0
    qtbot.waitUntil(lambda: bool(window.state.overlay.compat) and not window.tasks.is_busy(),
                    timeout=30000)


def test_clicking_stops_keeps_the_tour_panel_in_front(qtbot, window, model, tmp_path):
    open_and_wait(qtbot, window, model)
    window.workbench.set_marks(["Mul"], ["softmax"])
    window.tour_dock.raise_()
    menu_action(window, "&Auto-tour").trigger()
    qtbot.waitUntil(lambda: len(window.tour.tour.stops) > 1 and not window.tasks.is_busy(),
                    timeout=120000)
    trace = tmp_path / "trace.json"           # timings: a new stop records that overlay
    trace.write_text(json.dumps({"traceEvents": [{"ph": "X", "name": "Softmax", "dur": 50.0,
                                                  "args": {"name": "softmax"}}]}))
    window.overlays.import_timings(str(trace))
    assert window.state.overlay.mode == "timings"
    window.tour_dock.raise_()
    window.tour_panel.stops.setCurrentRow(-1)
    window.tour.current = -1
    qtbot.mouseClick(window.tour_panel.add_button, Qt.LeftButton)
    qtbot.mouseClick(window.overlays_panel.mode_buttons["none"], Qt.LeftButton)
    window.tour_dock.raise_()
    stops = window.tour.tour.stops
    timed_row = next(i for i, s in enumerate(stops) if s.overlay == "timings")
    card_row = next(i for i, s in enumerate(stops) if s.kind == "card")
    click_stop(qtbot, window, timed_row)
    qtbot.waitUntil(lambda: not window.tasks.is_busy(), timeout=30000)
    assert window.state.overlay.mode == "timings"     # the stop's overlay is shown...
    assert in_front(window, window.tour_panel)        # ...and the Tour panel stays in front
    click_stop(qtbot, window, card_row)
    qtbot.waitUntil(lambda: window.card_panel.isVisible(), timeout=60000)
    assert in_front(window, window.tour_panel)        # the card covers the canvas only
    assert in_front(window, window.card_panel)
    click_stop(qtbot, window, 0)
    qtbot.waitUntil(lambda: not window.card_panel.isVisible(), timeout=10000)
    # Demo > Model card still covers the whole window
    menu_action(window, "Model &card").trigger()
    qtbot.waitUntil(lambda: window.card_panel.isVisible(), timeout=60000)
    assert window.card_panel.geometry() == window.rect()


def test_leaving_present_restores_the_users_view(qtbot, window, model):
    open_and_wait(qtbot, window, model)
    menu_action(window, "&Auto-tour").trigger()
    qtbot.waitUntil(lambda: len(window.tour.tour.stops) > 2 and not window.tasks.is_busy(),
                    timeout=120000)
    before_drawn = window.scenes_drawn
    window.state.set_expanded("mixed", True)           # the user's own view
    qtbot.waitUntil(lambda: window.scenes_drawn > before_drawn and
                    not window.tasks.is_busy(), timeout=30000)
    click_item(qtbot, window, "mixed/tower_1/")
    canvas = window.canvas
    canvas.resetTransform()
    canvas.scale(0.8, 0.8)
    canvas.centerOn(canvas.items_by_id["mixed/tower_1/"])
    qtbot.wait(50)
    zoom = canvas.zoom_level()
    centre = canvas.mapToScene(canvas.viewport().rect().center())
    expanded, selected = set(window.state.expanded), window.state.selected
    docks = {d.windowTitle() for d in window.findChildren(type(window.tour_dock))
             if d.isVisible()}
    window.setFocus()
    qtbot.keyClick(window, Qt.Key_F5)
    qtbot.waitUntil(lambda: window.tour.presenting, timeout=5000)
    for _ in range(3):
        qtbot.keyClick(canvas, Qt.Key_PageDown)
        qtbot.waitUntil(lambda: not window.tasks.is_busy(), timeout=30000)
    assert set(window.state.expanded) != expanded or window.state.selected != selected
    qtbot.keyClick(canvas, Qt.Key_Escape)
    qtbot.waitUntil(lambda: not window.tour.presenting and not window.tasks.is_busy(),
                    timeout=30000)
    qtbot.wait(300)
    assert set(window.state.expanded) == expanded
    assert window.state.selected == selected
    assert canvas.zoom_level() == pytest.approx(zoom, rel=0.01)
    now = canvas.mapToScene(canvas.viewport().rect().center())
    assert abs(now.x() - centre.x()) < 3 and abs(now.y() - centre.y()) < 3, (now, centre)
    assert {d.windowTitle() for d in window.findChildren(type(window.tour_dock))
            if d.isVisible()} == docks
    assert in_front(window, canvas.viewport())


def test_menu_actions_with_nothing_to_do_say_so(qtbot, window, model):
    """walk16, every menu item once: Edit > Undo and Redo on a freshly opened model, Go > Back
    and Forward with no earlier selection, View > Zoom to selection with nothing selected
    did nothing and said nothing (the status line kept its old words). Each says now why it
    did nothing, as Edit > Trace and Mark already did; with something to do, it does it."""
    open_and_wait(qtbot, window, model)
    said = []
    window.state.message.connect(said.append)
    for text, words in (("&Undo", "Nothing to undo (Undo takes back changes to the marks "
                                  "and the pipeline)"),
                        ("&Redo", "Nothing to redo"),
                        ("&Back", "Nothing to go back to (Back returns to the node "
                                  "selected before)"),
                        ("F&orward", "Nothing to go forward to"),
                        ("Zoom to &selection", "Select a node or a scope to zoom to it")):
        said.clear()
        menu_action(window, text).trigger()
        assert said == [words], (text, said)
        assert window.status_label.text() == words
    window.workbench.set_marks(["Mul"], ["softmax"])      # something to undo: undone
    said.clear()
    menu_action(window, "&Undo").trigger()
    assert window.workbench.outputs == [] and not any("Nothing" in s for s in said)
    window.state.select("softmax")
    window.state.select("Mul")
    said.clear()
    menu_action(window, "&Back").trigger()
    assert window.state.selected == "softmax" and not any("Nothing" in s for s in said)


def test_a_save_that_fails_names_the_file(qtbot, window, model, tmp_path, monkeypatch):
    """walk16: File > Save optimized graph… into a folder that does not exist said 'Could not
    save: output directory does not exist', naming no file (the command line names it); with
    a pipeline whose last step failed it said 'that pipeline is no longer previewed; wait
    for the preview to finish and try again', which no wait mends."""
    from PySide6.QtWidgets import QFileDialog
    from test_gui_workbench import wait_preview

    open_and_wait(qtbot, window, model)
    window.workbench.set_marks(["Mul"], ["softmax"])
    errors = []
    window.error_shown.connect(errors.append)
    window.workbench.set_text("fold_constants")     # fails here: Mul is not a Placeholder
    wait_preview(qtbot, window, 1)
    qtbot.waitUntil(lambda: not window.tasks.is_busy(), timeout=60000)
    asked = []
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        staticmethod(lambda *a, **k: asked.append(1) or ("", "")))
    menu_action(window, "&Save optimized graph…").trigger()
    assert errors[-1] == ("Could not save: the pipeline's last step failed: fold_constants: "
                          "input 'Mul' is a Mul, not a Placeholder (run strip_unused_nodes "
                          "first)") and not asked     # not 'no longer previewed; wait...'
    window.workbench.set_text("quantize_weights")
    wait_preview(qtbot, window, 1)
    qtbot.waitUntil(lambda: not window.tasks.is_busy(), timeout=60000)
    assert not window.state.rows[-1].error, window.state.rows[-1].error
    target = str(tmp_path / "missing" / "optimized.pb")
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        staticmethod(lambda *a, **k: (target, "")))
    errors.clear()
    menu_action(window, "&Save optimized graph…").trigger()
    qtbot.waitUntil(lambda: bool(errors) and not window.tasks.is_busy(), timeout=60000)
    assert errors[-1] == f"Could not save: {target}: output directory does not exist"
