"""The strip of a block's most active feature maps, drawn under its box after a demo run;
a click on it opens the grid of all the block's maps."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QPen, QPixmap
from PySide6.QtWidgets import QGraphicsItem

SHOWN = 10          # at most, as many as fit the box's width
HEIGHT = 30.0


def to_qimage(rgb: np.ndarray) -> QImage:
    """An h x w x 3 uint8 array as a QImage that owns a copy of the pixels."""
    rgb = np.ascontiguousarray(rgb)
    h, w = rgb.shape[:2]
    return QImage(rgb.data, w, h, 3 * w, QImage.Format_RGB888).copy()


def picture_pixmap(picture: np.ndarray, longest: int = 180, kind: str = "image") -> QPixmap:
    """A uint8 picture (h x w or h x w x 3) enlarged to `longest` pixels, blocky when tiny
    (an 8x8 digit should look like pixels, not mush); a spectrogram (already in colour:
    Seen.shown) drawn wide (the Demo panel, a tour's slides)."""
    rgb = picture if picture.ndim == 3 else np.repeat(picture[..., None], 3, axis=2)
    pix = QPixmap.fromImage(to_qimage(rgb))
    if kind == "spectrogram":
        return pix.scaled(int(longest * 1.6), longest, Qt.IgnoreAspectRatio,
                          Qt.SmoothTransformation)
    mode = Qt.FastTransformation if max(rgb.shape[:2]) < 64 else Qt.SmoothTransformation
    return pix.scaled(longest, longest, Qt.KeepAspectRatio, mode)


class FeatureStrip(QGraphicsItem):
    def __init__(self, parent, maps):
        super().__init__(parent)
        self.maps = maps
        width = parent.item.w
        shown = maps.order[:max(3, min(SHOWN, int(width // 30)))]
        self.images = [to_qimage(p) for p in maps.coloured(shown)]
        self.width = width
        self.setPos(0, parent.item.h + 5)
        self.setZValue(2)
        self.setCursor(Qt.PointingHandCursor)
        self.setAcceptHoverEvents(True)
        self.setToolTip(f"The {len(shown)} most active of the {maps.channels} feature maps "
                        f"this block hands on ({maps.shape[1]}x{maps.shape[2]} each).\n"
                        "Click to see them all.")

    def boundingRect(self) -> QRectF:
        return QRectF(0, 0, self.width, HEIGHT)

    def paint(self, painter: QPainter, option, widget=None) -> None:
        rect = self.boundingRect()
        host = self.parentItem()
        style = getattr(host, "style", None)
        if style is not None and not style.lit(host.item.id):
            painter.setOpacity(0.3)     # outside the spotlight, like its block
        painter.setPen(QPen(QColor("#6b6b6b"), 1.0))
        painter.setBrush(QColor("#fbfbfb"))
        painter.drawRoundedRect(rect, 4, 4)
        lod = option.levelOfDetailFromTransform(painter.worldTransform())
        n = len(self.images)
        if not n:
            return
        gap = 3.0
        cell = min(HEIGHT - 2 * gap, (self.width - gap * (n + 1)) / n)
        x = (self.width - (n * cell + (n - 1) * gap)) / 2
        painter.setRenderHint(QPainter.SmoothPixmapTransform, lod > 1.5)
        for img in self.images:
            painter.drawImage(QRectF(x, (HEIGHT - cell) / 2, cell, cell), img)
            x += cell + gap
