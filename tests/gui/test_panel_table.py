"""The panel table (issue 46.4): one row per panel drives the workspace (its place, the
tasks that show it, the task a closed one brings), the builder of a panel hidden at start and
the View menu; a new panel is its panel module, its controller module and one row."""


from PySide6.QtCore import QSettings, Signal
from PySide6.QtWidgets import QLabel

from inspector.gui import panel_table, workspace
from inspector.gui.main_window import MainWindow
from inspector.gui.startup import window_later
from inspector.gui.startup.later_panels import install



class ToyPanel(QLabel):
    """A new panel: shows state, emits signals."""
    jump = Signal(str)


class ToyController:
    """A new panel's controller, made from its collaborators; it reads the state last."""

    def __init__(self, state, tasks, panel, dialogs):
        self.state, self.panel = state, panel
        state.model_changed.connect(self._show)
        self._show(state.model)

    def _show(self, model) -> None:
        self.panel.setText(model.path if model is not None else "no model")


def view_entries(window) -> list:
    menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&View")
    return [a for a in menu.actions() if not a.isSeparator() and a.menu() is None]


def test_every_row_has_its_dock_its_view_entry_and_its_tasks(window):
    entries = view_entries(window)
    for row in panel_table.PANELS:
        dock = window.docks[row.name]
        assert dock is getattr(window, f"{row.name}_dock")
        assert dock.windowTitle() == row.title == dock.objectName()
        assert (dock.toggleViewAction() in entries) == row.menu
        for task in row.tasks:
            window.workspace.switch(task)
            assert dock.isVisible(), (row.name, task)
        for task in set(workspace.TASKS) - set(row.tasks):
            window.workspace.switch(task)
            assert not dock.isVisible(), (row.name, task)
    # every panel made later waits for its row's builder, every other one is in its dock
    later = {name for name, (*_, dock) in window_later.groups().items() if dock}
    assert later == {row.name for row in panel_table.PANELS if row.later}


def test_the_dock_an_overlay_raises_is_the_rows(window, monkeypatch):
    from inspector.core.app.results import OverlayState

    window.workspace.switch("optimize")
    window.state.set_overlay(OverlayState(mode="timings"))   # its controls: the Overlays dock
    assert window.overlays_dock.isVisible()
    quiet = tuple(r.replace(overlay=False) for r in panel_table.PANELS)
    monkeypatch.setattr(panel_table, "PANELS", quiet)
    window.workspace.switch("optimize")
    window.state.set_overlay(OverlayState(mode="ranges"))
    assert not window.overlays_dock.isVisible()


def test_a_new_row_makes_a_dock_a_view_entry_a_place_and_its_panel_later(qtbot, tmp_path,
                                                                       monkeypatch):
    me = __name__
    row = panel_table.Panel("toy", "Toy", "bottom-side", ("optimize",), home="optimize",
                            panel=f"{me}:ToyPanel", controller=f"{me}:ToyController")
    monkeypatch.setattr(panel_table, "PANELS", panel_table.PANELS + (row,))

    class ToyWindow(MainWindow):
        pass

    install(ToyWindow, window_later.groups())     # what the module does for MainWindow
    window = ToyWindow(QSettings(str(tmp_path / "settings.ini"), QSettings.IniFormat))
    qtbot.addWidget(window)
    window.show()
    assert window.toy_dock.toggleViewAction() in view_entries(window)
    assert "toy" in workspace.places()["bottom-side"][1]
    assert isinstance(window.toy_panel, ToyPanel)          # made by the default builder
    assert window.toy_dock.widget().widget() is window.toy_panel
    assert window.toy_panel.text() == "no model"           # its controller read the state
    assert isinstance(window.toy, ToyController)
    window.workspace.switch("explore")
    assert not window.toy_dock.isVisible()
    window.show_panel(window.toy_dock)                     # a closed panel brings its task
    assert window.workspace.task == "optimize" and window.toy_dock.isVisible()
    window.workspace.switch("optimize")
    assert window.toy_dock.isVisible()
    window.tasks.cancel()
