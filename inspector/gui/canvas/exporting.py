"""Export: DOT (styled or TF's), and the view or the whole graph as SVG or PNG."""

from __future__ import annotations

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtWidgets import QFileDialog

MAX_PIXELS = 16000


def _ask(window, title: str, default: str, filters: str) -> str | None:
    path, _ = QFileDialog.getSaveFileName(window, title, default, filters)
    return path or None


def export_dot(window, tf_style: bool, path: str | None = None) -> str | None:
    from inspector.core.formats import dot_export

    state = window.state
    view = state.view
    if view is None:
        return None
    path = path or _ask(window, "Export DOT", default_name(state, ".dot"),
                        "DOT (*.dot *.gv);;SVG (*.svg);;PNG (*.png);;PDF (*.pdf)")
    if not path:
        return None
    graph, fold = view.graph, view.fold_constants

    def work(task):  # building DOT for a big graph takes seconds: never on the GUI thread
        text = dot_export.tf_dot(graph) if tf_style else dot_export.styled_dot(
            graph, fold_constants=fold)
        return dot_export.write(text, path, force=True)  # the save dialog confirmed it

    window.tasks.submit("export", work, lambda p: state.say(f"Wrote {p}"),
                        lambda exc: state.fail(f"Export failed: {exc}"), label="Exporting")
    return path


def default_name(state, suffix: str) -> str:
    """A file name beside the model, named after it (not graph.svg in the working folder)."""
    import os

    model = state.model
    if model is None:
        return "graph" + suffix
    base = os.path.splitext(model.path.rstrip("/"))[0]
    return base + suffix


def _source_rect(window, whole: bool) -> QRectF:
    canvas = window.canvas
    if whole:
        return canvas.scene().itemsBoundingRect().adjusted(-20, -20, 20, 20)
    return canvas.mapToScene(canvas.viewport().rect()).boundingRect()


def export_svg(window, path: str | None = None, whole: bool = False) -> str | None:
    from PySide6.QtSvg import QSvgGenerator

    path = path or _ask(window, "Export SVG", default_name(window.state, ".svg"), "SVG (*.svg)")
    if not path:
        return None
    rect = _source_rect(window, whole)
    gen = QSvgGenerator()
    gen.setFileName(path)
    gen.setSize(QSize(int(rect.width()), int(rect.height())))
    gen.setViewBox(QRectF(0, 0, rect.width(), rect.height()))
    gen.setTitle("GraphDef Inspector export")
    painter = QPainter(gen)
    window.canvas.scene().render(painter, QRectF(0, 0, rect.width(), rect.height()), rect)
    painter.end()
    window.state.say(f"Wrote {path}")
    return path


def export_png(window, whole: bool, path: str | None = None) -> str | None:
    path = path or _ask(window, "Export PNG", default_name(window.state, ".png"), "PNG (*.png)")
    if not path:
        return None
    rect = _source_rect(window, whole)
    scale = 1.0 if whole else max(window.canvas.zoom_level(), 0.05)
    scale = min(scale, MAX_PIXELS / max(rect.width(), rect.height(), 1.0))
    image = QImage(max(int(rect.width() * scale), 1), max(int(rect.height() * scale), 1),
                   QImage.Format_ARGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    painter.setRenderHints(QPainter.Antialiasing | QPainter.TextAntialiasing)
    window.canvas.scene().render(painter, QRectF(image.rect()), rect, Qt.KeepAspectRatio)
    painter.end()
    if not image.save(path):
        window.state.fail(f"Could not write {path}")
        return None
    window.state.say(f"Wrote {path}")
    return path
