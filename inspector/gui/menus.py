"""The main window's menus: every action names what it does, with its shortcut (Help >
Keyboard shortcuts reads them from here). Built once by MainWindow."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence

from inspector.core.runtime.lazy_import import later
from inspector.gui import panel_table, tf_python
from inspector.gui.workspace import TASKS

# the Help menu's dialogs, imported when first shown (their Qt classes are made when first
# read: ~5 ms of a start, ~15 ms on the slow class, before the first picture otherwise)
help_pages = later("inspector.gui.help", globals(), "help_pages")
about = later("inspector.gui.about", globals(), "about")


def _action(w, menu, text, slot, shortcut=None, checkable=False):
    action = QAction(text, w)
    if shortcut is not None:
        action.setShortcut(QKeySequence(shortcut))
    action.setCheckable(checkable)
    action.triggered.connect(slot)
    menu.addAction(action)
    return action


def _bring(w, dock) -> None:
    dock.hide()                 # closed again, so that the workspace lays its task out
    w.show_panel(dock)


def _covered_unchecked(w) -> None:
    """As the View menu opens: a panel behind another's tab reads unchecked, so that choosing
    it brings it forward (it read checked, and choosing it closed it); one in sight, checked."""
    for row in panel_table.PANELS:
        dock, toggle = w.docks[row.name], w.docks[row.name].toggleViewAction()
        seen = not dock.isHidden() and not dock.visibleRegion().isEmpty()
        if row.menu and toggle.isChecked() != seen:
            toggle.blockSignals(True)           # (Qt's own slot would close or open it)
            toggle.setChecked(seen)
            toggle.blockSignals(False)


def build_menus(w) -> dict:
    """The menu bar of window `w`; returns what the window keeps of it (the recent files'
    menu and the actions whose state it changes), set by the window itself."""
    s, c = w.state, w.canvas_ctl
    bar = w.menuBar()
    file_menu = bar.addMenu("&File")
    _action(w, file_menu, "&Open…", w.open_dialog, QKeySequence.Open)
    _action(w, file_menu, "Open SavedModel &folder…", w.open_folder_dialog)
    recent_menu = file_menu.addMenu("Open &recent")
    _action(w, file_menu, "&Compare with…", lambda: w.compare_ctl.compare_with())
    _action(w, file_menu, "Open co&mparison…", lambda: w.compare_ctl.open_document())
    file_menu.addSeparator()
    # w.exporter: made on first use (window_later), so read when the action runs
    _action(w, file_menu, "Export DOT (styled)…", lambda: w.exporter.dot(False))
    _action(w, file_menu, "Export DOT (TF graph_to_dot)…", lambda: w.exporter.dot(True))
    _action(w, file_menu, "Export view as SVG…", lambda: w.exporter.svg())
    _action(w, file_menu, "Export whole graph as SVG…", lambda: w.exporter.svg(whole=True))
    _action(w, file_menu, "Export view as PNG…", lambda: w.exporter.png(False))
    _action(w, file_menu, "Export whole graph as PNG…", lambda: w.exporter.png(True))
    _action(w, file_menu, "Export view as large PNG (4x, text 1.5x)…", lambda: w.exporter.png(
        False, scale=4.0 * w.canvas.zoom_level(), font_scale=1.5))
    _action(w, file_menu, "&Save optimized graph…", lambda: w.preview.save_graph(),
                 QKeySequence.Save)
    file_menu.addSeparator()
    _action(w, file_menu, "Import Model Explorer &node data…",
            lambda: w.overlays.import_node_data())
    _action(w, file_menu, "Export overlay as Model Explorer node data…",
            lambda: w.overlays.export_node_data())
    file_menu.addSeparator()

    _action(w, file_menu, "TensorFlow &Python for the worker…", lambda: tf_python.choose(w))
    file_menu.addSeparator()
    _action(w, file_menu, "&Quit", w.close, QKeySequence.Quit)
    edit = bar.addMenu("&Edit")
    # each says so when it has nothing to do (it did nothing in silence)
    _action(w, edit, "&Undo", lambda: w.workbench.undo() or w.state.say(
        "Nothing to undo (Undo takes back changes to the marks and the pipeline)"),
        QKeySequence.Undo)
    redo = _action(w, edit, "&Redo",
                   lambda: w.workbench.redo() or w.state.say("Nothing to redo"))
    redo.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
    edit.addSeparator()
    _action(w, edit, "Mark selected as &input (I)", lambda: c.mark_selected("input"))
    _action(w, edit, "Mark selected as &output (O)", lambda: c.mark_selected("output"))
    _action(w, edit, "&Trace selected output to its inputs", w.trace_selected, "Ctrl+T")
    view = bar.addMenu("&View")
    _action(w, view, "Zoom &in", lambda: w.canvas.zoom(1.25), QKeySequence.ZoomIn)
    _action(w, view, "Zoom &out", lambda: w.canvas.zoom(0.8), QKeySequence.ZoomOut)
    _action(w, view, "&Fit to window", lambda: w.canvas.fit() or w.state.say(
        "Too big to fit at a visible size: shown from its start (the minimap shows all of it)"),
        "Ctrl+0")
    _action(w, view, "Zoom to &selection", c.zoom_to_selection, "Ctrl+E")
    full = _action(w, view, "F&ull screen", w.toggle_full_screen, "F11")
    keys = [QKeySequence("F11")] + [k for k in QKeySequence.keyBindings(
        QKeySequence.FullScreen) if k.toString() != "F11"]
    full.setShortcuts(keys)
    view.addSeparator()
    _action(w, view, "E&xpand all scopes", c.expand_all, "Ctrl+Shift+E")
    _action(w, view, "&Collapse all scopes", s.collapse_all, "Ctrl+Shift+C")
    consts_action = _action(w, view, "Show &constants as nodes",
                            lambda on: s.set_layout_options(show_constants=on), "Ctrl+K",
                            checkable=True)
    view.addSeparator()
    lr_action = _action(w, view, "&Left-to-right layout",
                        lambda on: s.set_layout_options(direction="LR" if on else "TB"),
                        "Ctrl+L", checkable=True)
    function_action = _action(w, view, "F&unction library…", lambda: w.show_function())
    function_action.setEnabled(False)    # until a model with a function library opens
    _action(w, view, "&Main graph", c.show_main_graph)
    view.addSeparator()

    tasks = view.addMenu("&Task")      # each lays the window out for one thing to do
    for number, (task, (label, *_)) in enumerate(TASKS.items(), 1):
        _action(w, tasks, label, lambda _=False, t=task: w.workspace.switch(t), f"Ctrl+{number}")
    w.menuBar().setCornerWidget(w.workspace.bar, Qt.TopRightCorner)
    view.aboutToShow.connect(lambda: _covered_unchecked(w))
    for row in panel_table.PANELS:     # each panel's toggle, in the table's order
        if row.menu:
            toggle = w.docks[row.name].toggleViewAction()
            # shown: in its task's layout (Qt's toggle alone showed a dock where Qt had it,
            # Sizes a strip under the graph in Explore), as the Phone menu and Ctrl+F do
            toggle.triggered.connect(lambda on, d=w.docks[row.name]: on and _bring(w, d))
            view.addAction(toggle)
    go = bar.addMenu("&Go")
    _action(w, go, "&Find…", w.find, QKeySequence.Find)
    _action(w, go, "Find &next", lambda: w._search_step(1), QKeySequence.FindNext)
    _action(w, go, "Find &previous", lambda: w._search_step(-1),
                 QKeySequence.FindPrevious)
    _action(w, go, "&Back", lambda: s.back() or s.say(
        "Nothing to go back to (Back returns to the node selected before)"), "Alt+Left")
    _action(w, go, "F&orward", lambda: s.forward() or s.say("Nothing to go forward to"),
            "Alt+Right")
    cone_action = _action(w, go, "&Highlight upstream and downstream", c.set_cone, "Ctrl+H",
                          checkable=True)
    demo = bar.addMenu("&Demo")
    _action(w, demo, "Model &card", lambda: w.card.show_card(), "Ctrl+M")
    _action(w, demo, "&Run on a file…", lambda: w.demo.choose_input(), "Ctrl+R")
    demo.addSeparator()
    _action(w, demo, "&Present the tour", lambda: w.tour.present(), "F5")
    _action(w, demo, "&Auto-tour", w.auto_tour)
    _action(w, demo, "&Export the tour…", lambda: w.tour.export())
    phone = bar.addMenu("&Phone")   # each shown on its tab of the panel (w.mobile: made
    # after the first picture, so read when the action runs)
    _action(w, phone, "Check &TFLite compatibility",
            lambda: w.phone(0, lambda: w.mobile.check()), "Ctrl+Shift+T")
    _action(w, phone, "&Confirm with the converter",
            lambda: w.phone(0, lambda: w.mobile.confirm(False)))
    _action(w, phone, "Con&vert four variants",
            lambda: w.phone(1, lambda: w.mobile.convert(False)))
    _action(w, phone, "Write &ops_to_register.h…",
            lambda: w.phone(2, lambda: w.mobile.write_header()))
    _action(w, phone, "Save as &memory-mapped package…", lambda: w.mobile.save_memmapped())
    _action(w, phone, "Target &report (CPU, GPU, Ethos-U, NPU pre-flight)…",
            lambda: w.targets.open())
    help_menu = bar.addMenu("&Help")
    _action(w, help_menu, "&Getting started", lambda: w._show(
        help_pages.getting_started_dialog(w)))
    _action(w, help_menu, "&Keyboard shortcuts", lambda: w._show(
        help_pages.shortcuts_dialog(w, w.menuBar())), "Ctrl+/")
    help_menu.addSeparator()
    _action(w, help_menu, "&About GraphDef Inspector", lambda: w._show(about.about_dialog(w)))
    return {"recent_menu": recent_menu, "consts_action": consts_action, "lr_action": lr_action,
            "function_action": function_action, "cone_action": cone_action}
