"""A SavedModel's signatures to choose from (Dialogs.choose_signature), each one's inputs and
outputs beside the list."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QTextBrowser,
    QVBoxLayout,
)


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
