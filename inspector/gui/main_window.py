"""The main window: it builds the state, the task runner, the panels and the controllers and
wires them; menus, docks, the status bar (progress and Cancel), drag and drop, recent files.
It holds no application state of its own."""

from __future__ import annotations

import os

from PySide6 import QtWidgets    # (QFileDialog: its class made when first asked for)
from PySide6.QtCore import QRect, QSettings, Signal
from PySide6.QtWidgets import QDockWidget, QMainWindow, QScrollArea

from inspector.core.app.decorations import overlay_entry
from inspector.core.app.demo_model import DEMO_MODEL
from inspector.core.app.start import import_model_modules
from inspector.core.app.state import AppState
from inspector.core.runtime import threads
from inspector.core.view.vocabulary import count
from inspector.gui import panel_table, tf_gate
from inspector.gui.canvas.graph_canvas import GraphCanvas
from inspector.gui.canvas.minimap import Minimap
from inspector.gui.controllers.canvas_controller import CanvasController
from inspector.gui.controllers.load_controller import LoadController
from inspector.gui.controllers.marks_controller import MarksController
from inspector.gui.controllers.pipeline_controller import PipelineController
from inspector.gui.controllers.properties_controller import PropertiesController
from inspector.gui.dialogs import Dialogs
from inspector.gui.dock_scroll import scrolling
from inspector.gui.menus import build_menus
from inspector.gui.panels.properties import PropertiesPanel
from inspector.gui.panels.summary_panel import SummaryPanel
from inspector.gui.startup import window_later
from inspector.gui.startup.later_panels import build, built, install, later
from inspector.gui.status_line import StatusLine
from inspector.gui.tasks import gui_tasks
from inspector.gui.workspace import Workspace  # where each task puts the panels

MAX_RECENT = 10
DEFAULT_SIZE = (1500, 1000)


def fitting_size(available, wanted=DEFAULT_SIZE):
    """The default window size: what we want, shrunk to 95 % of the screen it opens on."""
    if available is None or available.isEmpty():
        return wanted
    return (min(wanted[0], int(available.width() * 0.95)),
            min(wanted[1], int(available.height() * 0.95)))


def _import_model_modules() -> None:
    """Modules every opened model needs, imported while the window starts rather than on the
    GUI thread while the first model opens (~50-90 ms of stall measured by bench/scale.py)."""
    import_model_modules()


