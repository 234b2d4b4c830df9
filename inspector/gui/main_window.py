"""The main window: canvas, dockable panels, menus, status-bar progress with cancel."""

from __future__ import annotations

import os

from PySide6.QtCore import QSettings, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (QDockWidget, QFileDialog, QInputDialog, QLabel, QMainWindow,
                               QMessageBox, QProgressBar, QPushButton)

from inspector.core.app.session import Session
from inspector.gui.canvas import exporting
from inspector.gui.controllers import loading
from inspector.gui.controllers.consent import Consent
from inspector.gui.canvas.graph_canvas import GraphCanvas, Minimap, edge_geometry, minimap_groups
from inspector.core.app.workbench import Workbench
from inspector.gui.panels.legend import Legend
from inspector.gui.controllers.marking import MarkingMixin
from inspector.gui.controllers.overlays_controller import OverlaysController
from inspector.gui.panels.overlays_panel import OverlaysPanel
from inspector.gui.panels.pipeline_panel import PipelinePanel
from inspector.gui.panels.preview_panel import PreviewPanel
from inspector.gui.controllers.workbench_controller import WorkbenchController
from inspector.gui.panels.workbench_panel import WorkbenchPanel
from inspector.gui.panels.properties import PropertiesPanel
from inspector.gui.panels.search_panel import SearchPanel
from inspector.gui.panels.summary_panel import SummaryPanel
from inspector.gui.workers import TaskRunner

MAX_RECENT = 10


