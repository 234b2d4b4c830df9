"""Node colours and the text drawn on them. The presentation palette is colour-blind safe
(Okabe and Ito's eight colours for the categories an audience must tell apart, greys for the
plumbing) and every fill carries the text colour that reads best on it; `contrast_ratio` is
WCAG 2's definition, and every pair here passes AA (4.5:1)."""

from __future__ import annotations

from inspector.core.model.op_categories import COLOURS

AA = 4.5
BLACK, WHITE = "#000000", "#ffffff"

# category -> fill. Hues carry the categories people ask about (what goes in, convolution,
# dense, normalisation, activation, pooling, decoding), greys the rest.
PRESENTATION = {
    "input": "#f0e442",          # yellow
    "convolution": "#56b4e9",    # sky blue
    "matmul": "#0072b2",         # blue
    "normalization": "#009e73",  # bluish green
    "activation": "#e69f00",     # orange
    "pooling": "#cc79a7",        # reddish purple
    "io": "#d55e00",             # vermilion
    "quantization": "#882255",   # wine
    "math": "#f2f2f2",
    "shape": "#dddddd",
    "constant": "#c4c4c4",
    "variable": "#a9a9a9",
    "control": "#8c8c8c",
    "training": "#e8e8e8",
    "other": "#ffffff",
}


def _channel(c: float) -> float:
    c /= 255.0
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def luminance(colour: str) -> float:
    """WCAG relative luminance of '#rrggbb'."""
    value = colour.lstrip("#")
    r, g, b = (int(value[i:i + 2], 16) for i in (0, 2, 4))
    return 0.2126 * _channel(r) + 0.7152 * _channel(g) + 0.0722 * _channel(b)


def contrast_ratio(a: str, b: str) -> float:
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def text_on(fill: str) -> str:
    """Black or white, whichever contrasts more with `fill`."""
    return BLACK if contrast_ratio(fill, BLACK) >= contrast_ratio(fill, WHITE) else WHITE


def palette(presenting: bool) -> dict:
    """category -> (fill, text colour)."""
    fills = PRESENTATION if presenting else COLOURS
    return {cat: (fill, text_on(fill) if presenting else "#1d1d1d")
            for cat, fill in fills.items()}
