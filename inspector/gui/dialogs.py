"""The dialogs controllers need, on one parent widget: consent (asked once per graph, the
answer kept in the state), errors, signature and file choices."""

from __future__ import annotations

import os

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QListWidget,
    QMessageBox,
    QTextBrowser,
    QVBoxLayout,
)


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

    def choose_signature(self, name: str, signatures: dict, on_chosen) -> QDialog:
        """Pick a SavedModel signature, seeing each one's inputs and outputs (non-modal;
        `on_chosen(key)` runs on OK)."""
        dialog = SignatureDialog(self.parent, name, signatures)
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
        return QMessageBox.question(self.parent, title, text) == QMessageBox.Yes

    def notice(self, title: str, text: str):
        """Something the user should know, not an error (non-modal)."""
        box = QMessageBox(QMessageBox.Information, title, text, QMessageBox.Ok, self.parent)
        box.setAttribute(Qt.WA_DeleteOnClose)
        box.open()
        self.last_box = box
        return box

    def window(self, title: str) -> QDialog:
        """A window of its own over the parent (shown by its caller)."""
        dialog = QDialog(self.parent, Qt.Window)
        dialog.setWindowTitle(title)
        return dialog

    def error(self, text: str):
        box = QMessageBox(QMessageBox.Warning, "GraphDef Inspector", text, QMessageBox.Ok,
                          self.parent)
        box.setAttribute(Qt.WA_DeleteOnClose)
        box.open()
        self.last_box = box
        return box


def describe_signature(key: str, sig: dict) -> str:
    """A signature as rich text: method, then each input and output with dtype and shape."""
    def rows(tensors: dict) -> str:
        if not tensors:
            return "<tr><td colspan=3><i>none</i></td></tr>"
        return "".join(f"<tr><td><b>{k}</b>&nbsp;&nbsp;</td><td>{v['dtype']} {v['shape']}"
                       f"&nbsp;&nbsp;</td><td><tt>{v['name']}</tt></td></tr>"
                       for k, v in tensors.items())
    return (f"<h3>{key}</h3><p>{sig.get('method', '')}</p>"
            f"<p><b>Inputs</b></p><table>{rows(sig['inputs'])}</table>"
            f"<p><b>Outputs</b></p><table>{rows(sig['outputs'])}</table>")


class SignatureDialog(QDialog):
    """Signatures on the left, the chosen one's inputs and outputs on the right."""

    def __init__(self, parent, name: str, signatures: dict):
        super().__init__(parent)
        self.setWindowTitle(f"Choose a signature of {name}")
        self.signatures = signatures
        self.keys = QListWidget()
        self.keys.addItems(list(signatures))
        self.details = QTextBrowser()
        self.keys.currentTextChanged.connect(
            lambda key: self.details.setHtml(describe_signature(key, signatures[key]))
            if key in signatures else None)
        self.keys.itemDoubleClicked.connect(lambda *_: self.accept())
        default = "serving_default" if "serving_default" in signatures else next(
            iter(signatures))
        self.keys.setCurrentRow(list(signatures).index(default))
        buttons = QDialogButtonBox(QDialogButtonBox.Open | QDialogButtonBox.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self.buttons = buttons
        row = QHBoxLayout()
        row.addWidget(self.keys, 1)
        row.addWidget(self.details, 2)
        lay = QVBoxLayout(self)
        lay.addWidget(QLabel("This SavedModel has several signatures. Open which one?"))
        lay.addLayout(row)
        lay.addWidget(buttons)
        self.resize(640, 360)

    def key(self) -> str:
        return self.keys.currentItem().text()


def pick_file(parent, title: str, filters: str, start: str = "") -> str | None:
    """A file the user picks (None when cancelled)."""
    path, _ = QFileDialog.getOpenFileName(parent, title, start, filters)
    return path or None
