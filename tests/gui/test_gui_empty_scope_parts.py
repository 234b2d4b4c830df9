"""A model whose names have empty parts (a leading, doubled or trailing '/': '//two/x',
'/x/n' beside 'x/m', 'a//b', 't/', '/'), past 4,096 nodes (a big graph's columns) in the
window: every scope opens, Expand all draws, search finds and shows them, with no error."""

from __future__ import annotations

from test_gui import open_and_wait, wait_drawn


def test_a_model_of_names_with_empty_parts_opens_expands_and_searches(qtbot, window,
                                                                      tmp_path):
    """note15: ScopeMap raised KeyError on the scope '/' of such names, and '/x' and 'x'
    were one child of the root (the nodes of one left out of the tree)."""
    from tests.fixtures.hostile import inputs as I

    errors = []
    window.state.error.connect(errors.append)
    open_and_wait(qtbot, window, I.empty_scope_parts(str(tmp_path)))
    h = window.state.view.hierarchy
    assert type(h.scopes).__name__ == "ScopeMap"       # the columns' hierarchy
    for path in ("/", "//two", "a/", "/x", "x", "t", "u/", "//", "a//b"):
        assert h.scopes[path].path == path
        before = window.scenes_drawn
        window.state.set_expanded(path, True)
        wait_drawn(qtbot, window, before)
        assert f"{path}/" in window.canvas.items_by_id, path     # its frame
    assert "/x/n" in window.canvas.items_by_id and "x/m" in window.canvas.items_by_id
    # a scope's path is said whole: its tip and Copy name (they dropped every trailing '/':
    # "/" said "", "a/" said "a")
    from PySide6.QtCore import QPoint
    from PySide6.QtWidgets import QApplication

    for path in ("/", "a/", "u/"):
        item = window.canvas.items_by_id[f"{path}/"]
        assert item.toolTip().split("\n")[0] == path, item.toolTip()
        window.canvas_ctl.context_menu(f"{path}/", window.canvas.mapToGlobal(QPoint(5, 5)))
        copy = next(a for a in window.canvas_ctl.menu.actions() if a.text() == "Copy name")
        copy.trigger()
        window.canvas_ctl.menu.close()
        assert QApplication.clipboard().text() == path
    before = window.scenes_drawn
    window.state.expand_all()
    wait_drawn(qtbot, window, before)
    shown = {i for i, it in window.state.scene.items.items() if it.kind == "node"}
    assert {"//two/x", "/x/n", "x/m", "a//b/c", "/lead"} <= shown
    window.search_panel.box.setText("two")
    qtbot.waitUntil(lambda: window.search_panel.results.count() > 0, timeout=20000)
    assert "//two/x" in window.search_panel.matches
    before = window.scenes_drawn
    window.search_panel.results.setCurrentRow(window.search_panel.matches.index("//two/x"))
    qtbot.waitUntil(lambda: window.state.selected == "//two/x", timeout=20000)
    assert not errors, errors
