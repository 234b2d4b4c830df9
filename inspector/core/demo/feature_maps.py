"""What a demo run brings back, made small enough to draw: each block's feature maps (channels
ranked by mean activation, shrunk to a thumbnail size), and the model's answer shaped for
showing (top classes, an image, a curve or a table)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

MAP_ELEMENTS = 320_000   # values kept per block (thumbnails shrink to fit)
MAP_SIDE = 64            # largest thumbnail side
RUN_ELEMENTS = 6_000_000  # values kept over all blocks of one run (shared out evenly)
TOP = 5
_CLASS_OPS = {"Softmax", "Sigmoid", "LogSoftmax", "MatMul", "BiasAdd", "Add", "AddV2",
              "_FusedMatMul", "Squeeze", "Reshape", "Identity"}


@dataclass
class FeatureMaps:
    """One block's activations. `maps` is channels x h x w (float16, shrunk); `order` lists
    the channels most active first (by mean activation over the whole map)."""

    item: str
    tensor: str
    shape: tuple
    maps: np.ndarray
    order: list
    lo: np.ndarray
    hi: np.ndarray
    mean: np.ndarray

    @property
    def channels(self) -> int:
        return len(self.order)

    def pictures(self, channels, mode: str = "channel", model_range=None) -> np.ndarray:
        """uint8 pictures of these channels on the chosen colour scale (`scaled`)."""
        return scaled(self, channels, mode, model_range)

    def coloured(self, channels, mode: str = "channel", model_range=None) -> np.ndarray:
        """n x h x w x 3 uint8: the pictures in the colour scale (low dark, high bright)."""
        return colour_lut()[self.pictures(channels, mode, model_range)]

    def mosaic(self, cell: int, columns: int, mode: str = "channel",
               model_range=None) -> np.ndarray:
        """Every map, most active first, as one RGB image (`mosaic`)."""
        return mosaic(self.pictures(self.order, mode, model_range), cell, columns)

    @staticmethod
    def colour_scale() -> np.ndarray:
        """256 x 3 uint8: the colours of the maps, lowest value first (`colour_lut`)."""
        return colour_lut()


def _shrink(x: np.ndarray, side: int) -> np.ndarray:
    """Average-pool h x w maps (last two axes) so neither side exceeds `side`."""
    h, w = x.shape[-2:]
    f = max(1, math.ceil(max(h, w) / side))
    if f == 1:
        return x
    hh, ww = h // f * f, w // f * f
    if hh == 0 or ww == 0:
        return x[..., :1, :1]
    x = x[..., :hh, :ww]
    return x.reshape(x.shape[:-2] + (hh // f, f, ww // f, f)).mean(axis=(-3, -1))


def feature_maps(item: str, tensor: str, value: np.ndarray, layout: str = "NHWC",
                 budget: int = MAP_ELEMENTS):
    """FeatureMaps of one fetched value, or None when it is not a stack of 2-D maps."""
    value = np.asarray(value)
    if value.dtype.kind != "f" or value.ndim != 4 or value.shape[0] < 1:
        return None
    x = value[0].astype(np.float32)
    x = x if layout == "NCHW" else np.moveaxis(x, -1, 0)      # channels first
    if x.shape[1] < 2 or x.shape[2] < 2 or not np.isfinite(x).all():
        return None
    side = MAP_SIDE
    while x.shape[0] * min(x.shape[1], side) * min(x.shape[2], side) > budget \
            and side > 4:
        side //= 2
    small = _shrink(x, side)
    mean = x.mean(axis=(1, 2))
    order = [int(i) for i in np.argsort(-mean, kind="stable")]
    return FeatureMaps(item, tensor, tuple(value.shape), small.astype(np.float16), order,
                       x.min(axis=(1, 2)), x.max(axis=(1, 2)), mean)


def scaled(maps: FeatureMaps, channels, mode: str, model_range=None) -> np.ndarray:
    """uint8 pictures of the given channels, 0..255 over the chosen colour scale: 'channel'
    (each its own min..max), 'block' (this block's), or 'model' (`model_range`)."""
    x = maps.maps[list(channels)].astype(np.float32)
    if mode == "channel":
        lo = maps.lo[list(channels)][:, None, None]
        hi = maps.hi[list(channels)][:, None, None]
    elif mode == "model" and model_range is not None:
        lo, hi = model_range
    else:
        lo, hi = float(maps.lo.min()), float(maps.hi.max())
    span = np.maximum(np.asarray(hi, np.float32) - lo, 1e-12)
    return np.clip((x - lo) / span * 255.0, 0, 255).astype(np.uint8)


@dataclass
class OutputView:
    """The answer. kind: 'classes' (top scores), 'image', 'curve', 'table' or 'value'."""

    name: str
    shape: tuple
    kind: str
    top: list = field(default_factory=list)      # [(class index, probability)]
    count: int = 0                               # how many classes
    scores: str = ""                             # plain words: what the numbers are
    data: np.ndarray | None = None               # for image, curve, table
    labels: list = field(default_factory=list)   # names of `top`, filled by the caller
    note: str = ""

    def picture(self) -> np.ndarray:
        """An 'image' answer as uint8 for display (its own min..max)."""
        return to_picture(self.data)


def _softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max())
    return e / e.sum()


