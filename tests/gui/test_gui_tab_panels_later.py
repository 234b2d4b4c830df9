"""The panels whose tab sits behind another's at start (Search behind Summary, Overlays behind
Properties, Legend behind Minimap) and the model card are made after the first picture, when
their tab is first clicked or when first read, not with the window; driven as a user: click
the tab, type, choose, read; each shows what happened before it existed."""

from __future__ import annotations

import shutil
from dataclasses import replace

from conftest import ROOT
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QTabBar
from test_gui_later_panels import _window, deferred  # noqa: F401  (a fixture)

BEHIND = ("search_panel", "search", "overlays_panel", "overlays", "legend")


def _waiting(win) -> set:
    return {name for name in BEHIND + ("card_panel", "card") if name not in win.__dict__}


def _opened(qtbot, win, tmp_path):
    model = tmp_path / "demo_digits.pb"
    shutil.copy(f"{ROOT}/inspector/core/app/demo_model/demo_digits.pb", model)
    win.show()
    win.open_path(str(model))
    qtbot.waitUntil(lambda: win.scenes_drawn >= 1, timeout=20000)     # the first picture
    return win


def _tab(win, title: str):
    return next(((bar, i) for bar in win.findChildren(QTabBar) if bar.isVisible()
                 for i in range(bar.count()) if bar.tabText(i) == title), None)


def _click_tab(qtbot, win, title: str) -> None:
    """Click the dock tab named `title` as a user does (once the window shows it)."""
    qtbot.waitUntil(lambda: _tab(win, title) is not None, timeout=10000)
    bar, i = _tab(win, title)
    qtbot.mouseClick(bar, Qt.LeftButton, pos=bar.tabRect(i).center())


def test_tabs_behind_others_wait_for_the_first_picture(qtbot, tmp_path, deferred):  # noqa: F811
    win = _window(qtbot, tmp_path)
    win.show()                                       # the explore task: tabs in front built
    qtbot.wait(50)
    assert _waiting(win) == set(BEHIND) | {"card_panel", "card"}
    assert win.search_dock.widget().widget() is None
    assert win.summary_dock.widget().widget() is win.summary_panel
    win.resize(900, 700)                             # the card follows the window: not made
    assert "card_panel" in _waiting(win)
    deferred._run_waiting()                          # the first picture is up (release)
    qtbot.waitUntil(lambda: not _waiting(win) & set(BEHIND), timeout=5000)
    assert win.search_dock.widget().widget() is win.search_panel
    assert win.overlays_dock.widget().widget() is win.overlays_panel
    assert win.legend_dock.widget().widget() is win.legend
    assert {"card_panel", "card"} <= _waiting(win)   # no dock: made when first read


def test_the_search_tab_clicked_makes_the_panel_and_it_finds(qtbot, tmp_path,
                                                              deferred):  # noqa: F811
    win = _opened(qtbot, _window(qtbot, tmp_path), tmp_path)
    assert "search_panel" not in win.__dict__
    _click_tab(qtbot, win, "Search")
    assert win.search_dock.widget().widget() is win.search_panel
    qtbot.waitUntil(lambda: win.search_panel.isVisible(), timeout=2000)
    qtbot.keyClicks(win.search_panel.box, "Relu")
    qtbot.waitUntil(lambda: win.search.searches >= 1, timeout=10000)
    matches = list(win.search_panel.matches)
    assert matches and all("relu" in m.lower() or win.state.view.graph.node(m).op == "Relu"
                           for m in matches)
    qtbot.keyClick(win.search_panel.box, Qt.Key_Return)            # Enter: the first result
    qtbot.waitUntil(lambda: win.state.selected == matches[0], timeout=5000)


def test_find_makes_the_search_panel_and_types_into_it(qtbot, tmp_path, deferred):  # noqa: F811
    win = _window(qtbot, tmp_path)
    win.show()
    action = next(a for m in win.menuBar().actions() if m.menu()
                  for a in m.menu().actions() if a.text() == "&Find…")
    action.trigger()                                 # Ctrl+F
    assert win.search_dock.widget().widget() is win.search_panel
    assert win.search_dock.isVisible()


