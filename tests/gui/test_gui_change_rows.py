"""The comparison window's change list reads its rows on demand (issue 47: a 300k-row
QStringListModel was filled by converting every string in one call on the GUI thread,
~50 ms with the GIL held on the 300k pair): the view asks only for the rows it shows."""

from PySide6.QtWidgets import QListView
from test_gui_compare import compare_window

from inspector.gui.change_rows import ChangeRows


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
