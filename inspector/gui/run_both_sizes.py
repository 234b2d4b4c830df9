"""Run both's way to size an input of no known size: the comparison window asks for it
(there is no Input sizes field in that window) and runs again with it; the sizes given are
kept for the window's later runs. Before, Run both named the input and said nothing of how
to give its size (note15)."""

from __future__ import annotations

from PySide6.QtWidgets import QInputDialog, QMessageBox

from inspector.core.app.inputs import parse_sizes
from inspector.core.errors import InspectorError
from inspector.gui.wording import said


def unsized_input(exc) -> str:
    """The input an error is about when it is one of no known size ('' for any other)."""
    if isinstance(exc, InspectorError) and exc.hint == "input_values":
        return getattr(exc, "node", None) or ""
    return ""


def ask_size(parent, exc, name: str) -> dict | None:
    """{name: dims} the user gave for the input (None: cancelled, or a size refused, said in
    one line)."""
    text, ok = QInputDialog.getText(
        parent, "Run both", f"{said(exc)}.\n\nIts size for Run both (whole numbers of 1 or "
        "more, such as 1,224,224,3):")
    if not ok or not text.strip():
        return None
    try:
        return parse_sizes([text if "=" in text else f"{name}={text}"])
    except InspectorError as bad:
        QMessageBox.warning(parent, "Run both", said(bad))
        return None
