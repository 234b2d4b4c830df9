"""Canvas-first layout (issue 38.17): at 1366x768 every panel's key controls show without
scrolling, in the task it belongs to (switched with the task bar), and the graph keeps at
least half the window; the Phone panel at 1920x1080 leaves the graph more than a strip."""

import shutil

import numpy as np
import pytest
from conftest import DEMO
from PIL import Image
from PySide6.QtCore import QPoint, Qt
from test_gui import open_and_wait

from inspector.gui import panel_table
from inspector.gui.workspace import TASKS, docks_of

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def key_controls(w) -> dict:
    """dock name -> (the panel's tab to show or None, [(widget, least rows or 0), ...])."""
    rows = 3
    return {
        "summary": (None, [(w.summary_panel.candidates, rows)]),
        "search": (None, [(w.search_panel.box, 0), (w.search_panel.results, rows)]),
        "workbench": (None, [(w.workbench_panel.suggest, 0), (w.workbench_panel.info, 0),
                             (w.workbench_panel.marks, 2)]),
        "legend": (None, [(w.legend, 4)]),
        "properties": (None, [(w.properties.tree, 8)]),
        "overlays": (0, [(w.overlays_panel.profile_button, 0),
                         (w.overlays_panel.import_timings, 0)] +
                     [(b, 0) for b in w.overlays_panel.mode_buttons.values()]),
        "minimap": (None, [(w.minimap, 0)]),
        "pipeline": (None, [(w.pipeline_panel.palette, 4), (w.pipeline_panel.steps, 2),
                            (w.pipeline_panel.apply_text, 0)]),
        "preview": (None, [(w.preview_panel.check_button, 0), (w.preview_panel.table, rows)]),
        "sizes": (None, [(w.sizes_panel.before, 0)]),
        "mobile": (0, [(w.mobile_panel.check_button, 0), (w.mobile_panel.problems, rows)]),
        "mobile-convert": (1, [(w.mobile_panel.convert_button, 0),
                               (w.mobile_panel.table, rows)]),
        "mobile-quant": (3, [(w.quant_panel.run_button, 0), (w.quant_panel.keep, 0),
                             (w.quant_panel.table, rows), (w.quant_panel.below, 0)]),
        "demo": (None, [(w.demo_panel.run_button, 0), (w.demo_panel.bars, 0)]),
        "tour": (None, [(w.tour_panel.stops, rows), (w.tour_panel.add_button, 0),
                        (w.tour_panel.auto_button, 0), (w.tour_panel.present_button, 0)]),
    }


def fully_shown(widget) -> bool:
    """Every pixel of `widget` is on screen: not clipped by its dock, a tab or a splitter."""
    shown = widget.visibleRegion().boundingRect()
    return widget.isVisible() and shown.size() == widget.size()


def row_height(widget) -> int:
    return widget.fontMetrics().height() + 4


def click_task(qtbot, window, task) -> None:
    bar = window.workspace.bar
    index = list(TASKS).index(task)
    qtbot.mouseClick(bar, Qt.LeftButton, pos=bar.tabRect(index).center())
    qtbot.wait(60)


def check_task(qtbot, window, task) -> list:
    """What is wrong with `task`'s layout at the window's size ([] when all is well)."""
    problems = []
    click_task(qtbot, window, task)
    assert window.workspace.task == task
    canvas = window.canvas
    share = canvas.width() * canvas.height() / (window.width() * window.height())
    if share < 0.5:
        problems.append(f"{task}: the graph has {share:.0%} of the window")
    controls = key_controls(window)
    for name in docks_of(task):
        dock = getattr(window, f"{name}_dock")
        dock.raise_()
        for key in (name, f"{name}-convert", f"{name}-quant"):
            if key not in controls:
                continue
            tab, widgets = controls[key]
            if tab is not None:
                dock.widget().widget().tabs.setCurrentIndex(tab)
            qtbot.wait(30)
            area = dock.widget()
            if area.horizontalScrollBar().maximum() > 0:
                problems.append(f"{task}/{key}: wider than its dock")
            for widget, rows in widgets:
                label = f"{task}/{key}/{type(widget).__name__}"
                if not fully_shown(widget):
                    shown = widget.visibleRegion().boundingRect().size()
                    problems.append(f"{label}: not all shown ({shown} of {widget.size()})")
                if rows and widget.height() < rows * row_height(widget) + 8:
                    problems.append(f"{label}: {widget.height()} px, under {rows} rows")
    return problems


@pytest.fixture
def digits(tmp_path):
    path = tmp_path / "digits.pb"
    shutil.copy(DEMO, path)
    return str(path)


def test_every_panel_fits_at_1366x768_with_half_the_window_for_the_graph(qtbot, window,
                                                                        digits, tmp_path):
    window.resize(1366, 768)
    open_and_wait(qtbot, window, digits)
    qtbot.waitUntil(lambda: window.state.summary is not None and not window.tasks.is_busy(),
                    timeout=30000)
    assert window.workspace.task == "explore"          # the first look: the graph
    picture = np.zeros((8, 8), np.uint8)
    picture[2:6, 3:5] = 255
    Image.fromarray(picture, "L").save(tmp_path / "digit.png")
    window.demo.run_on(str(tmp_path / "digit.png"))     # the Demo's bars to check too
    qtbot.waitUntil(lambda: window.demo.runs > 0 and not window.tasks.is_busy(),
                    timeout=120000)
    assert window.workspace.task == "present"           # the run brought its panel
    problems = []
    for task in TASKS:
        problems += check_task(qtbot, window, task)
    assert not problems, "\n".join(problems)
    # every panel has a task that shows it
    assert {n for t in TASKS for n in docks_of(t)} == set(window.workspace.docks)


