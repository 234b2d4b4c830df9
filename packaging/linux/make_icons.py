"""Render the app icon's PNGs (hicolor sizes 16-512) from its SVG sources with Qt's
QSvgRenderer: graphdef-inspector-small.svg (pixel-aligned) up to 24 px, the full SVG above.
Run: QT_QPA_PLATFORM=offscreen python packaging/linux/make_icons.py"""

import os
import sys

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "icons")
SIZES = (16, 22, 24, 32, 48, 64, 128, 256, 512)


def render(svg: str, size: int, out: str) -> None:
    renderer = QSvgRenderer(svg)
    if not renderer.isValid():
        sys.exit(f"{svg}: not a valid SVG")
    image = QImage(size, size, QImage.Format_ARGB32)
    image.fill(Qt.transparent)
    painter = QPainter(image)
    painter.setRenderHints(QPainter.Antialiasing | QPainter.SmoothPixmapTransform)
    renderer.render(painter)
    painter.end()
    if not image.save(out):
        sys.exit(f"cannot write {out}")


def main() -> None:
    QGuiApplication.instance() or QGuiApplication(sys.argv[:1])
    for size in SIZES:
        src = "graphdef-inspector-small.svg" if size <= 24 else "graphdef-inspector.svg"
        render(os.path.join(HERE, src), size, os.path.join(HERE, f"graphdef-inspector-{size}.png"))
    print(f"wrote {len(SIZES)} PNGs in {HERE}")


if __name__ == "__main__":
    main()
