"""The dialogs controllers need, on one parent widget: consent (asked once per graph, the
answer kept in the state), errors, signature and file choices. Their Qt classes are read from
QtWidgets when a dialog is first made (PySide makes a class on its first read: QMessageBox
alone is ~5 ms, the lot ~15 ms on the slow class, before the first picture otherwise)."""

from __future__ import annotations

import os

from PySide6 import QtWidgets
from PySide6.QtCore import Qt

from inspector.core.runtime.lazy_import import later

signature_dialog = later("inspector.gui.signature_dialog", globals(), "signature_dialog")


class Dialogs:
    def __init__(self, parent, state):
        self.parent, self.state = parent, state
        self.last_box = None

    def consent(self, exc, action: str) -> bool:
        """True when the user allows running what `exc.findings` lists, now or before."""
        key = frozenset((f.node, f.op, f.via) for f in getattr(exc, "findings", []))
        if not key:
            return False
        if key in self.state.consent:
            return True
        findings = exc.findings
        listed = "\n".join(f"• {f.describe()}" for f in findings[:8])
        more = f"\n… and {len(findings) - 8} more" if len(findings) > 8 else ""
        Box = QtWidgets.QMessageBox
        box = Box(Box.Warning, "Run operations that are not pure computation?",
                  f"{action} would run operations that can read or write files, use "
                  f"the network or run code:\n\n{listed}{more}\n\n"
                  "Only continue if you trust where this model comes from.",
                  Box.Yes | Box.No, self.parent)
        box.setDefaultButton(Box.No)
        box.button(Box.Yes).setText("Run anyway")
        self.last_box = box
        if box.exec() == Box.Yes:
            self.state.consent.add(key)
            return True
        return False

    def choose(self, title: str, label: str, options: list) -> str | None:
        key, ok = QtWidgets.QInputDialog.getItem(self.parent, title, label, options, 0, False)
        return key if ok else None

    def choose_signature(self, name: str, signatures: dict, on_chosen) -> QtWidgets.QDialog:
        """Pick a SavedModel signature, seeing each one's inputs and outputs (non-modal;
        `on_chosen(key)` runs on OK)."""
        dialog = signature_dialog.SignatureDialog(self.parent, name, signatures)
        dialog.accepted.connect(lambda: on_chosen(dialog.key()))
        dialog.setAttribute(Qt.WA_DeleteOnClose)
        dialog.open()
        self.last_box = dialog
        return dialog

    def pick_file(self, title: str, filters: str, start: str = "") -> str | None:
        """A file the user picks, the dialog opening in the model's folder."""
        return pick_file(self.parent, title, filters, start or self.model_folder())

    def model_folder(self) -> str:
        model = getattr(self.state, "model", None)
        return os.path.dirname(os.path.abspath(model.path.rstrip("/"))) if model else ""

    def confirm(self, title: str, text: str) -> bool:
        Box = QtWidgets.QMessageBox
        return Box.question(self.parent, title, text) == Box.Yes

    def notice(self, title: str, text: str):
        """Something the user should know, not an error (non-modal)."""
        Box = QtWidgets.QMessageBox
        box = Box(Box.Information, title, text, Box.Ok, self.parent)
        box.setAttribute(Qt.WA_DeleteOnClose)
        box.open()
        self.last_box = box
        return box

    def window(self, title: str) -> QtWidgets.QDialog:
        """A window of its own over the parent (shown by its caller)."""
        dialog = QtWidgets.QDialog(self.parent, Qt.Window)
        dialog.setWindowTitle(title)
        return dialog

    def error(self, text: str):
        Box = QtWidgets.QMessageBox
        box = Box(Box.Warning, "GraphDef Inspector", text, Box.Ok, self.parent)
        box.setAttribute(Qt.WA_DeleteOnClose)
        box.open()
        self.last_box = box
        return box


def pick_file(parent, title: str, filters: str, start: str = "") -> str | None:
    """A file the user picks (None when cancelled)."""
    path, _ = QtWidgets.QFileDialog.getOpenFileName(parent, title, start, filters)
    return path or None
