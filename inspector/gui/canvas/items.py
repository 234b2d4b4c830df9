"""Scene items for nodes, collapsed scopes and expanded scope frames, painted with level of
detail: plain boxes far away, labels, shapes, tags and badges close up."""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetrics, QPainter, QPen
from PySide6.QtWidgets import QGraphicsItem, QGraphicsRectItem

from inspector.core.view.vocabulary import count, plain, tf_human_readable_num
from inspector.gui.canvas.style import BADGE_OVER, MIN_TEXT_PX, STACKED, CanvasStyle
from inspector.gui.canvas.text_fit import (
    _FONT_KEYS,
    DEFAULT_STYLE,
    _advance,
    _bounded,
    _caption,
    _elided,
    _font,
    _Measure,
    _named,
    _shortened,
    _tag_width,
)

TEXT = QColor("#1d1d1d")

BORDER = QColor("#555555")

ACCENT = QColor("#d0342c")

DIFF = {"added": QColor("#2e8b57"), "removed": QColor("#c0392b"), "changed": QColor("#d4a017"),
        "merged": QColor("#8e44ad"), "split": QColor("#138d90")}  # merged into / split out of
_DIFF_NAMES = {"added": "#2e8b57", "removed": "#c0392b", "changed": "#d4a017",
               "merged": "#8e44ad", "split": "#138d90"}

CONE = QColor("#1f6fd1")
RING = 6.0       # the selection ring's distance from the box (CanvasStyle.ring)

_COLOURS: dict = {}     # (name, alpha) -> QColor
_PENS: dict = {}        # (colour, width, style) -> QPen
_BRUSHES: dict = {}     # (name, alpha) -> QBrush


def _colour(name, alpha: int = 255) -> QColor:
    found = _COLOURS.get((name, alpha))
    if found is None:
        _bounded(_COLOURS)
        found = _COLOURS[(name, alpha)] = QColor(name)
        if alpha != 255:
            found.setAlpha(alpha)
    return found


def _pen(colour, width: float, style=Qt.SolidLine) -> QPen:
    found = _PENS.get((colour, width, style))
    if found is None:
        found = _PENS[(colour, width, style)] = QPen(_colour(colour))
        found.setWidthF(width)
        found.setStyle(style)
    return found


def _brush(name, alpha: int = 255) -> QBrush:
    found = _BRUSHES.get((name, alpha))
    if found is None:
        _bounded(_BRUSHES)
        # filled in, not QBrush(colour): a QBrush made from a colour makes PySide create
        # the QGradient class (its 169 presets: ~1.3 ms of the first picture, ~6 ms on the
        # slow class) while it matches the constructor's overloads
        found = _BRUSHES[(name, alpha)] = QBrush()
        found.setColor(_colour(name, alpha))
        found.setStyle(Qt.SolidPattern)
    return found