class MainWindow(QMainWindow):
    error_shown = Signal(str)
    # hidden at start (made after the first picture, when shown or when first read): the
    # attributes of window_later.groups() (panel_table's rows made later), declared below

    def __init__(self, settings: QSettings | None = None):
        super().__init__()
        self.setWindowTitle("GraphDef Inspector")
        self.settings = settings or QSettings("graphdef-inspector", "inspector")
        self.state = AppState()
        self.workbench = self.state.workbench
        self.tasks = gui_tasks(self)
        self.dialogs = Dialogs(self, self.state)
        self.canvas = GraphCanvas(self)
        self.canvas.files_dropped.connect(self.open_dropped)
        self.setCentralWidget(self.canvas)
        self.setAcceptDrops(True)
        self.last_error = ""
        self._build_panels()
        self._build_controllers()
        threads.daemon(_import_model_modules, "inspector-imports")   # the app's end waits
        self._build_status()
        kept = build_menus(self)
        self.recent_menu, self.function_action = kept["recent_menu"], kept["function_action"]
        self.consts_action, self.lr_action = kept["consts_action"], kept["lr_action"]
        self.cone_action = kept["cone_action"]
        self._refresh_recent()
        self._connect()
        for group, (_, _, dock) in window_later.groups().items():   # now, or after the
            if dock:                                                   # first picture
                later(self, group, getattr(self, dock))
        self.tf_gated = tf_gate.apply(self)   # no TensorFlow: its actions say why and how
        screen = self.screen()
        self.resize(*fitting_size(screen.availableGeometry() if screen else None))
        geometry = self.settings.value("geometry")
        if geometry is not None and self.restoreGeometry(geometry) and \
                self.restoreState(self.settings.value("state")):
            self.workspace.show_task(str(self.settings.value("task", "explore")))
        else:
            self.workspace.switch("explore")   # canvas-first: the panels to look inside

    # -- construction ---------------------------------------------------------------------
    def _dock(self, title, widget):
        """A dock for a panel (the workspace puts it in its place); widget None: put in
        later (later_panels)."""
        dock = QDockWidget(title, self)
        dock.setObjectName(title)
        dock.setWidget(scrolling(widget))
        return dock

    def _build_panels(self):
        s = self.state
        self.summary_panel = SummaryPanel(s)
        self.properties = PropertiesPanel(s)
        self.minimap = Minimap(self.canvas)
        made = {"summary": self.summary_panel, "properties": self.properties,
                "minimap": self.minimap}
        self.docks = {}           # panel_table's rows: a dock each (filled later: no widget)
        for row in panel_table.PANELS:
            dock = self.docks[row.name] = self._dock(row.title, made.pop(row.name, None))
            setattr(self, f"{row.name}_dock", dock)
        assert not made, f"panels with no row in panel_table: {sorted(made)}"
        self.workspace = Workspace(self, self.docks)

    def _build_controllers(self):
        s, t = self.state, self.tasks
        self.loader = LoadController(s, t, self.dialogs)
        self.canvas_ctl = CanvasController(s, t, self.canvas, self.minimap)
        self.pipeline = PipelineController(s, t)     # its panel: window_later.build_pipeline
        self.marks = MarksController(s, t)   # its panel: panel_table's workbench row
        self.properties_ctl = PropertiesController(s, t, self.properties)

    def _gate_later(self, panels: tuple) -> None:
        """A panel made after tf_gate.apply: gated like the others (see tf_gate)."""
        if "tf_gated" in self.__dict__:
            for name in panels:
                self.tf_gated += tf_gate.gate_panel(self, name)

    def _build_status(self):
        line = self.status_line = StatusLine(self.statusBar(), self.tasks)
        self.status_label, self.progress, self.cancel_button = \
            line.label, line.progress, line.cancel_button
        self._say, self._progress, self._busy = line.say, line.show_progress, line.busy
        self.cancel_work = line.cancel_work

    def resizeEvent(self, event):
        super().resizeEvent(event)
        if built(self, "card_panel") and self.card_panel.isVisible():
            self.card_panel.show_over_parent()

    def _tour_card(self, on: bool) -> None:
        """A tour's card stop: over the whole window while presenting; while the tour is
        edited, over all but the Tour panel's column, so that panel stays in reach."""
        if not on:
            if built(self, "card_panel"):
                self.card_panel.close_card()
            return
        self.card_panel.over = None if self.tour.presenting else self._beside_tour
        self.card_panel.set_least_text(12 * self.tour.ui_scale if self.tour.presenting
                                       else 0.0)   # the scale's promise: 18 px at 1.5x
        self.card.show_card()

    def _beside_tour(self) -> QRect | None:
        dock = self.tour_dock
        if not dock.isVisible() or dock.isFloating():
            return None
        area, box = self.rect(), dock.geometry()
        if box.center().x() > area.center().x():
            area.setRight(box.left() - 1)
        else:
            area.setLeft(box.right() + 1)
        return area

    def show_panel(self, dock, tab: int | None = None) -> None:
        """A dock to the front (opened if closed), on one of its panel's tabs: where a menu
        action's result appears."""
        self._uncover(dock)
        self.workspace.bring(dock)
        group = window_later.group_of_dock(self, dock)
        if group:
            build(self, group)              # its panel, if it waits (later_panels)
        tabs = getattr(dock.widget().widget(), "tabs", None)
        if tab is not None and tabs is not None:
            tabs.setCurrentIndex(tab)

    def _uncover(self, dock=None) -> None:
        """A panel brought forward (a shortcut: Ctrl+Shift+T, Ctrl+F, ...) or another task's
        layout closes the model card over the window: the panel was drawn over the card's
        middle, the card still over the menu bar and status line. The tour's card stop
        stays while presenting and beside the Tour panel when that panel is brought."""
        if not built(self, "card_panel") or not self.card_panel.isVisible():
            return
        if built(self, "tour") and self.tour.presenting:
            return
        if dock is not None and dock is self.tour_dock and self.card_panel.over is not None:
            return
        self.card_panel.close_card()

    def auto_tour(self) -> None:
        self.show_panel(self.tour_dock)
        self.tour.auto()

    def phone(self, tab: int, action) -> None:
        """A Phone menu action, shown on its tab of the Phone (TFLite) panel."""
        self.show_panel(self.mobile_dock, tab)
        action()

    def _show_demo(self):
        """The Demo panel to the front (the demo and tour layout), room for its picture."""
        self.show_panel(self.demo_dock)

    def _show(self, dialog):
        self.help_dialog = dialog
        dialog.show()

    def _raise_overlay_dock(self, overlay) -> None:
        """The dock that holds the chosen overlay's controls comes to the front (not for a
        tour stop's overlay: the Tour panel being edited stays in front)."""
        if built(self, "tour") and self.tour.restoring:
            return
        entry = overlay_entry(overlay.mode)
        raised = {row.name for row in panel_table.PANELS if row.overlay}
        if entry is not None and entry.dock in raised:
            self.workspace.bring(self.docks[entry.dock])

    def _connect(self):
        s = self.state
        s.message.connect(self._say)
        s.outcome.connect(self.status_line.keep)
        s.error.connect(self.show_error)
        s.model_changed.connect(self._model_changed)
        s.trace_requested.connect(lambda *_: self.show_panel(self.workbench_dock))
        s.overlay_changed.connect(self._raise_overlay_dock)
        s.demo_changed.connect(lambda run: run is not None and self._show_demo())
        self.workspace.task_changed.connect(lambda _task: self._uncover())
        self.tasks.busy.connect(self._busy)
        self.tasks.progress.connect(self._progress)
        for panel in (self.summary_panel, self.properties):
            panel.jump.connect(self.jump_to)

    # -- what other parts and tests use -----------------------------------------------------
    @property
    def scenes_drawn(self) -> int:
        return self.canvas_ctl.scenes_drawn

    def open_beside(self, path: str) -> "MainWindow":
        """Another window on `path` (e.g. a TFLite variant next to its GraphDef)."""
        other = MainWindow(self.settings)
        self._beside = [w for w in getattr(self, "_beside", []) if w.isVisible()] + [other]
        other.resize(self.size())
        other.move(self.pos().x() + 60, self.pos().y() + 60)
        other.show()
        other.open_path(path)
        return other

    def jump_to(self, name: str) -> None:
        self.canvas_ctl.jump_to(name)

    def trace_selected(self) -> None:
        """Edit > Trace (Ctrl+T): as the node's context menu, the proposals shown in the
        Inputs and outputs panel, brought forward (in Explore nothing was seen to happen)."""
        name = self.state.selected or ""
        if not name or name.endswith("/"):
            self.state.say("Select a node (an output) to trace it back to its inputs")
            return
        self.state.trace(name)

    def show_function(self, name: str | None = None) -> bool:
        view = self.state.original_view
        names = sorted(view.graph.functions) if view is not None else []
        if not names:
            self.state.say("This graph has no function library")
            return False
        name = name or self.dialogs.choose("Function library", "Function:", names)
        return bool(name) and self.canvas_ctl.show_function(name)

    def find(self) -> None:
        """Ctrl+F: bring the Search panel forward (even if closed) and type into it."""
        self.show_panel(self.search_dock)
        self.search_panel.focus()

    def _search_step(self, step: int):
        self.search.step(step)

    # -- loading ------------------------------------------------------------------------------
    def start_folder(self) -> str:
        """Where a file dialog opens: the open model's folder, else the last model's; never
        the bundled demo's (inside the installed package, __pycache__ and all: a new user's
        first Open landed there); with none, Qt's default (the folder the app started in)."""
        model = self.state.model
        paths = ([model.path] if model is not None else []) + self.recent_paths()
        demo = os.path.abspath(DEMO_MODEL)
        path = next((p for p in paths if os.path.abspath(p.rstrip("/")) != demo), "")
        return os.path.dirname(os.path.abspath(path.rstrip("/"))) if path else ""

    def open_dialog(self):
        from inspector.core.app.opening import open_dialog_filter

        path, _ = QtWidgets.QFileDialog.getOpenFileName(self, "Open model",
                                                        self.start_folder(), open_dialog_filter())
        if path:
            self.open_path(path)

    def open_folder_dialog(self):
        path = QtWidgets.QFileDialog.getExistingDirectory(self, "Open SavedModel folder",
                                                          self.start_folder())
        if path:
            self.open_path(path)

    def open_path(self, path: str, signature: str | None = None) -> None:
        self.status_line.forget()          # (an outcome kept was of the model before)
        self.loader.open(path, signature)

    def _model_changed(self, model):
        functions = bool(model.graph.functions)
        self.function_action.setEnabled(functions)
        self.function_action.setToolTip("" if functions else "this graph has no function "
                                        "library")
        # every panel from its top again (the window's docks: findChildren(QDockWidget)
        # made PySide wrap every widget inside them, creating ~10 Qt classes, ~2 ms)
        for dock in self.docks.values():
            area = dock.widget()
            if isinstance(area, QScrollArea):
                area.verticalScrollBar().setValue(0)
                area.horizontalScrollBar().setValue(0)
        self._remember(model.path)
        self.setWindowTitle(f"{os.path.basename(model.path.rstrip('/'))} — GraphDef Inspector")
        problems = f" · {count(len(model.problems), 'problem')}" if model.problems else ""
        self._say(f"{count(len(model.graph), 'node')}{problems}")

    def show_error(self, text: str) -> None:
        """Report a problem in a dialog; the app keeps running."""
        self.last_error = text
        self._say(text.splitlines()[0] if text else "")
        self.error_box = self.dialogs.error(text)
        self.error_shown.emit(text)

    def toggle_full_screen(self):
        self.showNormal() if self.isFullScreen() else self.showFullScreen()

    # -- drag and drop, recent files, settings --------------------------------------------
    def dragEnterEvent(self, event):
        if event.mimeData().hasUrls():
            event.acceptProposedAction()
            self.demo.warm()

    def dropEvent(self, event):
        urls = [u.toLocalFile() for u in event.mimeData().urls() if u.isLocalFile()]
        if urls:
            event.acceptProposedAction()
            self.open_dropped(urls)

    def open_dropped(self, paths: list) -> None:
        """Files dropped anywhere on the window: a photo, folder of photos, WAV or .npy runs
        the open model on it; anything else (the first path) is opened as a model."""
        from inspector.core.app.demo_runs import runs_on

        if self.state.model is not None and runs_on(paths[0]):
            self.demo.run_on(paths[0])
        else:
            self.open_path(paths[0])

    def recent_paths(self) -> list:
        """The recent files, newest first. QSettings gives a one-element list back as a
        plain string (and anything at all from a hand-edited file)."""
        value = self.settings.value("recent")
        if isinstance(value, str):
            value = [value]
        return [p for p in value if isinstance(p, str) and p] if isinstance(value, list) else []

    def _remember(self, path):
        path = os.path.abspath(path)
        recent = [p for p in self.recent_paths() if p != path]
        self.settings.setValue("recent", [path] + recent[: MAX_RECENT - 1])
        self._refresh_recent()

    def _refresh_recent(self):
        self.recent_menu.clear()
        for path in self.recent_paths():
            self.recent_menu.addAction(path, lambda p=path: self.open_path(p))

    def closeEvent(self, event):
        self.settings.setValue("geometry", self.saveGeometry())
        self.settings.setValue("state", self.saveState())
        self.settings.setValue("task", self.workspace.task)
        self.pipeline.flush_session()    # an edit of the last 400 ms: its session written
        self.tasks.cancel()
        super().closeEvent(event)


install(MainWindow, window_later.groups())