def output_view(name: str, value, producer_op: str = "", known_classes: int = 0) -> OutputView:
    value = np.asarray(value)
    shape = tuple(value.shape)
    x = value[0] if value.ndim >= 2 and value.shape[0] == 1 else value
    if value.dtype.kind not in "biuf":
        flat = [v.decode("utf-8", "replace") if isinstance(v, bytes) else str(v)
                for v in value.reshape(-1)[:64]]
        return OutputView(name, shape, "table", data=np.array(flat, dtype=object))
    if x.ndim == 0 or x.size <= 1:
        return OutputView(name, shape, "value", data=np.asarray(x, np.float64).reshape(-1))
    if x.dtype.kind == "f" and not np.isfinite(x).all():
        bad = int((~np.isfinite(x)).sum())
        return OutputView(name, shape, "table", data=np.asarray(x, np.float64).reshape(
            x.shape[0], -1)[:64, :16] if x.ndim > 1 else np.asarray(x, np.float64)[:64],
            note=f"{bad:,} of the {x.size:,} answer values are NaN or infinite: the model "
                 "broke down on this input")
    if x.ndim == 1 and x.dtype.kind == "f" and (producer_op in _CLASS_OPS or
                                                 known_classes in (x.size, x.size - 1)):
        x = x.astype(np.float64)
        if producer_op == "LogSoftmax":
            probs, words = np.exp(x), "log-probabilities, shown as probabilities"
        elif x.min() >= 0 and x.max() <= 1 and abs(x.sum() - 1) < 1e-3:
            probs, words = x, "probabilities"
        elif x.min() >= 0 and x.max() <= 1:
            probs, words = x, "independent probabilities (each 0 to 1)"
        else:
            probs, words = _softmax(x), "raw scores, turned into probabilities (softmax)"
        top = np.argsort(-probs, kind="stable")[:TOP]
        return OutputView(name, shape, "classes", [(int(i), float(probs[i])) for i in top],
                          x.size, words)
    if x.ndim == 1:
        return OutputView(name, shape, "curve" if x.size > 16 else "table",
                          data=x.astype(np.float64))
    if x.ndim == 3 and x.shape[-1] in (1, 3) and min(x.shape[:2]) >= 4:
        return OutputView(name, shape, "image", data=x.astype(np.float32))
    if x.ndim == 2 and min(x.shape) >= 8:
        return OutputView(name, shape, "image", data=x.astype(np.float32))
    if x.ndim == 2 and min(x.shape) == 1:
        flat = x.reshape(-1).astype(np.float64)
        return OutputView(name, shape, "curve" if flat.size > 16 else "table", data=flat)
    flat = x.reshape(x.shape[0], -1) if x.ndim > 2 else x
    return OutputView(name, shape, "table", data=np.asarray(flat[:64, :16], np.float64))


def to_picture(x: np.ndarray) -> np.ndarray:
    """An image-shaped array as uint8 for display (its own min..max)."""
    x = np.asarray(x, np.float32)
    if x.ndim == 3 and x.shape[-1] == 1:
        x = x[..., 0]
    lo, hi = float(np.nanmin(x)), float(np.nanmax(x))
    return np.clip((x - lo) / max(hi - lo, 1e-12) * 255, 0, 255).astype(np.uint8)


_ANCHORS = np.array([[68, 1, 84], [59, 82, 139], [33, 145, 140], [94, 201, 98],
                     [253, 231, 37]], np.float32)   # dark violet -> yellow (viridis-like)


def colour_lut() -> np.ndarray:
    """256 x 3 uint8: low activations dark, high ones bright (perceptually even, readable
    for colour-blind viewers)."""
    pos = np.linspace(0, len(_ANCHORS) - 1, 256)
    low = np.floor(pos).astype(int).clip(0, len(_ANCHORS) - 2)
    frac = (pos - low)[:, None]
    return (_ANCHORS[low] * (1 - frac) + _ANCHORS[low + 1] * frac).round().astype(np.uint8)


def mosaic(pictures: np.ndarray, cell: int, columns: int, gap: int = 4) -> np.ndarray:
    """n x h x w uint8 pictures -> one RGB image of `columns` cells of `cell` pixels
    (nearest-neighbour enlarged, colour-mapped), on a light background."""
    n, h, w = pictures.shape
    f = max(1, cell // max(h, w))
    big = pictures.repeat(f, axis=1).repeat(f, axis=2)
    ch, cw = big.shape[1:]
    rows = max(1, -(-n // columns))
    out = np.full((rows * (ch + gap) + gap, columns * (cw + gap) + gap, 3), 245, np.uint8)
    lut = colour_lut()
    for i in range(n):
        r, c = divmod(i, columns)
        y, x = gap + r * (ch + gap), gap + c * (cw + gap)
        out[y:y + ch, x:x + cw] = lut[big[i]]
    return out
