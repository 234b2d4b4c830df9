"""The comparison window's change list reads its rows on demand (issue 47: a 300k-row
QStringListModel was filled by converting every string in one call on the GUI thread,
~50 ms with the GIL held on the 300k pair): the view asks only for the rows it shows, and
lays out none of the others (a QListView called the model's rowCount per row at each
layout: 60-100 ms stalls during n / p on the 300k renamed pair)."""

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QListView
from test_gui_compare import compare_paths, compare_window, folded_copy, private_copy

from inspector.core.loaders import load
from inspector.gui.change_rows import ChangeRows
from tests.core.test_compare_scale import renamed_shuffled
from tests.fixtures.scale_models import blocks_graph


def test_a_big_change_list_is_read_only_where_it_is_shown(qtbot):
    rows = [(f"renamed 'n{k}' -> 'm{k}'", k, "entry") for k in range(20_000)]
    view = QListView()
    view.setUniformItemSizes(True)
    view.setLayoutMode(QListView.Batched)
    view.setBatchSize(2000)
    model = ChangeRows(view)
    asked = []
    real = model.data
    model.data = lambda index, role=0: asked.append(index.row()) or real(index, role)
    view.setModel(model)
    qtbot.addWidget(view)
    view.resize(400, 300)
    view.show()
    model.set_rows(rows)
    qtbot.waitUntil(lambda: view.visualRect(model.index(0)).isValid())
    last = model.index(len(rows) - 1)
    view.scrollTo(last)
    qtbot.waitUntil(lambda: view.visualRect(last).isValid(), timeout=10000)
    assert model.rowCount() == len(rows) and model.stringList()[5] == rows[5][0]
    assert model.data(model.index(7)) == rows[7][0] and model.data(model.index(len(rows))) is None
    assert asked and len(set(asked)) < 1000     # the rows shown, not all 20k


def test_the_window_shows_the_sessions_rows_as_they_are(qtbot, window, tmp_path):
    win = compare_window(qtbot, window, tmp_path)
    model = win.changes.model()
    assert isinstance(model, ChangeRows) and model._rows is win.session.change_rows()
    assert model.stringList() == [r[0] for r in win.session.change_rows()]


def test_a_big_change_list_lays_out_only_the_rows_it_shows(qtbot, window, tmp_path,
                                                            monkeypatch):
    a = blocks_graph(20_000, 0)
    b = tmp_path / "renamed.pb"                           # every node renamed: 20k rows
    b.write_bytes(renamed_shuffled(load(a).graph)[0].graph_def.SerializeToString())
    asked = []
    real = ChangeRows.rowCount
    monkeypatch.setattr(ChangeRows, "rowCount", lambda self, *p: asked.append(1) or
                        real(self, *p))
    win = compare_paths(qtbot, window, a, str(b))         # File > Compare with…
    rows = win.changes.model().rowCount()
    assert rows >= 20_000
    for key in (Qt.Key_N, Qt.Key_N, Qt.Key_N, Qt.Key_P):  # n / p select rows of the list
        qtbot.keyClick(win, key)
        qtbot.waitUntil(win.ready, timeout=60000)
        assert win.changes.currentIndex().row() == win.session.row
    win.resize(win.width() - 40, win.height() - 30)       # a resize lays the view out again
    qtbot.wait(100)
    last = win.changes.model().index(rows - 1)
    win.changes.scrollTo(last)
    qtbot.waitUntil(lambda: win.changes.visualRect(last).isValid())
    assert len(asked) < 2000, len(asked)        # a QListView: ~1.5 calls per row per layout
    assert win.changes.visualRect(last).height() == \
        win.changes.visualRect(win.changes.model().index(0)).height()    # rows of one height


def test_the_change_list_rows_are_one_line_high_as_the_list_views_were(qtbot, window,
                                                                          tmp_path):
    """A one-column table's rows were 18 px (its header's minimum section) against the list
    view's 14 at 9 pt: the default pane showed 6-7 rows, not 8. A row is one line of text
    again, as high as a list view's row of the same text (so nothing is clipped)."""
    window.resize(1366, 768)
    win = compare_paths(qtbot, window, private_copy(tmp_path), folded_copy(tmp_path),
                        size=(1366, 768))
    changes = win.changes
    qtbot.waitUntil(lambda: changes.model().rowCount() > 10)
    line = changes.fontMetrics().height()
    listed = QListView()
    listed.setFont(changes.font())
    listed.setModel(changes.model())
    qtbot.addWidget(listed)
    assert changes.rowHeight(0) == listed.sizeHintForRow(0) == line
    assert changes.rowHeight(0) >= changes.sizeHintForRow(0)     # the text whole
    assert changes.viewport().height() // changes.rowHeight(0) >= 8
