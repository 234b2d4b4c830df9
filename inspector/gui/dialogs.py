"""The dialogs controllers need, on one parent widget: consent (asked once per graph, the
answer kept in the state), errors, signature and file choices."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QInputDialog, QMessageBox


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
        box = QMessageBox(QMessageBox.Warning, "Run operations that are not pure computation?",
                          f"{action} would run operations that can read or write files, use "
                          f"the network or run code:\n\n{listed}{more}\n\n"
                          "Only continue if you trust where this model comes from.",
                          QMessageBox.Yes | QMessageBox.No, self.parent)
        box.setDefaultButton(QMessageBox.No)
        box.button(QMessageBox.Yes).setText("Run anyway")
        self.last_box = box
        if box.exec() == QMessageBox.Yes:
            self.state.consent.add(key)
            return True
        return False

    def choose(self, title: str, label: str, options: list) -> str | None:
        key, ok = QInputDialog.getItem(self.parent, title, label, options, 0, False)
        return key if ok else None

    def confirm(self, title: str, text: str) -> bool:
        return QMessageBox.question(self.parent, title, text) == QMessageBox.Yes

    def notice(self, title: str, text: str):
        """Something the user should know, not an error (non-modal)."""
        box = QMessageBox(QMessageBox.Information, title, text, QMessageBox.Ok, self.parent)
        box.setAttribute(Qt.WA_DeleteOnClose)
        box.open()
        self.last_box = box
        return box

    def error(self, text: str):
        box = QMessageBox(QMessageBox.Warning, "GraphDef Inspector", text, QMessageBox.Ok,
                          self.parent)
        box.setAttribute(Qt.WA_DeleteOnClose)
        box.open()
        self.last_box = box
        return box
