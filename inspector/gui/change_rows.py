"""The comparison window's change list: a model that reads its rows on demand (handing a
300k-row list to a QStringListModel converts every string in one call on the GUI thread,
~50 ms with the GIL held on a loaded 2-core machine) shown by a one-column table, which asks
the model only about the rows it shows. A QListView lays out every row (a rowCount call into
Python per row, ~1.5 per row per layout, again at each resize and in batches during n / p:
each call waits for the GIL while a layout task computes: 60-100 ms stalls at 300k rows)."""

from __future__ import annotations

from PySide6.QtCore import QAbstractListModel, QModelIndex, Qt
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView


class ChangeRows(QAbstractListModel):
    """Rows of CompareSession.change_rows(): (text, entry index, kind); the text shown."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self._rows: list = []

    def set_rows(self, rows: list) -> None:
        self.beginResetModel()
        self._rows = rows
        self.endResetModel()

    def rowCount(self, parent=QModelIndex()) -> int:  # noqa: N802  (Qt's spelling)
        return 0 if parent.isValid() else len(self._rows)

    def data(self, index, role=Qt.DisplayRole):
        if role == Qt.DisplayRole and index.isValid() and 0 <= index.row() < len(self._rows):
            return self._rows[index.row()][0]
        return None

    def stringList(self) -> list:  # noqa: N802  (QStringListModel's name, for tests)
        return [row[0] for row in self._rows]


class ChangeList(QTableView):
    """A list of ChangeRows to the eye (one column, no headers or grid, rows of one height,
    a row selected whole), with a table's lazy rows: the vertical header of fixed sections
    keeps a count, not a layout per row."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setModel(ChangeRows(self))
        for header in (self.horizontalHeader(), self.verticalHeader()):
            header.hide()
        self.horizontalHeader().setStretchLastSection(True)
        rows = self.verticalHeader()
        rows.setSectionResizeMode(QHeaderView.Fixed)
        # as compact as a list view's rows, a line of text (the header's own minimum, 18 px
        # at 9 pt, held every row to it)
        line = self.fontMetrics().height()
        rows.setMinimumSectionSize(line)
        rows.setDefaultSectionSize(line)
        self.setShowGrid(False)
        self.setWordWrap(False)
        self.setSelectionBehavior(QAbstractItemView.SelectRows)
        self.setSelectionMode(QAbstractItemView.SingleSelection)
        self.setEditTriggers(QAbstractItemView.NoEditTriggers)
        self.setTabKeyNavigation(False)
