"""Asking before running operations that are not pure computation, once per graph: the
dialog lists the nodes and why; a yes is remembered for the same findings."""

from __future__ import annotations

from PySide6.QtWidgets import QMessageBox


class Consent:
    def __init__(self):
        self.granted: set = set()

    @staticmethod
    def key(exc) -> frozenset:
        return frozenset((f.node, f.op, f.via) for f in getattr(exc, "findings", []))

    def ask(self, parent, exc, action: str) -> bool:
        """True when the user allows it now or allowed these findings before."""
        key = self.key(exc)
        if not key:
            return False
        if key in self.granted:
            return True
        findings = exc.findings
        listed = "\n".join(f"• {f.describe()}" for f in findings[:8])
        more = f"\n… and {len(findings) - 8} more" if len(findings) > 8 else ""
        box = QMessageBox(QMessageBox.Warning, "Run operations that are not pure computation?",
                          f"{action} would run operations that can read or write files, use "
                          f"the network or run code:\n\n{listed}{more}\n\n"
                          "Only continue if you trust where this model comes from.",
                          QMessageBox.Yes | QMessageBox.No, parent)
        box.setDefaultButton(QMessageBox.No)
        box.button(QMessageBox.Yes).setText("Run anyway")
        self.last_box = box
        if box.exec() == QMessageBox.Yes:
            self.granted.add(key)
            return True
        return False
