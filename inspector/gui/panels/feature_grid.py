"""All feature maps of one block, most active first, with the colour scale the presenter
chooses: each map on its own scale, one scale for the block, or one for the whole model
(the switch CNN Explainer offers)."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import (
    QButtonGroup,
    QDialog,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QRadioButton,
    QScrollArea,
    QVBoxLayout,
)

from inspector.gui.canvas.feature_strip import to_qimage

SCALES = [("channel", "Each map on its own scale"), ("block", "One scale for this block"),
          ("model", "One scale for the whole model")]


def model_range(blocks) -> tuple:
    return (float(min(b.lo.min() for b in blocks)), float(max(b.hi.max() for b in blocks)))


class _Legend(QHBoxLayout):
    """The colour scale: low value, the colour bar, high value, what the scale means."""

    def __init__(self, colours):
        super().__init__()
        bar = colours[None].repeat(14, axis=0)
        self.low, self.high, self.words = QLabel(), QLabel(), QLabel()
        strip = QLabel()
        strip.setPixmap(QPixmap.fromImage(to_qimage(bar)).scaled(220, 14))
        for w in (self.low, strip, self.high, self.words):
            self.addWidget(w)
        self.addStretch(1)

    def show_scale(self, low: str, high: str, words: str) -> None:
        self.low.setText(low)
        self.high.setText(high)
        self.words.setText(words)


class FeatureGrid(QDialog):
    def __init__(self, maps, blocks, parent=None):
        super().__init__(parent)
        self.maps, self.blocks = maps, blocks
        self.setWindowTitle(f"{maps.item.rstrip('/')}: {maps.channels} feature maps")
        self.resize(900, 700)
        layout = QVBoxLayout(self)
        head = QLabel(f"<b>{maps.item.rstrip('/')}</b> hands on {maps.channels} maps of "
                      f"{maps.shape[1]}x{maps.shape[2]}, most active first (by their mean). "
                      "Bright = strong response.")
        head.setWordWrap(True)
        layout.addWidget(head)
        switch = QHBoxLayout()
        self.group = QButtonGroup(self)
        for i, (key, text) in enumerate(SCALES):
            button = QRadioButton(text)
            button.setProperty("scale", key)
            self.group.addButton(button, i)
            switch.addWidget(button)
        switch.addStretch(1)
        layout.addLayout(switch)
        self.legend = _Legend(maps.colour_scale())
        layout.addLayout(self.legend)
        self.picture = QLabel()
        self.picture.setAlignment(Qt.AlignLeft | Qt.AlignTop)
        area = QScrollArea()
        area.setWidget(self.picture)
        area.setWidgetResizable(True)
        layout.addWidget(area, 1)
        close = QPushButton("Close")
        close.clicked.connect(self.accept)
        layout.addWidget(close, 0, Qt.AlignRight)
        self.mode = "channel"
        self.group.idToggled.connect(lambda i, on: on and self.set_scale(SCALES[i][0]))
        self.group.button(0).setChecked(True)

    def set_scale(self, mode: str) -> None:
        self.mode = mode
        order = self.maps.order
        rng = model_range(self.blocks) if mode == "model" else None
        cell = 100 if len(order) <= 32 else 72 if len(order) <= 128 else 48 if len(order) <= 512 \
            else 32
        columns = max(4, min(16, int(1100 / (cell + 4)), int(len(order) ** 0.5 * 1.6 + 1)))
        self.image = self.maps.mosaic(cell, columns, mode, rng)
        self.picture.setPixmap(QPixmap.fromImage(to_qimage(self.image)))
        if mode == "channel":
            self.legend.show_scale("low", "high", "each map from its own lowest to its highest "
                                   "value")
        else:
            lo, hi = rng if rng else (float(self.maps.lo.min()), float(self.maps.hi.max()))
            where = "the whole model" if mode == "model" else "this block"
            self.legend.show_scale(f"{lo:.3g}", f"{hi:.3g}", f"one scale for every map of "
                                   f"{where}: maps can be compared")
        h, w = self.image.shape[:2]
        self.resize(max(560, min(w + 60, 1400)), max(320, min(h + 190, 900)))

    def channel_brightness(self) -> np.ndarray:
        """Mean brightness of each shown map (for tests)."""
        rng = model_range(self.blocks) if self.mode == "model" else None
        return self.maps.pictures(self.maps.order, self.mode, rng).mean(axis=(1, 2))
