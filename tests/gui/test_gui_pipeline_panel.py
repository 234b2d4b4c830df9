"""The Pipeline panel in a laptop's dock (issue 38.20): the wheel over the palette scrolls the
palette, never the whole panel; a transform dropped beside the list (on a parameter field)
adds a step instead of pasting its name into the field; errors show without scrolling."""

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication
from test_gui import open_and_wait
from test_gui_workbench import drop_on_list, palette_item

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def wheel(widget, pos: QPoint, down: bool) -> None:
    """One notch of the mouse wheel over `widget` at `pos`, through the window system as a
    real wheel (Qt propagates only such events to the parents)."""
    window = widget.window()
    at = QPointF(widget.mapTo(window, pos))
    QTest.wheelEvent(window.windowHandle(), at, QPoint(0, -120 if down else 120))


def visible_in_dock(window, dock, widget) -> bool:
    """Is `widget` shown inside the dock's scroll area's viewport, without scrolling?"""
    area = dock.widget()
    viewport = area.viewport()
    top_left = widget.mapTo(viewport, QPoint(0, 0))
    return (widget.isVisibleTo(window) and top_left.y() >= 0 and
            top_left.y() + widget.height() <= viewport.height())


def test_the_wheel_over_the_palette_scrolls_the_palette_only(qtbot, window, model):
    open_and_wait(qtbot, window, model)
    window.resize(1366, 768)
    window.show_panel(window.pipeline_dock)         # the Optimize task
    window.resizeDocks([window.pipeline_dock], [150], Qt.Vertical)   # a short dock
    qtbot.wait(100)
    outer = window.pipeline_dock.widget().verticalScrollBar()
    palette = window.pipeline_panel.palette
    inner = palette.verticalScrollBar()
    assert inner.maximum() > 0 and outer.maximum() > 0, (inner.maximum(), outer.maximum())
    centre = palette.viewport().visibleRegion().boundingRect().center()   # on screen
    for _ in range(40):                       # down to the palette's end, then on
        wheel(palette.viewport(), centre, down=True)
    assert inner.value() == inner.maximum()
    assert outer.value() == 0                 # the panel itself did not move
    for _ in range(80):
        wheel(palette.viewport(), centre, down=False)
    assert inner.value() == 0 and outer.value() == 0


def test_a_transform_dropped_on_a_parameter_field_adds_a_step(qtbot, window, model):
    open_and_wait(qtbot, window, model)
    panel = window.pipeline_panel
    drop_on_list(window, panel.palette.mimeData([palette_item(window, "remove_nodes")]))
    qtbot.waitUntil(lambda: panel.steps.count() == 1)
    panel.steps.setCurrentRow(0)
    field = panel.param_widgets["op"].lineEdit()
    mime = panel.palette.mimeData([palette_item(window, "round_weights")])
    pos = field.rect().center()
    enter = QDragEnterEvent(pos, Qt.CopyAction | Qt.MoveAction, mime, Qt.LeftButton,
                            Qt.NoModifier)
    QApplication.sendEvent(field, enter)
    drop = QDropEvent(QPointF(pos), Qt.CopyAction | Qt.MoveAction, mime, Qt.LeftButton,
                      Qt.NoModifier)
    QApplication.sendEvent(field, drop)
    qtbot.wait(50)
    assert field.text() == ""                  # nothing pasted into the op field
    assert [s.name for s in window.workbench.steps] == ["remove_nodes", "round_weights"]


def test_pipeline_errors_show_without_scrolling_at_1366x768(qtbot, window, model):
    window.resize(1366, 768)
    open_and_wait(qtbot, window, model)
    window.show_panel(window.pipeline_dock)         # the Optimize task
    qtbot.wait(100)
    panel = window.pipeline_panel
    window.workbench.set_text("round_weights")
    qtbot.waitUntil(lambda: panel.steps.count() == 1)
    panel.steps.setCurrentRow(0)
    box = panel.param_widgets["num_steps"]
    box.setFocus()
    qtbot.keyClicks(box, "many")
    assert panel.form_error.text()
    assert visible_in_dock(window, window.pipeline_dock, panel.form_error)
    panel.text.setFocus()
    panel.text.selectAll()
    qtbot.keyClicks(panel.text, "fold_constants not_a_transform")
    assert visible_in_dock(window, window.pipeline_dock, panel.apply_text)
    qtbot.mouseClick(panel.apply_text, Qt.LeftButton)
    assert "not_a_transform" in panel.text_error.text()
    assert visible_in_dock(window, window.pipeline_dock, panel.text_error)


def test_the_palette_shows_every_transform_s_whole_name_at_1366x768(qtbot, window, model):
    """Regression: at 1366x768 the palette read "inline_partitionedc...", "backport_tensor_a...":
    beside the steps it takes the width of its longest name now (a flatter tree), and each
    item's tooltip starts with its whole name."""
    window.resize(1366, 768)
    open_and_wait(qtbot, window, model)
    window.show_panel(window.pipeline_dock)         # the Optimize task
    palette = window.pipeline_panel.palette
    qtbot.waitUntil(lambda: palette.topLevelItemCount() > 0, timeout=10000)
    qtbot.wait(200)
    fm = palette.fontMetrics()
    items = [palette.topLevelItem(g).child(k) for g in range(palette.topLevelItemCount())
             for k in range(palette.topLevelItem(g).childCount())]
    assert any(i.data(0, Qt.UserRole) == "inline_partitionedcall" for i in items)
    right = palette.viewport().width()
    for item in items:
        rect = palette.visualItemRect(item)
        assert rect.left() + fm.horizontalAdvance(item.text(0)) <= right, (item.text(0), right)
        assert item.toolTip(0).startswith(item.data(0, Qt.UserRole) + ": ")


def test_the_pipeline_panel_is_split_by_responsibility_under_400_lines():
    """note15: pipeline_panel.py was 414 lines. Its two drag-and-drop lists (the palette and
    the steps) live in pipeline_lists.py, the panel (form, text, signals) in
    pipeline_panel.py, which uses the same classes. Fails on the old code."""
    import inspector.gui.panels.pipeline_lists as lists
    import inspector.gui.panels.pipeline_panel as panel

    for module in (lists, panel):
        with open(module.__file__, encoding="utf-8") as fh:
            assert len(fh.readlines()) < 400, module.__file__
    assert panel.Palette is lists.Palette and panel.StepList is lists.StepList
