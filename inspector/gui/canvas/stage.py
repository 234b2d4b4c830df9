"""The stage painted over the canvas while presenting: the stop's caption in large type on a
dark band, "3 / 12", what the model sees or its top answers beside the graph, and the black
screen (B). It lets the mouse through to the canvas."""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QFont, QImage, QPainter, QPen
from PySide6.QtWidgets import QWidget

BAND = QColor(18, 24, 38, 228)
ACCENT = QColor("#e69f00")


def _font(px: float, bold: bool = False) -> QFont:
    font = QFont()
    font.setPixelSize(max(1, round(px)))
    font.setBold(bold)
    return font


class Stage(QWidget):
    def __init__(self, canvas):
        super().__init__(canvas)
        self.setAttribute(Qt.WA_TransparentForMouseEvents)
        self.setAttribute(Qt.WA_NoSystemBackground)
        self.scale = 1.5
        self.blank = False
        self.title = self.caption = self.counter = self.action = ""
        self.picture: QImage | None = None
        self.picture_words = ""
        self.bars: list = []          # [(label, probability)]
        canvas.installEventFilter(self)
        self.hide()

    def eventFilter(self, obj, event):
        if event.type() == event.Type.Resize:
            self.setGeometry(obj.rect())
        return False

    def show_stop(self, title, caption, counter, picture=None, picture_words="", bars=(),
                  action="") -> None:
        self.title, self.caption, self.counter = title, caption, counter
        self.picture, self.picture_words, self.bars = picture, picture_words, list(bars)
        self.action = action
        self.setGeometry(self.parentWidget().rect())
        self.show()
        self.raise_()
        self.update()

    def set_blank(self, on: bool) -> None:
        self.blank = on
        self.update()

    # -- painting -----------------------------------------------------------------------------
    def paintEvent(self, _event) -> None:
        p = QPainter(self)
        p.setRenderHints(QPainter.Antialiasing | QPainter.TextAntialiasing)
        if self.blank:
            p.fillRect(self.rect(), Qt.black)
            return
        s = self.scale
        w, h = self.width(), self.height()
        pad = 18 * s
        p.setFont(_font(19 * s))
        caption_h = p.fontMetrics().boundingRect(
            0, 0, int(w - 2 * pad - 160 * s), 10_000, Qt.TextWordWrap, self.caption).height()
        band_h = caption_h + 2 * pad + 26 * s
        band = QRectF(0, h - band_h, w, band_h)
        p.fillRect(band, BAND)
        p.fillRect(QRectF(0, h - band_h, w, 4 * s / 1.5), ACCENT)
        p.setPen(QColor("#ffd27a"))
        p.setFont(_font(13 * s, True))
        p.drawText(QRectF(pad, band.top() + pad * 0.6, w - 2 * pad, 22 * s),
                   Qt.AlignLeft | Qt.AlignVCenter, self.title)
        p.setPen(QColor("#ffffff"))
        p.setFont(_font(19 * s))
        p.drawText(QRectF(pad, band.top() + pad * 0.6 + 24 * s, w - 2 * pad - 160 * s,
                          caption_h + 4), Qt.TextWordWrap, self.caption)
        p.setPen(QColor("#c8d0e0"))
        p.setFont(_font(13 * s, True))
        p.drawText(QRectF(w - pad - 150 * s, band.top() + pad * 0.6, 150 * s, 22 * s),
                   Qt.AlignRight | Qt.AlignVCenter, self.counter)
        if self.action:
            p.setPen(QColor("#ffd27a"))
            p.drawText(QRectF(w - pad - 300 * s, band.bottom() - pad - 22 * s, 300 * s, 22 * s),
                       Qt.AlignRight | Qt.AlignVCenter, self.action)
        if self.picture is not None or self.bars:
            self._side(p, band.top())

    def _side(self, p, bottom) -> None:
        s = self.scale
        width = min(self.width() * 0.34, 380 * s)
        pad = 16 * s
        box = QRectF(self.width() - width - pad, pad, width, bottom - 2 * pad)
        p.setPen(Qt.NoPen)
        p.setBrush(QColor(255, 255, 255, 242))
        p.drawRoundedRect(box, 12, 12)
        inner = box.adjusted(pad, pad, -pad, -pad)
        y = inner.top()
        if self.picture is not None and not self.picture.isNull():
            p.setPen(QColor("#1d1d1d"))
            p.setFont(_font(13 * s, True))
            p.drawText(QRectF(inner.left(), y, inner.width(), 22 * s), Qt.AlignLeft,
                       "What the model sees")
            y += 28 * s
            room = min(inner.width(), inner.bottom() - y - 60 * s)
            pic = self.picture.scaled(int(room), int(room), Qt.KeepAspectRatio,
                                      Qt.SmoothTransformation)
            p.drawImage(QRectF(inner.left() + (inner.width() - pic.width()) / 2, y,
                               pic.width(), pic.height()), pic)
            y += pic.height() + 8 * s
            if self.picture_words:
                p.setFont(_font(12 * s))
                p.drawText(QRectF(inner.left(), y, inner.width(), inner.bottom() - y),
                           Qt.TextWordWrap, self.picture_words)
        if self.bars:
            p.setPen(QColor("#1d1d1d"))
            p.setFont(_font(13 * s, True))
            p.drawText(QRectF(inner.left(), y, inner.width(), 22 * s), Qt.AlignLeft,
                       "The model's answer")
            y += 30 * s
            for label, prob in self.bars[:5]:
                p.setPen(QColor("#1d1d1d"))
                p.setFont(_font(12 * s))
                p.drawText(QRectF(inner.left(), y, inner.width() * 0.72, 18 * s),
                           Qt.AlignLeft | Qt.AlignVCenter,
                           p.fontMetrics().elidedText(label, Qt.ElideRight,
                                                      int(inner.width() * 0.72)))
                p.drawText(QRectF(inner.left(), y, inner.width(), 18 * s),
                           Qt.AlignRight | Qt.AlignVCenter, f"{prob * 100:.1f} %")
                y += 20 * s
                p.setPen(QPen(Qt.NoPen))
                p.setBrush(QColor("#e8ecf3"))
                p.drawRoundedRect(QRectF(inner.left(), y, inner.width(), 10 * s), 4, 4)
                p.setBrush(QColor("#0072b2"))
                p.drawRoundedRect(QRectF(inner.left(), y, max(inner.width() * prob, 3), 10 * s),
                                  4, 4)
                y += 22 * s
