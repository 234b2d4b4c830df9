"""Small frictions (issue 38.23): Help > Getting started covers every task, File > Open starts
in the model's folder, the likely inputs say why in sight, every op category has its own
colour, "Function library…" is off without a library, the percentiles are explained."""

import itertools
import os
import shutil

import pytest
from conftest import DEMO
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QTextBrowser
from test_gui import open_and_wait

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def menu_action(window, text) -> QAction:
    return next(a for a in window.findChildren(QAction) if a.text() == text)


def delta_e(a: str, b: str) -> float:
    """CIE76 colour difference of two '#rrggbb' colours (about 2.3: just noticeable)."""
    def lab(colour):
        rgb = [int(colour.lstrip("#")[i:i + 2], 16) / 255 for i in (0, 2, 4)]
        r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb)
        x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
        y = 0.2126 * r + 0.7152 * g + 0.0722 * b
        z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883
        f = [t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116 for t in (x, y, z)]
        return 116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])
    return sum((p - q) ** 2 for p, q in zip(lab(a), lab(b))) ** 0.5


def test_getting_started_covers_demo_tour_and_phone(qtbot, window):
    menu_action(window, "&Getting started").trigger()
    qtbot.waitUntil(lambda: getattr(window, "help_dialog", None) is not None)
    text = window.help_dialog.findChild(QTextBrowser).toPlainText()
    for words in ("Open a model", "Run on a file", "Auto-tour", "Present", "F5",
                  "Pipeline", "Check TFLite compatibility", "Convert four variants",
                  "Model card"):
        assert words in text, words
    window.help_dialog.close()


def test_file_open_starts_in_the_models_folder(qtbot, window, tmp_path, monkeypatch):
    from inspector.gui import main_window

    folder = tmp_path / "models"
    folder.mkdir()
    path = str(folder / "digits.pb")
    shutil.copy(DEMO, path)
    asked = []
    monkeypatch.setattr(main_window.QtWidgets.QFileDialog, "getOpenFileName",
                        staticmethod(lambda *a, **k: (asked.append(a[2]), ("", ""))[1]))
    monkeypatch.setattr(main_window.QtWidgets.QFileDialog, "getExistingDirectory",
                        staticmethod(lambda *a, **k: (asked.append(a[2]), "")[1]))
    menu_action(window, "&Open…").trigger()          # nothing open yet, nothing recent
    open_and_wait(qtbot, window, path)
    menu_action(window, "&Open…").trigger()
    menu_action(window, "Open SavedModel &folder…").trigger()
    assert asked == ["", str(folder), str(folder)]


def test_likely_inputs_say_why_and_categories_look_different(qtbot, window, model):
    open_and_wait(qtbot, window, model)
    qtbot.waitUntil(lambda: window.state.summary is not None and not window.tasks.is_busy(),
                    timeout=30000)
    summary = window.state.summary
    items = window.summary_panel.candidates
    texts = [items.item(i).text() for i in range(items.count())]
    first = summary.inputs[0]
    assert first.reason and any(t.startswith(first.title) and first.reason in t
                                for t in texts), texts
    window.legend_dock.raise_()
    colours = dict((text.split()[0], colour) for colour, text in window.legend.rows())
    assert {"constant", "shape"} <= set(colours), colours
    assert delta_e(colours["constant"], colours["shape"]) >= 10
    from inspector.core.view.vocabulary import CATEGORY_COLOURS

    close = [(a, b) for a, b in itertools.combinations(CATEGORY_COLOURS, 2)
             if delta_e(CATEGORY_COLOURS[a], CATEGORY_COLOURS[b]) < 9]
    assert not close, close


def test_function_library_is_off_without_a_library(qtbot, window, model, fx):
    action = menu_action(window, "F&unction library…")
    assert not action.isEnabled()                    # nothing open
    open_and_wait(qtbot, window, model)
    assert not action.isEnabled() and "no function library" in action.toolTip()
    open_and_wait(qtbot, window, os.path.join(fx, "while_v2.pb"))
    assert action.isEnabled()


def test_the_percentiles_are_explained_where_they_are_set(qtbot, window):
    panel = window.overlays_panel
    window.overlays_dock.raise_()
    panel.tabs.setCurrentIndex(1)
    qtbot.mouseClick(panel.range_settings.button, Qt.LeftButton)   # the folded settings
    note = panel.percentiles_note
    assert note.isVisibleTo(window) and "outlier" in note.text()
    assert "logged mins" in panel.min_pct.toolTip() and "logged maxes" in \
        panel.max_pct.toolTip()


def test_the_progress_bar_never_shows_words_cut_in_half_at_1366x768(qtbot, window):
    """A comparison's diff says "interface and totals" at 90 %: the status line's bar (95 px
    at 1366x768) drew the words wrapped and cut at top and bottom, beside the same words in
    the line itself. The bar shows the share done; the line says what runs."""
    window.resize(1366, 768)
    window.show()
    line = window.status_line
    line.busy(True, "Comparing")
    line.show_progress(90, 100, "interface and totals")
    qtbot.wait(50)
    bar = line.progress
    assert line.label.text() == "interface and totals"
    assert bar.fontMetrics().horizontalAdvance(bar.text()) <= bar.contentsRect().width() - 8
    line.show_progress(0, 0, "Measuring sizes of a_long_model_name.pb")   # no count known
    assert not bar.isTextVisible() or bar.fontMetrics().horizontalAdvance(bar.text()) <= \
        bar.contentsRect().width() - 8
    line.busy(False, "")


def test_view_menu_brings_a_panel_that_is_behind_another_s_tab(qtbot, window, model):
    """Optimize: Sizes sits behind Preview's tab and View > Sizes read checked, so choosing it
    closed the panel the user asked to see. It reads unchecked while covered, and choosing it
    brings it forward; choosing it again (in sight, checked) closes it."""
    open_and_wait(qtbot, window, model)
    window.resize(1366, 768)
    window.workspace.switch("optimize")
    window.show_panel(window.preview_dock)
    sizes = window.sizes_dock
    qtbot.waitUntil(lambda: not sizes.isHidden() and sizes.visibleRegion().isEmpty(),
                    timeout=5000)
    view = next(a.menu() for a in window.menuBar().actions() if a.text() == "&View")
    toggle = sizes.toggleViewAction()
    view.aboutToShow.emit()
    assert not toggle.isChecked()
    toggle.trigger()
    qtbot.waitUntil(lambda: not sizes.visibleRegion().isEmpty(), timeout=5000)
    view.aboutToShow.emit()
    assert toggle.isChecked()
    toggle.trigger()
    assert sizes.isHidden()
