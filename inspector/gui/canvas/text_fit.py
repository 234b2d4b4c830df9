"""Fonts and measured texts for the canvas items: one shared QFont per pixel size, text
metrics kept per device, and what fits a width (a node's name cut from its start, a scope's
in its middle, a list from its end, a badge shortened by whole parts or words). Each cache
spares a Qt call in paint()."""

from __future__ import annotations

import re

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QFontMetrics, QFontMetricsF

from inspector.gui.canvas.style import CanvasStyle

DEFAULT_STYLE = CanvasStyle()


def _font(size: float, bold: bool = False, style: CanvasStyle = DEFAULT_STYLE) -> QFont:
    """A font of `size` points at 96 dpi, set in pixels so a picture does not depend on the
    screen's dpi; while presenting never under the style's minimum. One QFont per pixel size
    and weight, shared (do not change it): paint() makes few Qt calls, each of which waits
    for the GIL while a task computes."""
    px = max(1, round(style.px(size)))
    font = _FONTS.get((px, bold))
    if font is None:
        font = _FONTS[(px, bold)] = QFont()
        font.setPixelSize(px)
        font.setBold(bold)
        _FONT_KEYS[id(font)] = (px, bold)
    return font


_FONTS: dict = {}
_FONT_KEYS: dict = {}   # id of a font _font made -> (pixel size, bold), asked of no Qt call
_METRICS: dict = {}     # (font, device kind and dpi) -> QFontMetrics
_ELIDED: dict = {}      # (text, font, device, width, mode) -> what fits (or its advance)
_TAGS: dict = {}        # (font, tag) -> its width


def _bounded(cache: dict, most: int = 20_000) -> None:
    """Start a cache afresh when full (the texts of a 300k-node graph painted one by one)."""
    if len(cache) >= most:
        cache.clear()


class _Measure:
    """Text metrics of the painter's device (what painter.fontMetrics() gives), kept per
    device kind and resolution: measuring asks Qt once per font, text and width."""

    __slots__ = ("painter", "key")

    def __init__(self, painter):
        device = painter.device()
        self.painter, self.key = painter, (type(device).__name__, device.logicalDpiY())

    def metrics(self, font: QFont) -> QFontMetrics:
        key = (_FONT_KEYS[id(font)], self.key)
        found = _METRICS.get(key)
        if found is None:
            found = _METRICS[key] = QFontMetrics(font, self.painter.device())
        return found


def _elided(font: QFont, dpi: _Measure, text: str, width: float, mode=Qt.ElideRight) -> str:
    """`text` cut to `width` pixels of `font`: the end dropped from a list (op mix, values),
    the start from a name (its end tells it from its siblings). Measured, never guessed from
    the number of characters: a guess left text wider than its box, cut off at both ends
    when centred. Kept per text, font and width (repeated blocks share their labels)."""
    width = max(int(width), 8)
    key = (text, _FONT_KEYS[id(font)], dpi.key, width, mode)
    found = _ELIDED.get(key)
    if found is None:
        _bounded(_ELIDED)
        found = _ELIDED[key] = dpi.metrics(font).elidedText(text, mode, width)
    return found


def _shortened(font: QFont, dpi: _Measure, text: str, width: float) -> str:
    """A badge fitted to `width` pixels: whole, else its last parts ("  " apart) then words
    dropped with an "…" (never a number cut in two: the tooltip has it whole)."""
    key = (text, _FONT_KEYS[id(font)], dpi.key, int(width), "badge")
    found = _ELIDED.get(key)
    if found is None:
        found = text
        parts = text.split("  ")
        words = parts[0].split(" ")
        tries = ["  ".join(parts[:k]) + " …" for k in range(len(parts) - 1, 0, -1)] + \
            [" ".join(words[:k]) + " …" for k in range(len(words) - 1, 0, -1)]
        for short in [text] + tries:
            if _advance(font, dpi, short) <= width:
                found = short
                break
        else:
            found = _elided(font, dpi, text, width)   # one word wider than the room
        _bounded(_ELIDED)
        _ELIDED[key] = found
    return found


def caption_forms(caption: str) -> list:
    """A block's plain-words caption ('processing step x35: clipping'), then shorter forms
    that still say something whole: without the repeat count, then the words after the role
    when the role says nothing ('processing step'), else the role alone, then the role
    without 'block' ('feature extractor')."""
    role, _, words = caption.partition(": ")
    bare = re.sub(r" x\d+$", "", role)
    forms = [caption, f"{bare}: {words}" if words else bare]
    forms.append(words if words and bare == "processing step" else bare)
    if bare.endswith(" block"):     # 'feature extractor' in a narrow box, not 'feature ex…'
        forms.append(bare.removesuffix(" block"))
    return list(dict.fromkeys(forms))


def _caption(font: QFont, dpi: _Measure, caption: str, width: float) -> str:
    """A caption fitted to `width`: its first whole form that fits, else the last elided
    (a spotlit block said 'processing step x35: c…' while presenting)."""
    forms = caption_forms(caption)
    for form in forms:
        if _advance(font, dpi, form) <= width:
            return form
    return _elided(font, dpi, forms[-1], width)


def _named(font: QFont, dpi: _Measure, name: str, suffix: str, width: float) -> str:
    """A scope's name and its count: the count whole, the name cut in its middle. Its start
    says what the scope is ('WeightShared…BoxPredictor', not '…ghtSharedConvolutionalBox
    Predictor') and its end tells it from its siblings ('…_box_1'); the tooltip has it whole."""
    room = width - _advance(font, dpi, suffix)
    return _elided(font, dpi, name, room, Qt.ElideMiddle) + suffix


def _tag_width(font: QFont, tag: str) -> float:
    key = (_FONT_KEYS[id(font)], tag)
    found = _TAGS.get(key)
    if found is None:
        found = _TAGS[key] = QFontMetricsF(font).horizontalAdvance(tag)
    return found


def _advance(font: QFont, dpi: _Measure, text: str) -> int:
    key = (text, _FONT_KEYS[id(font)], dpi.key, "advance")
    found = _ELIDED.get(key)
    if found is None:
        _bounded(_ELIDED)
        found = _ELIDED[key] = dpi.metrics(font).horizontalAdvance(text)
    return found
