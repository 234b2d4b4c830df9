"""Export: DOT (styled or TF's, built off the GUI thread), and the view or the whole graph as
SVG or PNG; every file written atomically, named after the model by default."""

from __future__ import annotations

from contextlib import contextmanager

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtWidgets import QFileDialog

from inspector.core.app.exports import atomic_write, beside, write_dot
from inspector.core.errors import InspectorError
from inspector.gui.wording import said

MAX_PIXELS = 16000


def default_name(state, suffix: str) -> str:
    """A file name beside the model, named after it (not graph.svg in the working folder)."""
    return beside(state.model.path if state.model else None, suffix)


class Exporter:
    def __init__(self, state, tasks, canvas):
        self.state, self.tasks, self.canvas = state, tasks, canvas

    def _ask(self, title: str, suffix: str, filters: str) -> str | None:
        path, _ = QFileDialog.getSaveFileName(self.canvas, title,
                                              default_name(self.state, suffix), filters)
        return path or None

    def _write(self, path: str, data: bytes) -> str | None:
        try:
            atomic_write(path, data, force=True)  # the save dialog asked already
        except InspectorError as exc:
            self.state.fail(said(exc))
            return None
        self.state.say(f"Wrote {path}")
        return path

    def dot(self, tf_style: bool, path: str | None = None) -> str | None:
        view = self.state.view
        if view is None:
            return None
        path = path or self._ask("Export DOT", ".dot", "DOT (*.dot *.gv);;SVG (*.svg);;"
                                                       "PNG (*.png);;PDF (*.pdf)")
        if not path:
            return None
        graph, fold = view.graph, view.fold_constants

        def work(task):  # building DOT for a big graph takes seconds: never on the GUI thread
            return write_dot(graph, path, force=True, tf_style=tf_style, fold_constants=fold)

        self.tasks.submit("export", work, lambda p: self.state.say(f"Wrote {p}"),
                          lambda exc: self.state.fail(f"Export failed: {exc}"), label="Exporting")
        return path

    def _source_rect(self, whole: bool) -> QRectF:
        if whole:
            return self.canvas.scene().itemsBoundingRect().adjusted(-20, -20, 20, 20)
        return self.canvas.mapToScene(self.canvas.viewport().rect()).boundingRect()

    def _font_scaled(self, font_scale: float):
        """Text `font_scale` times larger for the export (Netron's users ask for this), put
        back afterwards."""
        @contextmanager
        def scaled():
            style = self.canvas.style
            old, style.font_scale = style.font_scale, font_scale
            try:
                yield
            finally:
                style.font_scale = old
                self.canvas.viewport().update()
        return scaled()

    def svg(self, path: str | None = None, whole: bool = False,
            font_scale: float = 1.0) -> str | None:
        from PySide6.QtSvg import QSvgGenerator

        path = path or self._ask("Export SVG", ".svg", "SVG (*.svg)")
        if not path:
            return None
        rect = self._source_rect(whole)
        data = QByteArray()
        buffer = QBuffer(data)
        buffer.open(QIODevice.WriteOnly)
        gen = QSvgGenerator()
        gen.setOutputDevice(buffer)
        gen.setSize(QSize(int(rect.width()), int(rect.height())))
        gen.setViewBox(QRectF(0, 0, rect.width(), rect.height()))
        gen.setTitle("GraphDef Inspector export")
        painter = QPainter(gen)
        with self._font_scaled(font_scale):
            self.canvas.scene().render(painter, QRectF(0, 0, rect.width(), rect.height()), rect)
        painter.end()
        buffer.close()
        return self._write(path, bytes(data))

    def png(self, whole: bool, path: str | None = None, scale: float | None = None,
            font_scale: float = 1.0) -> str | None:
        """The view or whole graph as PNG; `scale`: pixels per scene unit (default: the
        view's zoom for the view, 1 for the whole graph), capped at MAX_PIXELS a side."""
        path = path or self._ask("Export PNG", ".png", "PNG (*.png)")
        if not path:
            return None
        rect = self._source_rect(whole)
        if scale is None:
            scale = 1.0 if whole else max(self.canvas.zoom_level(), 0.05)
        scale = min(scale, MAX_PIXELS / max(rect.width(), rect.height(), 1.0))
        image = QImage(max(int(rect.width() * scale), 1), max(int(rect.height() * scale), 1),
                       QImage.Format_ARGB32)
        image.fill(QColor("white"))
        painter = QPainter(image)
        painter.setRenderHints(QPainter.Antialiasing | QPainter.TextAntialiasing)
        with self._font_scaled(font_scale):
            self.canvas.scene().render(painter, QRectF(image.rect()), rect, Qt.KeepAspectRatio)
        painter.end()
        data = QByteArray()
        buffer = QBuffer(data)
        buffer.open(QIODevice.WriteOnly)
        if not image.save(buffer, "PNG"):
            self.state.fail(f"Could not encode {path}")
            return None
        buffer.close()
        return self._write(path, bytes(data))