def test_the_overlays_tab_made_after_an_overlay_was_chosen_shows_it(qtbot, tmp_path,
                                                                    deferred):  # noqa: F811
    win = _opened(qtbot, _window(qtbot, tmp_path), tmp_path)
    win.state.set_overlay(replace(win.state.overlay, mode="compat"))   # e.g. a tour stop
    qtbot.waitUntil(lambda: win.workspace.task == "phone" and not win.tasks.is_busy(),
                    timeout=20000)                   # its Phone panel came forward, computed
    qtbot.wait(200)
    win.workspace.switch("explore")                  # the user goes back
    assert "overlays_panel" not in win.__dict__
    _click_tab(qtbot, win, "Overlays")
    panel = win.overlays_panel
    assert win.overlays_dock.widget().widget() is panel
    assert panel.mode_buttons["compat"].isChecked()                    # caught up
    assert panel.mode_buttons["compat"].isEnabled()                    # a GraphDef
    assert panel.legend.text()
    none = panel.mode_buttons["none"]
    qtbot.waitUntil(lambda: none.isVisible() and none.width() > 20, timeout=2000)
    qtbot.mouseClick(none, Qt.LeftButton, pos=QPoint(8, none.height() // 2))  # its circle
    assert win.state.overlay.mode == "none"


def test_the_legend_tab_made_after_the_open_lists_the_views_colours(qtbot, tmp_path,
                                                                    deferred):  # noqa: F811
    from inspector.gui.panels.legend import Legend

    win = _opened(qtbot, _window(qtbot, tmp_path), tmp_path)
    assert "legend" not in win.__dict__
    _click_tab(qtbot, win, "Legend")
    assert win.legend_dock.widget().widget() is win.legend
    rows = win.legend.rows()
    assert rows                                      # the open model's categories
    made_with_the_model = Legend(win.state)          # one that saw the model open
    qtbot.addWidget(made_with_the_model)
    made_with_the_model.refresh()
    assert rows == made_with_the_model.rows()


def test_the_model_card_is_made_by_its_menu_action(qtbot, tmp_path, deferred):  # noqa: F811
    win = _opened(qtbot, _window(qtbot, tmp_path), tmp_path)
    qtbot.waitUntil(lambda: win.state.summary is not None, timeout=20000)
    assert "card_panel" not in win.__dict__
    action = next(a for m in win.menuBar().actions() if m.menu()
                  for a in m.menu().actions() if a.text() == "Model &card")
    action.trigger()                                 # Ctrl+M
    qtbot.waitUntil(lambda: "card_panel" in win.__dict__ and win.card_panel.isVisible(),
                    timeout=60000)
    assert win.card_panel.geometry() == win.rect()   # over the whole window
    assert win.card.cards_shown == 1
    qtbot.keyClick(win.card_panel, Qt.Key_Escape)
    assert not win.card_panel.isVisible()


def test_the_pipeline_panel_made_later_shows_the_sessions_pipeline_and_edits_it(
        qtbot, tmp_path, deferred):  # noqa: F811
    """Its controller is made with the window (the session, the preview); the panel, hidden
    in the Optimize task, when that task is chosen."""
    win = _opened(qtbot, _window(qtbot, tmp_path), tmp_path)
    qtbot.waitUntil(lambda: win.pipeline.ready, timeout=20000)
    win.state.workbench.set_text("strip_unused_nodes")  # e.g. restored from a session
    assert "pipeline_panel" not in win.__dict__
    _click_tab(qtbot, win, "Optimize")                   # the task bar's tab
    panel = win.pipeline_panel
    assert win.pipeline_dock.widget().widget() is panel
    assert panel.text.toPlainText() == win.state.workbench.text_lines
    assert "strip_unused_nodes" in panel.text.toPlainText()
    assert panel.op_types == sorted(win.state.model.graph.op_counts())
    panel.text.setPlainText("")                          # an empty text applied: refused
    qtbot.mouseClick(panel.apply_text, Qt.LeftButton)
    assert "no transforms" in panel.text_error.text()
    panel.text.setPlainText("fold_constants")            # another pipeline applied
    qtbot.mouseClick(panel.apply_text, Qt.LeftButton)
    qtbot.waitUntil(lambda: [s.name for s in win.state.workbench.steps] == ["fold_constants"],
                    timeout=5000)


def _texts(widget) -> list:
    return [widget.item(i).text() for i in range(widget.count())]


def test_the_inputs_and_outputs_panel_made_later_shows_what_came_before_it(
        qtbot, tmp_path, deferred):  # noqa: F811
    """Its controller is made with the window (the strip preview and the traces go on without
    the panel); the panel, behind Pipeline in the Optimize task, when its tab is clicked: it
    shows the marks, the strip preview and the traced feed points that came before it, and
    its buttons work."""
    from inspector.core.app.ports import suggested_ports

    win = _opened(qtbot, _window(qtbot, tmp_path), tmp_path)
    qtbot.waitUntil(lambda: win.state.summary is not None, timeout=20000)
    output = suggested_ports(win.state.summary)[1][0]
    win.jump_to(output)
    win.canvas.setFocus()
    qtbot.keyClick(win.canvas, Qt.Key_O)                 # mark it as an output
    win.marks.trace(output)          # its feed points, traced by the controller (Edit >
    # Trace and the context menu bring the panel forward: test_gui_workbench covers them)
    qtbot.waitUntil(lambda: win.state.strip is not None and bool(win.marks.proposals),
                    timeout=20000)
    assert "workbench_panel" not in win.__dict__
    _click_tab(qtbot, win, "Optimize")
    _click_tab(qtbot, win, "Inputs and outputs")
    panel = win.workbench_panel
    assert win.workbench_dock.widget().widget() is panel
    assert _texts(panel.marks) == [f"output: {output}"]
    assert panel.info.text().startswith(f"Stripping keeps {len(win.state.strip.kept)} ")
    assert _texts(panel.proposals) and len(_texts(panel.proposals)) == len(win.marks.proposals)
    assert panel.proposals.isVisibleTo(panel)
    qtbot.mouseClick(panel.suggest, Qt.LeftButton)        # Use suggested inputs and outputs
    ins, outs = suggested_ports(win.state.summary)
    assert (win.state.workbench.inputs, win.state.workbench.outputs) == (ins, outs)
    assert _texts(panel.marks) == [f"input: {n}" for n in ins] + [f"output: {n}" for n in outs]