def test_the_phone_panel_does_not_scroll_at_1366x768(qtbot, window, digits):
    """Each Phone tab's page fits the dock's height: the Quantization tab (two rows of
    controls, a table and a chart) made the whole panel, every tab of it, scroll."""
    window.resize(1366, 768)
    open_and_wait(qtbot, window, digits)
    click_task(qtbot, window, "phone")
    area, tabs = window.mobile_dock.widget(), window.mobile_panel.tabs
    for index in range(tabs.count()):
        tabs.setCurrentIndex(index)
        qtbot.wait(30)
        assert area.verticalScrollBar().maximum() == 0, tabs.tabText(index)
        assert area.horizontalScrollBar().maximum() == 0, tabs.tabText(index)


def test_the_phone_panel_leaves_the_graph_room_at_1920x1080(qtbot, window, digits):
    window.resize(1920, 1080)
    open_and_wait(qtbot, window, digits)
    window.phone(0, lambda: None)                       # Phone menu: its panel to the front
    qtbot.wait(60)
    assert window.workspace.task == "phone" and window.mobile_panel.isVisible()
    assert window.canvas.height() >= 0.5 * window.height()
    assert window.canvas.width() * window.canvas.height() >= \
        0.5 * window.width() * window.height()


def test_ctrl_f_in_another_task_tabs_search_in(qtbot, window, digits):
    window.resize(1366, 768)
    open_and_wait(qtbot, window, digits)
    click_task(qtbot, window, "optimize")
    assert window.search_dock.isHidden()
    window.setFocus()
    qtbot.keyClick(window, Qt.Key_F, Qt.ControlModifier)
    assert window.workspace.task == "optimize"          # the layout stays
    assert fully_shown(window.search_panel.box) and window.search_panel.box.hasFocus()
    assert window.canvas.mapTo(window, QPoint(0, 0)).y() < 60   # the graph keeps the top



def test_no_tab_bar_of_an_earlier_layout_stays_on_screen(qtbot, digits, tmp_path):
    """Qt left the tab bars of the layout made before the window showed where they were:
    in the Optimize task two of them covered the Pipeline and Preview docks' titles."""
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QDockWidget, QTabBar

    from inspector.gui.main_window import MainWindow

    window = MainWindow(QSettings(str(tmp_path / "s.ini"), QSettings.IniFormat))
    qtbot.addWidget(window)
    window.resize(1366, 768)                 # sized before it shows, as the app does
    window.show()
    open_and_wait(qtbot, window, digits)
    for task in ("optimize", "explore", "phone", "present", "optimize"):
        click_task(qtbot, window, task)
        docks = [d for d in window.findChildren(QDockWidget) if d.isVisible()]
        bars = [b for b in window.findChildren(QTabBar)
                if b.parent() is window and b.isVisible() and
                window.rect().intersects(b.geometry())]
        assert bars
        for bar in bars:
            covered = [d.windowTitle() for d in docks if d.geometry().intersects(bar.geometry())]
            assert not covered, (task, [bar.tabText(i) for i in range(bar.count())], covered)
    window.tasks.cancel()
    window.tasks.wait(10.0)


@pytest.mark.parametrize("panel", ["Sizes", "Pipeline", "Preview", "Phone (TFLite)"])
def test_a_panel_from_the_view_menu_opens_in_its_task_at_its_size(qtbot, window, digits,
                                                                  panel):
    """View > Sizes in the Explore task showed the Sizes panel as a strip under the graph,
    its treemap cut to one row with a scroll bar: the View menu's toggle showed the dock
    where Qt had it, not where its task lays it out. It brings the panel's task now, as the
    Phone menu and Ctrl+F do."""
    window.resize(1366, 768)
    open_and_wait(qtbot, window, digits)
    assert window.workspace.task == "explore"
    view = next(a.menu() for a in window.menuBar().actions() if a.text() == "&View")
    action = next(a for a in view.actions() if a.text() == panel)
    action.trigger()
    qtbot.wait(60)
    name = next(n for n, d in window.docks.items() if d.windowTitle() == panel)
    dock = window.docks[name]
    home = panel_table.row(name).home
    assert window.workspace.task == home and dock.isVisible() and action.isChecked()
    assert dock.height() >= 0.3 * window.height(), dock.height()
    shown = (dock.geometry(), dock.widget().verticalScrollBar().maximum())
    click_task(qtbot, window, "explore")
    click_task(qtbot, window, home)                    # the task's own layout: the same
    dock.raise_()
    qtbot.wait(30)
    assert shown == (dock.geometry(), dock.widget().verticalScrollBar().maximum())
    if panel == "Sizes":
        assert shown[1] == 0                           # the treemap whole, no scroll bar
    action.trigger()                                   # and the toggle still closes it
    assert not dock.isVisible() and not action.isChecked()
