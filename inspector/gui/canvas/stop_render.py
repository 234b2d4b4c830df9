"""Pictures of tour stops without the window: a stop's scene built from the core layout into
its own QGraphicsScene (presentation palette, spotlight, selection, feature-map strips) and
rendered to SVG (vector, text as text) or to an image. Used by the tour export and the CLI."""

from __future__ import annotations

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtWidgets import QGraphicsScene

from inspector.gui.canvas.edges import EdgeLayer, edge_geometry
from inspector.gui.canvas.items import NodeItem
from inspector.gui.canvas.style import CanvasStyle

ASPECT = 16 / 9


class StopPicture:
    """A stop's scene, ready to render (build it off the GUI thread's hot path: big scenes
    take a moment)."""

    def __init__(self, view, stop, demo=None, spotlight: bool = True,
                 font_scale: float = 1.0):
        self.style = CanvasStyle(font_scale=font_scale)
        self.style.present(True)
        scene = view.scene(frozenset(stop.expanded) | {""})
        self.scene = QGraphicsScene()
        ink = QColor("#1d1d1d")
        maps = {b.item: b for b in (demo.blocks if demo is not None else [])} \
            if stop.overlay == "activations" else {}
        for item in scene.items.values():
            node = NodeItem(item, ink, self.style)
            node.selected = bool(stop.selected) and item.id == stop.selected
            node.plain = bool(maps)
            self.scene.addItem(node)
            if item.id in maps:
                from inspector.gui.canvas.feature_strip import FeatureStrip

                node.strip = FeatureStrip(node, maps[item.id])
        for tile in edge_geometry(scene.edges, scene.items, scene.direction):
            self.scene.addItem(EdgeLayer(tile, ink, self.style))
        if spotlight and stop.focus:
            self.style.spotlight = frozenset(stop.focus)
        self.source = self._source(stop, scene)

    def _source(self, stop, scene) -> QRectF:
        """The stop's rectangle (the whole graph without one)."""
        if stop.rect:
            return QRectF(*stop.rect)
        return self.scene.itemsBoundingRect().adjusted(-30, -30, 30, 30)

    def _paint(self, painter, target: QRectF) -> None:
        """The stop's rectangle, widened to the target's shape and centred in it."""
        painter.setRenderHints(QPainter.Antialiasing | QPainter.TextAntialiasing)
        painter.fillRect(target, QColor("#ffffff"))
        source = QRectF(self.source)
        aspect = target.width() / max(target.height(), 1.0)
        if source.width() / max(source.height(), 1.0) < aspect:
            grow = source.height() * aspect - source.width()
            source.adjust(-grow / 2, 0, grow / 2, 0)
        else:
            grow = source.width() / aspect - source.height()
            source.adjust(0, -grow / 2, 0, grow / 2)
        self.scene.render(painter, target, source, Qt.IgnoreAspectRatio)

    def svg(self, width: int = 1280) -> str:
        from PySide6.QtSvg import QSvgGenerator

        height = int(width / ASPECT)
        data = QByteArray()
        buffer = QBuffer(data)
        buffer.open(QIODevice.WriteOnly)
        gen = QSvgGenerator()
        gen.setOutputDevice(buffer)
        gen.setSize(QSize(width, height))
        gen.setViewBox(QRectF(0, 0, width, height))
        gen.setTitle("GraphDef Inspector tour stop")
        painter = QPainter(gen)
        self._paint(painter, QRectF(0, 0, width, height))
        painter.end()
        buffer.close()
        return bytes(data).decode("utf-8")

    def image(self, width: int = 1920) -> QImage:
        image = QImage(width, int(width / ASPECT), QImage.Format_ARGB32)
        image.fill(QColor("white"))
        painter = QPainter(image)
        self._paint(painter, QRectF(image.rect()))
        painter.end()
        return image

    def paint_into(self, painter, target: QRectF) -> None:
        self._paint(painter, target)


def png_bytes(image: QImage) -> bytes:
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.WriteOnly)
    image.save(buffer, "PNG")
    buffer.close()
    return bytes(data)


def seen_image(seen, longest: int = 480) -> QImage:
    """What the model sees, enlarged for a slide (blocky when tiny, like the Demo panel)."""
    from inspector.gui.canvas.feature_strip import picture_pixmap

    return picture_pixmap(seen.shown(), longest=longest, kind=seen.kind).toImage()


def answer_bars(demo) -> list:
    """[(name, probability)] of the first classification answer of a demo run."""
    for out in demo.outputs if demo is not None else []:
        if out.kind == "classes" and out.top:
            names = out.labels or [f"class {i}" for i, _ in out.top]
            return [(name, float(p)) for (_, p), name in zip(out.top, names)]
    return []
