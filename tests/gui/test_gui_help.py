"""Help > Getting started, opened from the Help menu: it covers comparing, quantization
recipes, target reports and Model Explorer node data, and every menu item, panel, tab and
button it names in bold is one the window really has."""

import pytest
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QCheckBox, QDockWidget, QPushButton, QTabWidget, QTextBrowser
from test_gui_compare import compare_window

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

INSTRUCTIONS = {"Open a model"}     # bold that starts a paragraph, not a name on screen


def bold_terms(document) -> list:
    """The runs of bold text the page shows outside its headings."""
    terms, block = [], document.begin()
    while block.isValid():
        run, it = "", block.begin()
        while not it.atEnd() and block.blockFormat().headingLevel() == 0:
            fragment = it.fragment()
            if fragment.charFormat().fontWeight() >= QFont.Bold:
                run += fragment.text()
            elif run:
                terms.append(" ".join(run.split()))
                run = ""
            it += 1
        if run:
            terms.append(" ".join(run.split()))
        block = block.next()
    return terms


def names_on_screen(*roots) -> set:
    names = set()
    for root in roots:
        names |= {b.text().replace("&", "") for b in root.findChildren(QPushButton)}
        names |= {b.text().replace("&", "") for b in root.findChildren(QCheckBox)}
        names |= {d.windowTitle() for d in root.findChildren(QDockWidget)}
        for tabs in root.findChildren(QTabWidget):
            names |= {tabs.tabText(i).replace("&", "") for i in range(tabs.count())}
    return names


def test_getting_started_covers_compare_recipes_targets_and_model_explorer(qtbot, window,
                                                                             tmp_path):
    compared = compare_window(qtbot, window, tmp_path)   # File > Compare with… as a user does
    help_menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Help")
    next(a for a in help_menu.actions() if a.text() == "&Getting started").trigger()
    qtbot.waitUntil(lambda: getattr(window, "help_dialog", None) is not None)
    browser = window.help_dialog.findChild(QTextBrowser)
    room = window.screen().availableGeometry()
    assert window.help_dialog.width() <= room.width()
    assert window.help_dialog.height() <= room.height()
    text = " ".join(browser.toPlainText().split())
    for words in ("File > Compare with…", "Run both on the same input", "File > Open comparison…",
                  "Quantization", "Run recipes", "Keep this layer float", "Size vs error",
                  "Phone > Target report", "Run report", "Ethos-U",
                  "File > Export overlay as Model Explorer node data…",
                  "File > Import Model Explorer node data…", "--me-mapping",
                  "graphdef-inspector --help"):
        assert words in text, words
    # the names it gives are the window's: menu items, then panels, tabs and buttons
    menus = [(top.text().replace("&", ""), a.text().replace("&", ""))
             for top in window.menuBar().actions() if top.menu()
             for a in top.menu().actions()]
    for later in ("mobile_panel", "quant_panel", "preview_panel", "tour_panel", "demo_panel",
                  "sizes_panel"):
        getattr(window, later)                    # the panels made on first use
    window.targets.open()
    on_screen = names_on_screen(window, compared)
    terms = bold_terms(browser.document())
    assert len(terms) > 30
    for term in terms:
        if " > " in term:
            top, item = term.split(" > ", 1)
            assert any(t == top and a.startswith(item.rstrip("…")) for t, a in menus), term
        elif len(term) > 1 and term not in INSTRUCTIONS:
            assert any(name.startswith(term) for name in on_screen), term
    window.targets.dialog.close()
    window.help_dialog.close()
