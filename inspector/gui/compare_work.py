"""The comparison window's work beside its pictures: its own tasks (the numeric run's
progress and Cancel in its status bar, not the main window's) and its files (Save report,
Save comparison: A_vs_B proposed, the numeric result written into both)."""

from __future__ import annotations

import os

from PySide6.QtWidgets import QFileDialog, QMessageBox, QProgressBar, QPushButton

from inspector.core.app.comparing import report_html
from inspector.core.app.comparison_files import save_document, unsaved_side
from inspector.core.app.exports import atomic_write
from inspector.core.runtime import letting_go
from inspector.gui.tasks import gui_tasks


class CompareWork:
    """Mixed into CompareWindow (a QMainWindow with `session`, `status`, `numeric_button`)."""

    def _make_work_bar(self) -> None:
        """The window's own tasks (the numeric run), their progress and Cancel in its
        status bar."""
        self.own_tasks = gui_tasks(self)
        self.own_tasks.progress.connect(self._progress)
        self.work_label = ""
        self.progress = QProgressBar()
        self.progress.setMaximumWidth(220)
        self.progress.setTextVisible(False)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.clicked.connect(self._cancel_work)
        for w in (self.progress, self.cancel_button):
            self.statusBar().addPermanentWidget(w)
            w.hide()

    def _working(self, label: str) -> None:
        """The window's own work in its status bar ('' when it ended)."""
        self.work_label = label
        self.progress.setRange(0, 0)
        self.progress.setVisible(bool(label))
        self.cancel_button.setVisible(bool(label))
        if label:
            self.statusBar().showMessage(label + "…")
        else:
            self.statusBar().clearMessage()

    def _progress(self, done: int, total: int, text: str = "") -> None:
        if not self.work_label:
            return
        self.progress.setRange(0, max(total, 1))
        self.progress.setValue(min(done, max(total, 1)))
        self.statusBar().showMessage(f"{self.work_label}: {text}" if text else
                                     self.work_label + "…")

    def _cancel_work(self) -> None:
        self.own_tasks.cancel()
        self._working("")
        self.numeric_button.setEnabled(True)

    def closeEvent(self, event) -> None:
        self.own_tasks.cancel()
        # its layout, if the latest, is stopped: its result would come to a deleted window
        # (the controller deletes a closed one) and hold the comparison till it ends
        if self._layout_gen is not None and \
                self.tasks.current("compare-layout") == self._layout_gen:
            self.tasks.cancel("compare-layout", quiet=True)
        super().closeEvent(event)

    def let_go(self) -> None:
        """The comparison freed a few hundred items a call on a thread of its own once the
        window's last Python reference is gone (its controller asks, the window deleted):
        dropped with the window, its 550k entries and name maps were one C call of ~0.5 s
        holding the GUI thread, whichever thread made it."""
        session = self.__dict__.pop("session", None)
        self.__dict__.pop("_first", None)
        if session is not None:
            letting_go.let_go(session)

    def save_report(self, path: str = "") -> str:
        if not path:
            path, _ = QFileDialog.getSaveFileName(self, "Save the comparison report",
                                                  self.session.file_name("html"),
                                                  "HTML (*.html)")
        if not path:
            return ""
        try:
            atomic_write(path, report_html(self.session), force=True)
        except Exception as exc:          # a write that fails says so and changes nothing
            QMessageBox.warning(self, "Report not saved", f"{path}: {exc}")
            return ""
        self.status.setText(f"Saved {path}")
        return path

    def save_document(self, path: str = "") -> str:
        why = unsaved_side(self.session)
        if why:                            # said before a file is asked for, not after
            QMessageBox.information(self, "Comparison not saved", why[0].upper() + why[1:])
            return ""
        if not path:
            path, _ = QFileDialog.getSaveFileName(self, "Save the comparison",
                                                  self.session.file_name("json"),
                                                  "Comparisons (*.json)")
        if not path:
            return ""
        try:
            kept = save_document(self.session, path)
        except Exception as exc:          # noqa: BLE001 - said in a dialog, nothing lost
            QMessageBox.warning(self, "Comparison not saved", f"{path}: {exc}")
            return ""
        self.status.setText(f"Saved {path}" + "".join(
            f"; the converted model kept beside it: {os.path.basename(k)}" for k in kept))
        return path
