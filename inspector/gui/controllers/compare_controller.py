"""File > Compare with…: opens model B, diffs it against the open model as a task (off the
GUI thread, with progress and cancel) and shows the comparison window."""

from __future__ import annotations

import os

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog, QMessageBox

from inspector.core.app.compare_runs import (
    start_compare_step,
    start_compare_with,
    start_open_document,
    start_stages,
)
from inspector.core.app.opening import open_dialog_filter
from inspector.core.errors import Cancelled
from inspector.gui.wording import said


class CompareController:
    """Made from its collaborators: the state, the tasks, the dialogs (their parent is the
    parent of its file choosers and message boxes) and `open_variant(name)`, the Phone panel's
    converted variant as a file (its path, or None)."""

    def __init__(self, state, tasks, dialogs, open_variant):
        self.state, self.tasks, self.dialogs = state, tasks, dialogs
        self.open_variant = open_variant
        self.windows: list = []        # comparison windows kept alive while open
        self.on_error = None           # set: failures go there, not to a dialog (--screenshot)
        state.comparison_ready.connect(self._opened)

    def compare_with(self, path: str = "") -> None:
        w = self.dialogs.parent
        model = self.state.model
        if model is None:
            QMessageBox.information(w, "Compare", "Open a model first (A), then compare it "
                                                  "with another (B).")
            return
        if not path:
            path, _ = QFileDialog.getOpenFileName(w, "Compare with…", os.path.dirname(
                model.path or ""), open_dialog_filter())
        if not path:
            return
        start_compare_with(self.state, self.tasks, path, self._lay_out, self._failed)

    def compare_step(self, row: int) -> None:
        """The graph after pipeline step `row` against the original, with the pipeline's own
        provenance (renames, merges, splits of each step up to it)."""
        start_compare_step(self.state, self.tasks, row, self._lay_out, self._failed)

    def compare_variant(self, variant: str) -> None:
        """A converted TFLite variant against the GraphDef it came from (matched by the
        converter's fused tensor names first)."""
        path = self.open_variant(variant)
        if path:
            self.compare_with(path)

    def compare_stages(self) -> None:
        """The original and the graph after every previewed step as synced lanes."""
        start_stages(self.state, self.tasks, self._failed)

    def open_document(self, path: str = "") -> None:
        """File > Open comparison…: a saved comparison, read in a task, its models opened
        again from the paths it names (a path outside the file's folder only after a yes)."""
        w = self.dialogs.parent
        if not path:
            path, _ = QFileDialog.getOpenFileName(w, "Open comparison", "",
                                                  "Comparisons (*.json)")
        if not path:
            return
        start_open_document(self.state, self.tasks, path, self._trusted, self._lay_out,
                            self._failed, self._unreadable)

    def _trusted(self, outside: list) -> bool:
        """Yes to opening the models a saved comparison names outside its folder."""
        return QMessageBox.question(
            self.dialogs.parent, "Open comparison", "The comparison names models outside its "
            "folder:\n" + "\n".join(outside) + "\n\nOpen them?") == QMessageBox.Yes

    def _unreadable(self, exc) -> None:
        QMessageBox.warning(self.dialogs.parent, "Open comparison", said(exc))

    @staticmethod
    def _lay_out(session, job):
        """Both sides laid out in the comparison's task: the window opens with its pictures
        made, and nothing of that runs beside the GUI thread later."""
        from inspector.gui.compare_opening import layouts

        return layouts(session, ("A", "B"), job)

    def _opened(self, opened) -> None:
        if opened.lanes:
            from inspector.gui.lanes_window import LanesWindow

            win = LanesWindow(opened.session, self.tasks)
            self._on_owner_screen(win)
            win.setAttribute(Qt.WA_DeleteOnClose)   # as a comparison window (review17: a
            win.destroyed.connect(lambda *_: self._closed(win))   # closed one was kept)
            self.windows.append(win)
            win.show()
            return
        self._show(opened.session, opened.first)
        if opened.note:
            self.state.say(opened.note)

    def _show(self, session, first: dict | None = None) -> None:
        from inspector.gui.compare_window import CompareWindow

        win = CompareWindow(session, self.tasks, first=first)
        self._on_owner_screen(win)
        win.setAttribute(Qt.WA_DeleteOnClose)   # closed, it was kept (and its comparison,
        win.destroyed.connect(lambda *_: self._closed(win))   # both models) till the end
        self.windows.append(win)
        win.show()

    def _closed(self, win) -> None:
        """A comparison window deleted: let go of it and of its comparison (off the GUI
        thread, in short calls)."""
        if win in self.windows:
            self.windows.remove(win)
        win.let_go()

    def _on_owner_screen(self, win) -> None:
        """A comparison or lanes window opens on the main window's screen, fitted to it."""
        owner = getattr(self.dialogs, "parent", None)       # the main window
        screen = owner.screen() if owner is not None else None
        if screen is not None and screen is not win.screen():   # opens where it is
            win.setScreen(screen)
            win.resize(*win.fitting())

    def _failed(self, exc) -> None:
        if isinstance(exc, Cancelled):
            return
        if self.on_error is not None:
            self.on_error(f"could not compare: {exc}")
        else:
            QMessageBox.warning(self.dialogs.parent, "Compare", f"Could not compare: {exc}")
