"""The stage painted over the canvas while presenting: the stop's caption in large type on a
dark band, "3 / 12", what the model sees or its top answers beside the graph, and the black
screen (B). It lets the mouse through to the canvas."""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QImage, QPainter, QPen
from PySide6.QtWidgets import QWidget

BAND = QColor(18, 24, 38)      # opaque: the graph showed through it (text at its left edge)
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
        self.drawn: list = []         # (pixel size, text) of what the last paint wrote
        self.places: dict = {}        # text -> the rectangle it was written in (tests)
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
    def _caption_height(self) -> float:
        s, pad = self.scale, 18 * self.scale
        return QFontMetricsF(_font(19 * s)).boundingRect(
            QRectF(0, 0, self.width() - 2 * pad - 160 * s, 10_000), Qt.TextWordWrap,
            self.caption).height()

    def band(self) -> QRectF:
        """The caption band along the bottom (a line more for the stop's action, under the
        caption: beside it, right-aligned in 300 px, 'Press R to run the model on
        img00.jpg' lost its 'P' at 1366x768, clipped, and could run into the caption)."""
        s = self.scale
        band_h = self._caption_height() + 2 * 18 * s + 26 * s + (26 * s if self.action else 0)
        return QRectF(0, self.height() - band_h, self.width(), band_h)

    def side(self) -> QRectF | None:
        """The panel of what the model sees or its answer (None when there is none)."""
        if self.picture is None and not self.bars:
            return None
        s = self.scale
        width, pad = min(self.width() * 0.34, 380 * s), 16 * s
        return QRectF(self.width() - width - pad, pad, width, self.band().top() - 2 * pad)

    def covered(self) -> list:
        """The parts of the canvas the stage covers (a block shown must keep out of them)."""
        side = self.side()
        return [self.band()] + ([side.adjusted(-8, -8, 8, 8)] if side is not None else [])

    def _write(self, p, rect, flags, text) -> None:
        """drawText, remembering the pixel size and the text (tests measure them)."""
        self.drawn.append((p.font().pixelSize(), text))
        self.places[text] = QRectF(rect)
        p.drawText(rect, flags, text)

    def paintEvent(self, _event) -> None:
        p = QPainter(self)
        p.setRenderHints(QPainter.Antialiasing | QPainter.TextAntialiasing)
        self.drawn, self.places = [], {}
        if self.blank:
            p.fillRect(self.rect(), Qt.black)
            return
        s = self.scale
        w = self.width()
        pad = 18 * s
        caption_h = self._caption_height()
        band = self.band()
        p.fillRect(band, BAND)
        p.fillRect(QRectF(0, band.top(), w, 4 * s / 1.5), ACCENT)
        p.setPen(QColor("#ffd27a"))
        p.setFont(_font(14 * s, True))
        self._write(p, QRectF(pad, band.top() + pad * 0.6, w - 2 * pad, 22 * s),
                    Qt.AlignLeft | Qt.AlignVCenter, self.title)
        p.setPen(QColor("#ffffff"))
        p.setFont(_font(19 * s))
        self._write(p, QRectF(pad, band.top() + pad * 0.6 + 24 * s, w - 2 * pad - 160 * s,
                              caption_h + 4), Qt.TextWordWrap, self.caption)
        p.setPen(QColor("#c8d0e0"))
        p.setFont(_font(14 * s, True))
        self._write(p, QRectF(w - pad - 150 * s, band.top() + pad * 0.6, 150 * s, 22 * s),
                    Qt.AlignRight | Qt.AlignVCenter, self.counter)
        if self.action:               # its own line under the caption, whole or elided
            p.setPen(QColor("#ffd27a"))
            room = w - 2 * pad
            text = p.fontMetrics().elidedText(self.action, Qt.ElideMiddle, int(room))
            self._write(p, QRectF(pad, band.bottom() - pad - 22 * s, room, 22 * s),
                        Qt.AlignLeft | Qt.AlignVCenter, text)
        side = self.side()
        if side is not None:
            self._side(p, side)

    def _side(self, p, box: QRectF) -> None:
        s = self.scale
        pad = 16 * s
        p.setPen(Qt.NoPen)
        p.setBrush(QColor(255, 255, 255, 242))
        p.drawRoundedRect(box, 12, 12)
        inner = box.adjusted(pad, pad, -pad, -pad)
        y = inner.top()
        if self.picture is not None and not self.picture.isNull():
            p.setPen(QColor("#1d1d1d"))
            p.setFont(_font(13 * s, True))
            self._write(p, QRectF(inner.left(), y, inner.width(), 22 * s), Qt.AlignLeft,
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
                self._write(p, QRectF(inner.left(), y, inner.width(), inner.bottom() - y),
                            Qt.TextWordWrap, self.picture_words)
        if self.bars:
            p.setPen(QColor("#1d1d1d"))
            p.setFont(_font(13 * s, True))
            self._write(p, QRectF(inner.left(), y, inner.width(), 22 * s), Qt.AlignLeft,
                        "The model's answer")
            y += 30 * s
            for label, prob in self.bars[:5]:
                p.setPen(QColor("#1d1d1d"))
                p.setFont(_font(12 * s))
                self._write(p, QRectF(inner.left(), y, inner.width() * 0.72, 18 * s),
                            Qt.AlignLeft | Qt.AlignVCenter,
                            p.fontMetrics().elidedText(label, Qt.ElideRight,
                                                       int(inner.width() * 0.72)))
                self._write(p, QRectF(inner.left(), y, inner.width(), 18 * s),
                            Qt.AlignRight | Qt.AlignVCenter, f"{prob * 100:.1f} %")
                y += 20 * s
                p.setPen(QPen(Qt.NoPen))
                p.setBrush(QColor("#e8ecf3"))
                p.drawRoundedRect(QRectF(inner.left(), y, inner.width(), 10 * s), 4, 4)
                p.setBrush(QColor("#0072b2"))
                p.drawRoundedRect(QRectF(inner.left(), y, max(inner.width() * prob, 3), 10 * s),
                                  4, 4)
                y += 22 * s
