"""The scopes a user opened are part of the model's session: opened by a double-click on the
canvas, kept in MODEL.inspector.json with the marks and the pipeline, and open again (drawn)
when the window is closed and the model opened again at 1366x768, with the marks, the
pipeline and the panels. (Before, the marks and pipeline came back and the graph showed
every scope closed.)"""

from __future__ import annotations

import json
import shutil

from PySide6.QtCore import QSettings, Qt

from inspector.core.app.demo_model import DEMO_MODEL


def _open(qtbot, tmp_path, path):
    from inspector.gui.main_window import MainWindow

    win = MainWindow(QSettings(str(tmp_path / "settings.ini"), QSettings.IniFormat))
    qtbot.addWidget(win)
    win.resize(1366, 768)
    win.show()
    win.open_path(path)
    qtbot.waitUntil(lambda: win.state.model is not None and win.scenes_drawn > 0 and
                    not win.tasks.is_busy(), timeout=30_000)
    return win


def test_the_scopes_left_open_come_back_with_the_session(qtbot, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))
    path = str(tmp_path / "digits.pb")
    shutil.copy(str(DEMO_MODEL), path)
    win = _open(qtbot, tmp_path, path)
    scope = next(i for i in win.state.scene.items.values() if i.kind == "scope")
    box = win.canvas.items_by_id[scope.id]
    at = win.canvas.mapFromScene(box.sceneBoundingRect().center())
    drawn = win.scenes_drawn
    qtbot.mouseDClick(win.canvas.viewport(), Qt.LeftButton, pos=at)      # the user's way
    qtbot.waitUntil(lambda: win.scenes_drawn > drawn and not win.tasks.is_busy(),
                    timeout=30_000)
    opened = scope.id[:-1]
    assert win.state.expanded == {"", opened}
    graph = win.state.model.graph
    win.workbench.set_marks([graph.name_list[0]], [graph.name_list[-1]])
    win.show_panel(win.workspace.docks["sizes"])
    qtbot.waitUntil(lambda: not win.pipeline._save_timer.isActive(), timeout=10_000)
    with open(path + ".inspector.json") as fh:
        assert json.load(fh)["expanded"] == [opened]
    win.close()
    again = _open(qtbot, tmp_path, path)
    assert again.state.expanded == {"", opened}
    assert any(i.id.startswith(scope.id) and i.id != scope.id
               for i in again.state.scene.items.values())            # drawn open
    assert (again.workbench.inputs, again.workbench.outputs) == \
        ([graph.name_list[0]], [graph.name_list[-1]])
    assert again.workspace.docks["sizes"].isVisible()
    # closed again: the session says so
    again.state.toggle_scope(opened)
    qtbot.waitUntil(lambda: not again.pipeline._save_timer.isActive() and
                    not again.tasks.is_busy(), timeout=10_000)
    with open(path + ".inspector.json") as fh:
        assert json.load(fh).get("expanded", []) == []
    again.close()


def test_a_scope_opened_on_a_pipeline_steps_graph_comes_back_too(qtbot, tmp_path, monkeypatch):
    """walk5 (MobileNet v2 at 1366x768): the Preview's fold_constants row clicked (the canvas
    then shows the graph after that step), the model's scope opened by a double-click there,
    another model opened, this one again: its scope came back closed. Only scopes opened on
    the original graph were saved; the step's graph has the same scopes, in the one set."""
    from test_gui_workbench import click_row, wait_preview

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))
    path = str(tmp_path / "digits.pb")
    shutil.copy(str(DEMO_MODEL), path)
    win = _open(qtbot, tmp_path, path)
    win.workbench.set_marks(["pixels"], ["output"])
    win.workbench.set_text("fold_constants")
    wait_preview(qtbot, win, 1)
    click_row(qtbot, win, 1)
    qtbot.waitUntil(lambda: win.state.view is not win.state.original_view and
                    win.state.scene is not None and not win.tasks.is_busy(), timeout=30_000)
    drawn = win.scenes_drawn
    scope = next(i for i in win.state.scene.items.values() if i.kind == "scope")
    box = win.canvas.items_by_id[scope.id]
    at = win.canvas.mapFromScene(box.sceneBoundingRect().center())
    qtbot.mouseDClick(win.canvas.viewport(), Qt.LeftButton, pos=at)      # the user's way
    qtbot.waitUntil(lambda: win.scenes_drawn > drawn and not win.tasks.is_busy(),
                    timeout=30_000)
    opened = scope.id[:-1]
    assert opened in win.state.expanded
    qtbot.waitUntil(lambda: not win.pipeline._save_timer.isActive(), timeout=10_000)
    with open(path + ".inspector.json") as fh:
        assert json.load(fh).get("expanded") == [opened]
    win.close()
    again = _open(qtbot, tmp_path, path)
    assert again.state.expanded == {"", opened}
    again.close()
