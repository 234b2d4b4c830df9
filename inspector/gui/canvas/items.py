"""Scene items for nodes, collapsed scopes and expanded scope frames, painted with level of
detail: plain boxes far away, labels, shapes, tags and badges close up."""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetricsF, QPainter, QPen
from PySide6.QtWidgets import QGraphicsRectItem

from inspector.core.view.vocabulary import count, tf_human_readable_num
from inspector.gui.canvas.style import CanvasStyle

TEXT = QColor("#1d1d1d")

BORDER = QColor("#555555")

ACCENT = QColor("#d0342c")

DIFF = {"added": QColor("#2e8b57"), "removed": QColor("#c0392b"), "changed": QColor("#d4a017"),
        "merged": QColor("#8e44ad"), "split": QColor("#138d90")}  # merged into / split out of

CONE = QColor("#1f6fd1")


DEFAULT_STYLE = CanvasStyle()


def _font(size: float, bold: bool = False, style: CanvasStyle = DEFAULT_STYLE) -> QFont:
    """A font of `size` points at 96 dpi, set in pixels so a picture does not depend on the
    screen's dpi; while presenting never under the style's minimum."""
    font = QFont()
    font.setPixelSize(max(1, round(style.px(size))))
    font.setBold(bold)
    return font


class NodeItem(QGraphicsRectItem):
    """A node, a collapsed scope (box with counts) or an expanded scope's frame. Its bounding
    box is the C++ rect item's, so indexing tens of thousands of them calls no Python."""

    def __init__(self, item, ink: QColor = TEXT, style: CanvasStyle = DEFAULT_STYLE):
        super().__init__(-3, -3, item.w + 6, item.h + 6)
        self.setPen(Qt.NoPen)
        self.item = item
        self.style = style
        self.drawn: list = []    # (pixel size, text) of what the last paint wrote
        self.drawn_at: list = []  # and where (item coordinates), in the same order
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
        tip = item.id.rstrip("/")
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
            from inspector.core.view.vocabulary import plain

            tip += f"\n{item.label}: {plain(item.label)}" + "".join(
                f"\n{b.name}: {b.dtype} {b.text()}" for b in item.badges[:8])
        self.setToolTip(tip)

    def paint(self, painter: QPainter, option, widget=None) -> None:
        it, st = self.item, self.style
        self.drawn = []
        lod = option.levelOfDetailFromTransform(painter.worldTransform())
        rect = QRectF(0, 0, it.w, it.h)
        self.drawn_at = []
        fill_name, text_name = st.fill_and_text(it.category)
        fill = QColor(self.heat or fill_name)
        dimmed = self.dimmed or not st.lit(it.id)
        if dimmed:
            fill.setAlpha(70 if st.spotlight is None else 45)
        if lod < 0.35 and it.kind != "frame" and not (self.selected or self.in_cone or
                                                         self.diff or self.tag):
            painter.fillRect(rect, fill)  # far away: a plain box is all the eye can see
            return
        pen = QPen(ACCENT if self.selected else (CONE if self.in_cone else
                                                 DIFF.get(self.diff, BORDER)))
        pen.setWidthF(3.0 if self.selected or self.in_cone or self.diff else 1.0)
        if self.diff == "removed":
            pen.setStyle(Qt.DashLine)
        elif self.diff == "merged":
            pen.setStyle(Qt.DashDotLine)
        if it.kind == "frame":
            pen.setStyle(Qt.DashLine if not self.selected else Qt.SolidLine)
            painter.setPen(pen)
            light = QColor(fill)
            light.setAlpha(38)
            painter.setBrush(QBrush(light))
            painter.drawRoundedRect(rect, 8, 8)
            if lod > 0.25:
                painter.setFont(_font(9, True, style=st))
                painter.setPen(self.ink if not dimmed else QColor("#999999"))
                self._text(painter, QRectF(8, 2, it.w - 16, 20), Qt.AlignLeft | Qt.AlignVCenter,
                           _named(painter, it.label, f"  ({count(it.child_count, 'node')})",
                                  it.w - 16))
            return
        painter.setPen(pen)
        painter.setBrush(QBrush(fill))
        radius = 10 if it.kind == "node" else 4
        if it.kind == "scope":  # a stacked look says "there is more inside"
            painter.drawRoundedRect(rect.adjusted(4, 4, 4, 4), radius, radius)
        painter.drawRoundedRect(rect, radius, radius)
        if self.bar and it.kind == "scope":
            self._paint_bar(painter, it)
        if lod < 0.35:
            return  # too small for text: colour and shape are what you see
        painter.setPen(QColor(text_name if not self.heat else TEXT) if not dimmed
                       else QColor("#8a8a8a"))
        if it.kind == "scope":
            painter.setFont(_font(9, True, style=st))
            self._text(painter, QRectF(6, 3, it.w - 12, 18), Qt.AlignCenter,
                       _named(painter, it.label, f"  [{it.child_count}]", it.w - 12))
            painter.setFont(_font(7.5, style=st))
            extra = f"{tf_human_readable_num(it.params)} params" if it.params else ""
            line = it.caption if (self.plain or st.presenting) and it.caption else \
                " · ".join(x for x in (it.op_mix, extra) if x)   # an audience: plain words
            tagged = it.alike > 1 and not st.presenting   # repeated: same ops as siblings
            tag = f"≡{it.alike}"
            tag_font = _font(7, True, style=st)
            wide = QFontMetricsF(tag_font).horizontalAdvance(tag) + 4 if tagged else 0.0
            room = it.w - 12 - 2 * wide      # centred, clear of the tag in its corner
            self._text(painter, QRectF(6 + wide, 21, room, 20), Qt.AlignCenter,
                       _elided(painter, line, room))
            if tagged:
                painter.setFont(tag_font)
                painter.setPen(QColor("#3b3b3b"))
                self._text(painter, QRectF(it.w - wide - 4, it.h - 15, wide, 13),
                           Qt.AlignRight, tag)
            self._paint_tags(painter, it)
            return
        painter.setFont(_font(8.5, True, style=st))
        self._text(painter, QRectF(6, 2, it.w - 12, 17), Qt.AlignCenter,
                   _elided(painter, it.label, it.w - 12))
        painter.setFont(_font(7.5, style=st))
        if it.sublabel and it.sublabel != it.label:
            self._text(painter, QRectF(6, 18, it.w - 12, 16), Qt.AlignCenter,
                       _elided(painter, it.sublabel, it.w - 12, Qt.ElideLeft))
        if it.badges and lod > 0.6 and not st.presenting:  # values: too small to present
            painter.setFont(_font(6.5, style=st))
            b = it.badges[0]
            more = f" +{len(it.badges) - 1}" if len(it.badges) > 1 else ""
            self._text(painter, QRectF(4, it.h - 16, it.w - 8, 14), Qt.AlignCenter,
                       _elided(painter, f"◆ {b.text()}{more}", it.w - 8))
        self._paint_tags(painter, it)

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


    def _text(self, painter, *args) -> None:
        """drawText, remembering what was written and how big (tests measure it)."""
        self.drawn.append((painter.font().pixelSize(), args[-1]))
        self.drawn_at.append(QRectF(painter.fontMetrics().boundingRect(
            args[0].toRect(), int(args[1].value if hasattr(args[1], "value") else args[1]),
            args[-1])))
        painter.drawText(*args)

    def _paint_tags(self, painter, it) -> None:
        st = self.style
        if self.badge:   # above the box, beside a tag (centred, clear of it)
            painter.setFont(_font(7, True, style=st))
            painter.setPen(self.ink)
            metrics = painter.fontMetrics()
            clear = metrics.horizontalAdvance(self.tag) + 12 if self.tag else 0.0
            high = metrics.height()
            self._text(painter, QRectF(clear, -high - 1, it.w - 2 * clear, high),
                       Qt.AlignCenter, _elided(painter, self.badge, it.w - 2 * clear))
        if self.tag:     # on the box's top edge, above its text, never over it
            colour = QColor("#2e7d32") if self.tag == "IN" else QColor("#6a1b9a")
            painter.setFont(_font(7, True, style=st))
            metrics = painter.fontMetrics()
            high = metrics.height() + 2
            box = QRectF(-2, -high, metrics.horizontalAdvance(self.tag) + 10, high)
            painter.setPen(Qt.NoPen)
            painter.setBrush(colour)
            painter.drawRect(box)
            painter.setPen(QColor("white"))
            self._text(painter, box, Qt.AlignCenter, self.tag)


def _elided(painter, text: str, width: float, mode=Qt.ElideRight) -> str:
    """`text` cut to `width` pixels of the painter's font: the end dropped from a list (op
    mix, values), the start from a name (its end tells it from its siblings). Measured,
    never guessed from the number of characters: a guess left text wider than its box,
    cut off at both ends when centred."""
    return painter.fontMetrics().elidedText(text, mode, max(int(width), 8))


def _named(painter, name: str, suffix: str, width: float) -> str:
    """A scope's name and its count: the count whole, the name cut from its start."""
    room = width - painter.fontMetrics().horizontalAdvance(suffix)
    return _elided(painter, name, room, Qt.ElideLeft) + suffix