class NodeItem(QGraphicsRectItem):
    """A node, a collapsed scope (box with counts) or an expanded scope's frame. Its bounding
    box is the C++ rect item's, so indexing tens of thousands of them calls no Python."""

    def __init__(self, item, ink: QColor = TEXT, style: CanvasStyle = DEFAULT_STYLE):
        super().__init__(-3, -3, item.w + 6, item.h + 6)
        self._outer = (-3, -3, item.w + 6, item.h + 6)     # fit_rect()'s last rectangle
        self.cached = False
        self.setPen(Qt.NoPen)
        self.item = item
        self.style = style
        self.drawn: list = []    # (pixel size, text) of what the last paint wrote
        self._extents: list = []  # (font, rect, flags, text) of them: drawn_at
        self._rects: dict = {}    # the rectangles paint() draws in, made once
        self.ink = ink  # text drawn on the canvas background (follows the palette)
        self.selected = False
        self.dimmed = False
        self.in_cone = False
        self.badge = ""          # overlay text above the box (role, timing, range ...)
        self.tag = ""            # "IN" / "OUT" for marked inputs and outputs
        self.diff = ""           # "added", "removed", "changed" against the original
        self.heat = None         # overlay fill colour (timings, ranges), replaces the category
        self.plain = False       # demo: a scope's plain caption replaces its op mix
        self.bar = None          # ((colour, count), ...): a status bar along a scope's foot
        self.setPos(item.x, item.y)
        self.setZValue(-10 if item.kind == "frame" else 1)
        self.setAcceptHoverEvents(True)
        tip = item.id[:-1] if item.kind != "node" else item.id   # a scope's path ("/", "a/")
        if item.kind != "node" and item.caption:
            tip += f"\n{item.caption[0].upper()}{item.caption[1:]}"
        if item.kind != "node":
            tip += f"\n{count(item.child_count, 'node')}, " + (
                "parameters still being counted" if item.params is None
                else f"{tf_human_readable_num(item.params)} parameters")
            if item.alike > 1:
                tip += f"\none of {item.alike} sibling scopes with the same ops"
            tip += f"\n{item.op_mix}" if item.op_mix else ""
        else:
            tip += f"\n{item.label}: {plain(item.label)}" + "".join(
                f"\n{b.name}: {b.dtype} {b.text()}" for b in item.badges[:8])
        self.tip = tip
        self.setToolTip(tip)

    def show_badge(self, badge: str) -> None:
        """The overlay text above the box, whole in the tooltip (the box may show it short)."""
        if badge != self.badge:
            self.badge = badge
            self.setToolTip(f"{self.tip}\n{badge}" if badge else self.tip)

    def set_cached(self, on: bool) -> None:
        """Kept as a pixmap in device coordinates (re-painted on update() or a new zoom).
        The pixmap holds only the bounding rectangle: it then takes in what is drawn
        around the box too (a badge or tag above it, a scope's stacked edge, thick pens)."""
        self.cached = on
        self.fit_rect()
        mode = QGraphicsItem.CacheMode
        self.setCacheMode(mode.DeviceCoordinateCache if on else mode.NoCache)

    def fit_rect(self) -> None:
        """The item's rectangle holds all it paints: what is drawn outside it is cut off,
        or left behind, until something repaints that place. The box and its pens; the
        room above for a tag or badge (value labels, IN / OUT) when it has one; around a
        cached box the ring of a selection too (a C++ rect: indexing calls no Python)."""
        it = self.item
        above = 2 * self.style.px(7) + 8 if self.cached else \
            2 * max(self.style.px(7), MIN_TEXT_PX) + 8 if self.badge or self.tag else 0.0
        #       (presenting raises their text to MIN_TEXT_PX)
        m = RING + 3 if self.cached else 3
        over = max(BADGE_OVER - m, 0.0) if self.badge else 0.0    # a wide badge's room
        rect = (-m - over, -m - above, it.w + 2 * (m + over), it.h + 2 * m + above)
        if rect != self._outer:
            self._outer = rect
            self.setRect(*rect)

    def paint(self, painter: QPainter, option, widget=None) -> None:
        """Few Qt calls (shared fonts, pens, brushes, measured texts and rects): each one
        waits for the GIL while a task computes (80 us and more on a slow machine)."""
        it, st = self.item, self.style
        self.drawn = []
        self._extents = []
        lod = option.levelOfDetailFromTransform(painter.worldTransform())
        rect = self._rects.get("box")
        if rect is None:
            rect = self._rects["box"] = QRectF(0, 0, it.w, it.h)
        fill_name, text_name = st.fill_and_text(it.category)
        fill_key = self.heat or fill_name
        if not isinstance(fill_key, str):
            fill_key = QColor(fill_key).name(QColor.HexArgb)
        dimmed = self.dimmed or not st.lit(it.id)
        alpha = (70 if st.spotlight is None else 45) if dimmed else 255
        if lod < 0.35 and it.kind != "frame" and not (self.selected or self.in_cone or
                                                         self.diff or self.tag):
            painter.fillRect(rect, _colour(fill_key, alpha))  # far away: a plain box is all
            return                                             # the eye can see
        ring = st.ring if (self.selected or self.in_cone) and it.kind != "frame" else None
        if ring:         # the selection around the box: its border keeps its diff colour
            border, width = _DIFF_NAMES.get(self.diff, "#555555"), 3.0 if self.diff else 1.0
        else:
            border = "#d0342c" if self.selected else ("#1f6fd1" if self.in_cone else
                                                       _DIFF_NAMES.get(self.diff, "#555555"))
            width = 3.0 if self.selected or self.in_cone or self.diff else 1.0
        style = Qt.DashLine if self.diff == "removed" else (
            Qt.DashDotLine if self.diff == "merged" else Qt.SolidLine)
        if it.kind == "frame":
            style = Qt.DashLine if not self.selected else Qt.SolidLine
            painter.setPen(_pen(border, width, style))
            painter.setBrush(_brush(fill_key, 38))
            painter.drawRoundedRect(rect, 8, 8)
            if lod > 0.25:
                font = _font(9, True, style=st)
                painter.setFont(font)
                painter.setPen(self.ink if not dimmed else _colour("#999999"))
                dpi = _Measure(painter)
                self._text(painter, font, self._rect("title", 8, 2, it.w - 16, 20),
                           Qt.AlignLeft | Qt.AlignVCenter,
                           _named(font, dpi, it.label,
                                  f"  ({count(it.child_count, 'node')})", it.w - 16))
            return
        painter.setPen(_pen(border, width, style))
        painter.setBrush(_brush(fill_key, alpha))
        radius = 10 if it.kind == "node" else 4
        if it.kind == "scope":  # a stacked look says "there is more inside"
            painter.drawRoundedRect(self._rect("stack", STACKED, STACKED, it.w, it.h), radius,
                                    radius)
        painter.drawRoundedRect(rect, radius, radius)
        if ring:
            painter.setPen(_pen(ring, 3.0 if self.selected else 2.0,
                                Qt.SolidLine if self.selected else Qt.DotLine))
            painter.setBrush(Qt.NoBrush)
            painter.drawRoundedRect(self._rect("ring", -RING, -RING, it.w + 2 * RING,
                                               it.h + 2 * RING + (4 if it.kind == "scope"
                                                                  else 0)),
                                    radius + RING, radius + RING)
            painter.setBrush(_brush(fill_key, alpha))
        if self.bar and it.kind == "scope":
            self._paint_bar(painter, it)
        if lod < 0.35:
            return  # too small for text: colour and shape are what you see
        painter.setPen(_colour(text_name if not self.heat else "#1d1d1d") if not dimmed
                       else _colour("#8a8a8a"))
        dpi = _Measure(painter)
        if it.kind == "scope":
            font = _font(9, True, style=st)
            painter.setFont(font)
            self._text(painter, font, self._rect("name", 6, 3, it.w - 12, 18), Qt.AlignCenter,
                       _named(font, dpi, it.label, f"  [{it.child_count}]", it.w - 12))
            font = _font(7.5, style=st)
            painter.setFont(font)
            extra = f"{tf_human_readable_num(it.params)} params" if it.params else ""
            line = it.caption if (self.plain or st.presenting) and it.caption else \
                " · ".join(x for x in (it.op_mix, extra) if x)   # an audience: plain words
            tagged = it.alike > 1 and not st.presenting   # repeated: same ops as siblings
            tag = f"≡{it.alike}"
            tag_font = _font(7, True, style=st)
            wide = _tag_width(tag_font, tag) + 4 if tagged else 0.0
            room = it.w - 12 - 2 * wide      # centred, clear of the tag in its corner
            fitted = _caption(font, dpi, line, room) if line == it.caption else \
                _elided(font, dpi, line, room)
            self._text(painter, font, self._rect(("mix", wide), 6 + wide, 21, room, 20),
                       Qt.AlignCenter, fitted)
            if tagged:
                painter.setFont(tag_font)
                painter.setPen(_colour("#3b3b3b"))
                self._text(painter, tag_font,
                           self._rect(("tag", wide), it.w - wide - 4, it.h - 15, wide, 13),
                           Qt.AlignRight, tag)
            self._paint_tags(painter, it, dpi)
            return
        font = _font(8.5, True, style=st)
        painter.setFont(font)
        self._text(painter, font, self._rect("label", 6, 2, it.w - 12, 17), Qt.AlignCenter,
                   _elided(font, dpi, it.label, it.w - 12))
        font = _font(7.5, style=st)
        painter.setFont(font)
        if it.sublabel and it.sublabel != it.label:
            self._text(painter, font, self._rect("sublabel", 6, 18, it.w - 12, 16),
                       Qt.AlignCenter, _elided(font, dpi, it.sublabel, it.w - 12, Qt.ElideLeft))
        if it.badges and lod > 0.6 and not st.presenting:  # values: too small to present
            font = _font(6.5, style=st)
            painter.setFont(font)
            b = it.badges[0]
            more = f" +{len(it.badges) - 1}" if len(it.badges) > 1 else ""
            self._text(painter, font, self._rect("badge", 4, it.h - 16, it.w - 8, 14),
                       Qt.AlignCenter, _elided(font, dpi, f"◆ {b.text()}{more}", it.w - 8))
        self._paint_tags(painter, it, dpi)

    def _rect(self, key, x: float, y: float, w: float, h: float) -> QRectF:
        """A rectangle in item coordinates, made once per item and key."""
        found = self._rects.get(key)
        if found is None:
            found = self._rects[key] = QRectF(x, y, w, h)
        return found

    def _paint_bar(self, painter, it) -> None:
        """Stacked shares of the scope's nodes (e.g. TFLite statuses), worst on the left."""
        total = sum(n for _, n in self.bar) or 1
        x, y, width, height = 6.0, it.h - 9.0, it.w - 12.0, 6.0
        painter.setPen(Qt.NoPen)
        for colour, n in self.bar:
            w = width * n / total
            painter.setBrush(QColor(colour).darker(115))
            painter.drawRect(QRectF(x, y, max(w, 1.5), height))
            x += w
        painter.setPen(QPen(BORDER, 0.6))
        painter.setBrush(Qt.NoBrush)
        painter.drawRect(QRectF(6.0, y, width, height))


    def _text(self, painter, font: QFont, rect: QRectF, flags, text: str) -> None:
        """drawText, remembering what was written and how big (tests measure it)."""
        self.drawn.append((_FONT_KEYS[id(font)][0], text))
        self._extents.append((font, rect, flags, text))
        painter.drawText(rect, flags, text)

    @property
    def drawn_at(self) -> list:
        """Where the last paint's texts sit (item coordinates), in the order of `drawn`:
        measured when asked (tests), not while painting."""
        return [QRectF(QFontMetrics(font).boundingRect(
            rect.toRect(), int(flags.value if hasattr(flags, "value") else flags), text))
            for font, rect, flags, text in self._extents]

    def _paint_tags(self, painter, it, dpi) -> None:
        st = self.style
        if self.badge:   # above the box, beside a tag (centred, clear of it)
            font = _font(7, True, style=st)
            painter.setFont(font)
            painter.setPen(self.ink)
            clear = _advance(font, dpi, self.tag) + 12 if self.tag else 0.0
            high = dpi.metrics(font).height()
            lift = RING if st.ring and (self.selected or self.in_cone) else 0.0  # over it
            left, width = clear, it.w - 2 * clear           # centred over the box, or wider:
            if _advance(font, dpi, self.badge) > width:     # right of a tag / past both sides
                left = clear if self.tag else -BADGE_OVER
                width = it.w + BADGE_OVER - left
            self._text(painter, font, QRectF(left, -high - 1 - lift, width, high),
                       Qt.AlignCenter, _shortened(font, dpi, self.badge, width))
        if self.tag:     # on the box's top edge, above its text, never over it
            colour = "#2e7d32" if self.tag == "IN" else "#6a1b9a"
            font = _font(7, True, style=st)
            painter.setFont(font)
            high = dpi.metrics(font).height() + 2
            box = QRectF(-2, -high, _advance(font, dpi, self.tag) + 10, high)
            painter.setPen(Qt.NoPen)
            painter.setBrush(_brush(colour))
            painter.drawRect(box)
            painter.setPen(_colour("white"))
            self._text(painter, font, box, Qt.AlignCenter, self.tag)
