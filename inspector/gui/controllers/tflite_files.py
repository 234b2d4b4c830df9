"""Saving a converted .tflite from the Phone panel's tabs (conversion preview, quantization):
the save dialog, the atomic write, and what the status bar says."""

from __future__ import annotations

from PySide6.QtWidgets import QFileDialog

from inspector.core.app.exports import atomic_write, beside
from inspector.core.errors import InspectorError
from inspector.gui.wording import said


def save_tflite(parent, state, data: bytes, name: str, path: str | None = None,
                note: str = "") -> str | None:
    """Write `data` to `path` (asked with a dialog, MODEL_NAME.tflite proposed, when None;
    the dialog asks before replacing a file, a given path is never replaced); the path
    written, or None."""
    force = path is None
    if path is None:
        path = QFileDialog.getSaveFileName(
            parent, "Save TFLite model", beside(state.model.path, f"_{name}.tflite"),
            "TensorFlow Lite (*.tflite)")[0]
        if not path:
            return None
    try:
        atomic_write(path, data, force=force, source=state.model.path)
    except InspectorError as exc:
        state.fail(said(exc))
        return None
    state.say(f"Saved {path} ({len(data):,} bytes{note})")
    return path
