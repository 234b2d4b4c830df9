"""A tour exported for people without the app: one self-contained HTML page (each stop as
inline SVG, arrow keys, no network) or PDF slides (one vector page per stop). Stops are drawn
one per step, so the window can keep answering between them; files are written atomically."""

from __future__ import annotations

import os

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QMarginsF, QRectF, QSizeF, Qt
from PySide6.QtGui import QColor, QFont, QPageLayout, QPageSize, QPainter, QPdfWriter
from PySide6.QtWidgets import QApplication

from inspector.core.app.exports import atomic_write, check_target, tour_page
from inspector.core.errors import InspectorError
from inspector.gui.canvas.stop_render import (
    StopPicture,
    answer_bars,
    png_bytes,
    seen_image,
)

PAGE_MM = QSizeF(338.67, 190.5)     # a 16:9 slide, 13.33 x 7.5 inches


def _parts(stop, demo) -> tuple:
    picture = seen_image(demo.seen) if stop.kind == "sees" and demo is not None and \
        demo.seen is not None else None
    bars = answer_bars(demo) if stop.kind == "output" else []
    return picture, bars


def html_steps(view, stops, demo, title: str, spotlight: bool = True):
    """Yield after each stop; the last value is the page's text."""
    slides = []
    for k, stop in enumerate(stops):
        picture, bars = _parts(stop, demo)
        svg = StopPicture(view, stop, demo, spotlight).svg()
        slides.append(dict(title=f"{stop.title}", caption=stop.caption, notes=stop.notes,
                           svg=svg, picture=png_bytes(picture) if picture is not None else b"",
                           bars=bars))
        yield k + 1, len(stops), None
    yield len(stops), len(stops), tour_page(title, slides,
                                            subtitle=f"{len(stops)} stops · GraphDef Inspector")


def _font(px: float, bold: bool = False) -> QFont:
    font = QFont()
    font.setPixelSize(max(1, round(px)))
    font.setBold(bold)
    return font


def pdf_steps(view, stops, demo, title: str, spotlight: bool = True):
    """Yield after each page; the last value is the PDF's bytes."""
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.WriteOnly)
    writer = QPdfWriter(buffer)
    writer.setTitle(title)
    writer.setCreator("GraphDef Inspector")
    writer.setResolution(96)
    writer.setPageLayout(QPageLayout(QPageSize(PAGE_MM, QPageSize.Millimeter),
                                     QPageLayout.Portrait, QMarginsF(0, 0, 0, 0)))
    painter = QPainter(writer)
    try:
        for k, stop in enumerate(stops):
            if k:
                writer.newPage()
            _page(painter, writer, stop, demo, k, len(stops), view, spotlight)
            yield k + 1, len(stops), None
    finally:
        painter.end()
        buffer.close()
    yield len(stops), len(stops), bytes(data)


def _page(p, writer, stop, demo, k, n, view, spotlight) -> None:
    """One slide: title band, the graph (vector), caption in large type, and what the model
    sees or its answer beside the graph."""
    w = writer.width()
    h = writer.height()
    unit = w / 1280.0
    p.fillRect(QRectF(0, 0, w, h), QColor("#ffffff"))
    band = 64 * unit
    p.fillRect(QRectF(0, 0, w, band), QColor("#121826"))
    p.fillRect(QRectF(0, band, w, 4 * unit), QColor("#e69f00"))
    p.setPen(QColor("#ffffff"))
    p.setFont(_font(28 * unit, True))
    p.drawText(QRectF(32 * unit, 0, w - 260 * unit, band), Qt.AlignVCenter | Qt.AlignLeft,
               stop.title)
    p.setPen(QColor("#c8d0e0"))
    p.setFont(_font(22 * unit))
    p.drawText(QRectF(w - 232 * unit, 0, 200 * unit, band), Qt.AlignVCenter | Qt.AlignRight,
               f"{k + 1} / {n}")
    caption_top = h - 150 * unit
    picture, bars = _parts(stop, demo)
    side = 360 * unit if picture is not None or bars else 0
    graph = QRectF(24 * unit, band + 20 * unit, w - 48 * unit - side, caption_top - band - 36 * unit)
    StopPicture(view, stop, demo, spotlight).paint_into(p, graph)
    if side:
        _side(p, QRectF(w - side, band + 20 * unit, side - 24 * unit, graph.height()), picture,
              bars, unit, demo)
    p.setPen(QColor("#1d1d1d"))
    p.setFont(_font(30 * unit))
    p.drawText(QRectF(32 * unit, caption_top, w - 64 * unit, 140 * unit),
               Qt.TextWordWrap | Qt.AlignTop, stop.caption)


def _side(p, box, picture, bars, unit, demo) -> None:
    p.setPen(Qt.NoPen)
    p.setBrush(QColor("#f3f5f9"))
    p.drawRoundedRect(box, 12 * unit, 12 * unit)
    inner = box.adjusted(16 * unit, 16 * unit, -16 * unit, -16 * unit)
    y = inner.top()
    p.setPen(QColor("#1d1d1d"))
    p.setFont(_font(22 * unit, True))
    heading = "What the model sees" if picture is not None else "The model's answer"
    p.drawText(QRectF(inner.left(), y, inner.width(), 30 * unit), Qt.AlignLeft, heading)
    y += 40 * unit
    if picture is not None:
        room = min(inner.width(), inner.bottom() - y)
        target = QRectF(inner.left() + (inner.width() - room) / 2, y, room, room)
        p.drawImage(target, picture)
    for label, prob in bars[:5]:
        p.setPen(QColor("#1d1d1d"))
        p.setFont(_font(20 * unit))
        p.drawText(QRectF(inner.left(), y, inner.width(), 26 * unit),
                   Qt.AlignLeft | Qt.AlignVCenter, label[:28])
        p.drawText(QRectF(inner.left(), y, inner.width(), 26 * unit),
                   Qt.AlignRight | Qt.AlignVCenter, f"{prob * 100:.1f} %")
        y += 30 * unit
        p.setPen(Qt.NoPen)
        p.setBrush(QColor("#dde3ec"))
        p.drawRoundedRect(QRectF(inner.left(), y, inner.width(), 12 * unit), 5, 5)
        p.setBrush(QColor("#0072b2"))
        p.drawRoundedRect(QRectF(inner.left(), y, max(inner.width() * prob, 3), 12 * unit), 5, 5)
        y += 30 * unit


def export_steps(path: str, view, stops: list, demo, model_path: str, spotlight: bool = True,
                 force: bool = True):
    """Write the tour to `path` (.html or .pdf), yielding (done, total) after each stop."""
    kind = os.path.splitext(path)[1].lower()
    if kind not in (".html", ".htm", ".pdf"):
        raise InspectorError("a tour is exported as .html or .pdf", path=path)
    if not stops:
        raise InspectorError("the tour has no stops")
    check_target(path, force, source=model_path)
    title = f"{os.path.basename(model_path.rstrip('/'))} — a tour"
    steps = pdf_steps if kind == ".pdf" else html_steps
    for done, total, result in steps(view, stops, demo, title, spotlight):
        if result is not None:
            atomic_write(path, result, force=force, source=model_path)
            return
        yield done, total


def offscreen_app():
    """A QApplication for drawing without a display (the CLI): Qt's offscreen platform
    unless the caller chose one."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

    return QApplication.instance() or QApplication(["graphdef-inspector"])


def export_tour(path: str, view, stops: list, demo, model_path: str, spotlight: bool = True,
                force: bool = True) -> str:
    for _ in export_steps(path, view, stops, demo, model_path, spotlight, force):
        pass
    return path
