"""The comparison window's change list as a model that reads its rows on demand: handing a
300k-row list to a QStringListModel converts every string in one call on the GUI thread
(~50 ms with the GIL held on a loaded 2-core machine); the view asks only for the rows it
shows (uniform item sizes)."""

from __future__ import annotations

from PySide6.QtCore import QAbstractListModel, QModelIndex, Qt


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