class MainWindow(MarkingMixin, QMainWindow):
    error_shown = Signal(str)
    progress_changed = Signal(int, int)  # (done, total) from workers with countable steps

    def __init__(self, settings: QSettings | None = None):
        super().__init__()
        self.setWindowTitle("GraphDef Inspector")
        self.settings = settings or QSettings("graphdef-inspector", "inspector")
        self.session = Session()
        self.workbench = Workbench()
        self.consent = Consent()
        self.cli_overrides = None  # (inputs, outputs, transforms) from the command line
        self.runner = TaskRunner(self)
        self.canvas = GraphCanvas(self)
        self.setCentralWidget(self.canvas)
        self.setAcceptDrops(True)
        self.last_error = ""
        self.scenes_drawn = 0
        self._pending_center = None
        self._fit_next = False
        self._cone = None
        self.auto_signature = False
        self._after_first_frame: list = []  # callbacks to run once a model's first frame is up
        self._build_panels()
        self._build_status()
        self.controller = WorkbenchController(self)
        self.overlays = OverlaysController(self)
        self._build_menus()
        self._connect()
        self.resize(1500, 1000)
        geometry = self.settings.value("geometry")
        if geometry is not None:
            self.restoreGeometry(geometry)
            self.restoreState(self.settings.value("state"))

    # -- construction -------------------------------------------------------------------
    def _dock(self, title, widget, area):
        dock = QDockWidget(title, self)
        dock.setObjectName(title)
        dock.setWidget(widget)
        self.addDockWidget(area, dock)
        return dock

    def _build_panels(self):
        self.search_panel = SearchPanel(self.session)
        self.summary_panel = SummaryPanel(self.session)
        self.properties = PropertiesPanel(self.session)
        self.minimap = Minimap(self.canvas)
        self.legend = Legend(self.session)
        self.search_dock = self._dock("Search", self.search_panel, Qt.LeftDockWidgetArea)
        self.summary_dock = self._dock("Summary", self.summary_panel, Qt.LeftDockWidgetArea)
        self.properties_dock = self._dock("Properties", self.properties, Qt.RightDockWidgetArea)
        self.minimap_dock = self._dock("Minimap", self.minimap, Qt.RightDockWidgetArea)
        self.legend_dock = self._dock("Legend", self.legend, Qt.LeftDockWidgetArea)
        self.tabifyDockWidget(self.summary_dock, self.legend_dock)
        self.summary_dock.raise_()
        self.workbench_panel = WorkbenchPanel(self)
        self.pipeline_panel = PipelinePanel(self)
        self.preview_panel = PreviewPanel()
        self.workbench_dock = self._dock("Inputs and outputs", self.workbench_panel,
                                         Qt.LeftDockWidgetArea)
        self.tabifyDockWidget(self.search_dock, self.workbench_dock)
        self.search_dock.raise_()
        self.pipeline_dock = self._dock("Pipeline", self.pipeline_panel, Qt.BottomDockWidgetArea)
        self.preview_dock = self._dock("Preview", self.preview_panel, Qt.BottomDockWidgetArea)
        self.splitDockWidget(self.pipeline_dock, self.preview_dock, Qt.Horizontal)
        self.overlays_panel = OverlaysPanel()
        self.overlays_dock = self._dock("Overlays", self.overlays_panel, Qt.RightDockWidgetArea)
        self.tabifyDockWidget(self.properties_dock, self.overlays_dock)
        self.properties_dock.raise_()
        self.resizeDocks([self.pipeline_dock], [260], Qt.Vertical)
        self.resizeDocks([self.search_dock, self.properties_dock], [300, 340], Qt.Horizontal)

    def _build_status(self):
        self.status_label = QLabel("")
        self.progress = QProgressBar()
        self.progress.setRange(0, 0)
        self.progress.setMaximumWidth(180)
        self.progress.hide()
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.hide()
        self.cancel_button.clicked.connect(lambda: self.runner.cancel())
        bar = self.statusBar()
        bar.addWidget(self.status_label, 1)
        bar.addPermanentWidget(self.progress)
        bar.addPermanentWidget(self.cancel_button)

    def _action(self, menu, text, slot, shortcut=None, checkable=False):
        action = QAction(text, self)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        action.setCheckable(checkable)
        action.triggered.connect(slot)
        menu.addAction(action)
        return action

    def _build_menus(self):
        bar = self.menuBar()
        file_menu = bar.addMenu("&File")
        self._action(file_menu, "&Open…", self.open_dialog, QKeySequence.Open)
        self._action(file_menu, "Open SavedModel &folder…", self.open_folder_dialog)
        self.recent_menu = file_menu.addMenu("Open &recent")
        file_menu.addSeparator()
        self._action(file_menu, "Export DOT (styled)…", lambda: exporting.export_dot(self, False))
        self._action(file_menu, "Export DOT (TF graph_to_dot)…",
                     lambda: exporting.export_dot(self, True))
        self._action(file_menu, "Export view as SVG…", lambda: exporting.export_svg(self))
        self._action(file_menu, "Export whole graph as SVG…",
                     lambda: exporting.export_svg(self, whole=True))
        self._action(file_menu, "Export view as PNG…", lambda: exporting.export_png(self, False))
        self._action(file_menu, "Export whole graph as PNG…",
                     lambda: exporting.export_png(self, True))
        self._action(file_menu, "&Save optimized graph…", lambda: self.controller.save_graph(),
                     QKeySequence.Save)
        file_menu.addSeparator()
        self._action(file_menu, "&Quit", self.close, QKeySequence.Quit)
        edit = bar.addMenu("&Edit")
        self._action(edit, "&Undo", self.workbench.undo, QKeySequence.Undo)
        redo = self._action(edit, "&Redo", self.workbench.redo)
        redo.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
        edit.addSeparator()
        self._action(edit, "Mark selected as &input (I)", lambda: self.mark_selected("input"))
        self._action(edit, "Mark selected as &output (O)", lambda: self.mark_selected("output"))
        self._action(edit, "&Trace selected output to its inputs", self.trace_selected, "Ctrl+T")
        view = bar.addMenu("&View")
        self._action(view, "Zoom &in", lambda: self.canvas.zoom(1.25), QKeySequence.ZoomIn)
        self._action(view, "Zoom &out", lambda: self.canvas.zoom(0.8), QKeySequence.ZoomOut)
        self._action(view, "&Fit to window", self.canvas.fit, "Ctrl+0")
        self._action(view, "Zoom to &selection", self.zoom_to_selection, "Ctrl+E")
        self._action(view, "F&ull screen", self.toggle_full_screen, QKeySequence.FullScreen)
        view.addSeparator()
        self._action(view, "E&xpand all scopes", self.session.expand_all, "Ctrl+Shift+E")
        self._action(view, "&Collapse all scopes", self.session.collapse_all, "Ctrl+Shift+C")
        self.consts_action = self._action(view, "Show &constants as nodes", self.toggle_constants,
                                          "Ctrl+K", checkable=True)
        view.addSeparator()
        self.lr_action = self._action(view, "&Left-to-right layout", self.toggle_direction,
                                      "Ctrl+L", checkable=True)
        self._action(view, "F&unction library…", lambda: self.show_function())
        self._action(view, "&Main graph", self.show_main_graph)
        view.addSeparator()
        for dock in (self.search_dock, self.summary_dock, self.properties_dock,
                     self.minimap_dock, self.legend_dock, self.workbench_dock, self.pipeline_dock,
                     self.preview_dock, self.overlays_dock):
            view.addAction(dock.toggleViewAction())
        go = bar.addMenu("&Go")
        self._action(go, "&Find…", self.search_panel.focus, QKeySequence.Find)
        self._action(go, "Find &next", lambda: self._search_step(1), QKeySequence.FindNext)
        self._action(go, "Find &previous", lambda: self._search_step(-1),
                     QKeySequence.FindPrevious)
        self._action(go, "&Back", self.session.back, "Alt+Left")
        self._action(go, "F&orward", self.session.forward, "Alt+Right")
        self.cone_action = self._action(go, "&Highlight upstream and downstream",
                                        self.toggle_cone, "Ctrl+H", checkable=True)
        self._refresh_recent()

    def _connect(self):
        s = self.session
        s.expansion_changed.connect(self.request_layout)
        s.scene_changed.connect(self._show_scene)
        s.selection_changed.connect(self._selection_changed)
        s.message.connect(self.status_label.setText)
        self.runner.busy_changed.connect(self._busy)
        self.progress_changed.connect(self._progress)
        self.canvas.clicked.connect(lambda item: s.select(item))
        self.canvas.activated.connect(self._activated)
        self.canvas.walk.connect(self.walk)
        self.canvas.mark_key.connect(self.mark_selected)
        self.canvas.context_requested.connect(self._context_menu)
        for panel in (self.search_panel, self.summary_panel, self.properties,
                      self.workbench_panel, self.preview_panel, self.overlays_panel):
            panel.jump.connect(self.jump_to)

    # -- loading ------------------------------------------------------------------------
    def open_dialog(self):
        path, _ = QFileDialog.getOpenFileName(self, "Open model", "", "TensorFlow models (*.pb "
                                              "*.pbtxt *.meta *.keras *.h5);;All files (*)")
        if path:
            self.open_path(path)

    def open_folder_dialog(self):
        path = QFileDialog.getExistingDirectory(self, "Open SavedModel folder")
        if path:
            self.open_path(path)

    def open_path(self, path: str, signature: str | None = None) -> None:
        loading.open_model(self, path, signature)

    def choose_signature(self, keys: list) -> str | None:
        key, ok = QInputDialog.getItem(self, "Choose a signature", "SavedModel signature:",
                                       keys, 0, False)
        return key if ok else None

    def model_loaded(self, model, view, summary):
        view.direction = "LR" if self.lr_action.isChecked() else "TB"
        self.session.set_model(model, view)
        self.summary_panel.show_summary(summary, model)
        self._remember(model.path)
        self.setWindowTitle(f"{os.path.basename(model.path.rstrip('/'))} — GraphDef Inspector")
        problems = f" · {len(model.problems)} problems" if model.problems else ""
        self.status_label.setText(f"{len(view.graph)} nodes{problems}")
        self._fit_next = True
        # TensorFlow work (shape inference, the FLOPs of the preview) starts after the first
        # frame: importing TF holds the GIL long enough to delay it
        self._after_first_frame = [lambda: self._infer_shapes(view)]
        overrides, self.cli_overrides = self.cli_overrides, None
        self.controller.model_loaded(model, view, overrides)

    def _infer_shapes(self, view):
        """Tensor shapes for edge labels come from TF's shape inference, after the first
        frame and off the GUI thread; without TensorFlow the labels show dtypes only."""
        import importlib.util

        if importlib.util.find_spec("tensorflow") is None:
            return

        def work(cancel):
            from inspector.core.model.executor import tensorflow

            return tensorflow().infer_shapes(view.graph.graph_def)

        def done(shapes):
            if self.session.view is view:
                view.shapes = shapes
                self.request_layout()

        self.runner.submit("shapes", work, done, lambda exc: self.session.message.emit(
            f"No tensor shapes: {exc}"), "Inferring tensor shapes")

    def show_error(self, text: str) -> None:
        """Report a problem in a dialog; the app keeps running."""
        self.last_error = text
        self.status_label.setText(text)
        box = QMessageBox(QMessageBox.Warning, "GraphDef Inspector", text, QMessageBox.Ok, self)
        box.setAttribute(Qt.WA_DeleteOnClose)
        box.open()
        self.error_box = box
        self.error_shown.emit(text)

    def _progress(self, done: int, total: int):
        self.progress.setRange(0, max(total, 1))
        self.progress.setValue(done)
        self.progress.setFormat(f"run {done}/{total}")
        self.progress.setTextVisible(True)

    def _busy(self, busy: bool, label: str):
        if busy:
            self.progress.setRange(0, 0)  # busy until a worker reports countable progress
            self.progress.setTextVisible(False)
        self.progress.setVisible(busy)
        self.cancel_button.setVisible(busy)
        if busy:
            self.status_label.setText(f"{label}…")

    # -- layout and drawing -------------------------------------------------------------
    def request_layout(self):
        view = self.session.view
        if view is None:
            return
        expanded = frozenset(self.session.expanded)

        def work(cancel):
            scene = view.scene(expanded, cancel)
            scene.geometry = edge_geometry(scene.edges, scene.items, scene.direction)
            scene.minimap = minimap_groups(scene)
            return scene

        self.runner.submit("layout", work, self.session.set_scene, self._layout_failed,
                           "Laying out")

    def _layout_failed(self, exc):
        from inspector.core.errors import Cancelled

        if not isinstance(exc, Cancelled):
            self.show_error(f"Layout failed: {exc}")

    def _show_scene(self, scene):
        self.canvas.show_scene(scene, lambda: self._scene_built(scene),
                               getattr(scene, "geometry", None))

    def _scene_built(self, scene):
        self.minimap.show_scene(scene, getattr(scene, "minimap", None))
        self.scenes_drawn += 1
        waiting, self._after_first_frame = self._after_first_frame, []
        for fn in waiting:
            QTimer.singleShot(300, self, fn)  # cancelled if the window goes away
        self.apply_marks()
        if self._fit_next:
            self._fit_next = False
            self.canvas.fit()
        if self._pending_center:
            name, self._pending_center = self._pending_center, None
            self.canvas.center_on_item(self.visible_id(name))
        if not self.runner.is_busy():
            self.status_label.setText(f"{len(scene.items)} items shown")

    def visible_id(self, name: str) -> str:
        if name.endswith("/") or self.session.view is None:
            return name
        return self.session.view.owner(name, self.session.expanded)

    def _activated(self, item_id: str):
        if item_id.endswith("/"):
            self.session.toggle_scope(item_id[:-1])

    def _selection_changed(self, name):
        if self.cone_action.isChecked():
            self._compute_cone()
        self.apply_marks()

    def jump_to(self, name: str) -> None:
        """Select a node, expanding scopes as needed, and centre it."""
        self.session.select(name)
        if self.session.reveal(name):
            self._pending_center = name
        else:
            self.canvas.center_on_item(self.visible_id(name))

    def _search_step(self, step: int):
        name = self.search_panel.next(step)
        if name:
            self.jump_to(name)

    def walk(self, direction: str):
        from inspector.core.view.navigation import neighbour

        if self.session.view is None or not self.session.selected:
            return
        target = neighbour(self.session.view.graph, self.session.selected, direction,
                           self.session.view)
        if target:
            self.jump_to(target)

    def zoom_to_selection(self):
        if self.session.selected:
            node = self.canvas.items_by_id.get(self.visible_id(self.session.selected))
            if node is not None:
                self.canvas.fitInView(node.sceneBoundingRect().adjusted(-150, -150, 150, 150),
                                      Qt.KeepAspectRatio)

    def toggle_constants(self, on: bool):
        model = self.session.model
        if model is not None:
            from inspector.core.view.view_graph import ViewModel

            expanded = set(self.session.expanded)
            old = self.session.view
            self.session.view = ViewModel(model.graph, fold_constants=not on)
            self.session.view.direction = old.direction if old else "TB"
            self.session.view.shapes = old.shapes if old else None
            self.session.expanded = expanded
            self.request_layout()

    def toggle_direction(self, on: bool):
        if self.session.view is not None:
            self.session.view.direction = "LR" if on else "TB"
            self._fit_next = True
            self.request_layout()

    def toggle_full_screen(self):
        self.showNormal() if self.isFullScreen() else self.showFullScreen()

    # -- drag and drop, recent files, settings ------------------------------------------
    def dragEnterEvent(self, event):
        if event.mimeData().hasUrls():
            event.acceptProposedAction()

    def dropEvent(self, event):
        urls = [u.toLocalFile() for u in event.mimeData().urls() if u.isLocalFile()]
        if urls:
            event.acceptProposedAction()
            self.open_path(urls[0])

    def _remember(self, path):
        path = os.path.abspath(path)
        recent = [p for p in (self.settings.value("recent") or []) if p != path]
        self.settings.setValue("recent", [path] + recent[: MAX_RECENT - 1])
        self._refresh_recent()

    def _refresh_recent(self):
        self.recent_menu.clear()
        for path in self.settings.value("recent") or []:
            self.recent_menu.addAction(path, lambda p=path: self.open_path(p))

    def closeEvent(self, event):
        self.settings.setValue("geometry", self.saveGeometry())
        self.settings.setValue("state", self.saveState())
        self.runner.cancel()
        super().closeEvent(event)


