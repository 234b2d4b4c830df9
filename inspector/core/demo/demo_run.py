"""Run the model on a photo, sound or array the presenter brings: turn the input into what the
graph is fed (`prepare`, no TensorFlow), run it once fetching the answer, "what the model
sees" and the end of each block (`run_demo`, through the executor: the app's worker), and
check the values for a wrong range in plain words."""

from __future__ import annotations

import io
import os
import time
import wave
from dataclasses import dataclass, field

import numpy as np

from inspector.core.demo.feature_maps import (
    MAP_ELEMENTS,
    RUN_ELEMENTS,
    OutputView,
    colour_lut,
    feature_maps,
    output_view,
    to_picture,
)
from inspector.core.demo.front_end import CONVENTIONS, FrontEnd
from inspector.core.errors import InspectorError
from inspector.core.runtime.executor import tensorflow
from inspector.core.runtime.job import NO_JOB, Job

WARN_FRACTION = 0.20
_DECODER_FORMATS = {"jpeg": "JPEG", "png": "PNG", "bmp": "BMP", "gif": "GIF"}


@dataclass
class Prepared:
    """The feeds of one run and plain notes on what was done to the input."""

    feeds: dict
    notes: list = field(default_factory=list)
    label: str = ""           # the input's file name


def _resized(pixels: np.ndarray, fe: FrontEnd) -> np.ndarray:
    from PIL import Image

    img = Image.fromarray(pixels)
    if fe.channels == 1:
        img = img.convert("L")
    img = img.resize((fe.width, fe.height), Image.BILINEAR)
    out = np.asarray(img)
    return out[..., None] if out.ndim == 2 else out


def _reencode(item, fmt: str) -> bytes:
    from PIL import Image

    buf = io.BytesIO()
    Image.fromarray(item.pixels).save(buf, format=_DECODER_FORMATS[fmt], quality=95)
    return buf.getvalue()


def prepare(fe: FrontEnd, item) -> Prepared:
    """Feeds for one input (an ImageInput, AudioInput or ArrayInput of loaders.media)."""
    label = os.path.basename(item.path)
    if item.kind == "array":
        if fe.feed_dtype == "string":
            what = "a WAV sound" if fe.kind == "audio" else "a photo file"
            raise InspectorError(f"this model takes {what} (it decodes the file itself), not "
                                 "an array", path=item.path)
        return Prepared({fe.feed: _array_feed(fe, item)}, label=label)
    if fe.kind == "audio":
        if item.kind != "audio":
            raise InspectorError("this model listens to sound: give it a WAV file, not a "
                                 f"{item.format.upper()}", path=item.path)
        if fe.rate and item.rate != fe.rate:
            raise InspectorError(f"the WAV is recorded at {item.rate:,} samples per second; "
                                 f"this model expects {fe.rate:,}", path=item.path)
        notes = []
        data = item.data
        if item.sample_bits != 16:          # TF's DecodeWav reads 16-bit PCM only
            data = _wav16(item)
            notes.append(f"the {item.sample_bits}-bit WAV was converted to 16-bit for the "
                         "model's decoder")
        if fe.samples and len(item.samples) != fe.samples:
            notes.append(f"the sound is {item.seconds:.2f} s; the model takes "
                         f"{fe.samples / fe.rate:g} s (cut or padded with silence)")
        return Prepared({fe.feed: data}, notes, label)
    if item.kind != "image":
        raise InspectorError("this model looks at pictures: give it a JPEG, PNG, BMP or GIF "
                             "photo", path=item.path)
    if fe.kind != "image":
        raise InspectorError("the open model has no picture input (feed it a .npy array)",
                             path=item.path)
    if fe.feed_format in _DECODER_FORMATS or fe.feed_format == "image":
        notes = []
        data = item.data
        if fe.feed_format in _DECODER_FORMATS and item.format != fe.feed_format:
            data = _reencode(item, fe.feed_format)
            notes.append(f"the {item.format.upper()} was converted to {fe.feed_format.upper()}"
                         " for the model's own decoder")
        return Prepared({fe.feed: data}, notes, label)
    pixels = _resized(item.pixels, fe)
    notes = []
    if (item.size[0], item.size[1]) != (fe.width, fe.height):
        notes.append(f"resized from {item.size[0]}x{item.size[1]} to {fe.width}x{fe.height}")
    if fe.feed_dtype == "uint8":
        x = pixels.astype(np.uint8)
    else:
        x = CONVENTIONS[fe.convention or "0_1"].apply(pixels)
        x = x.astype(np.float16 if fe.feed_dtype == "half" else
                     np.float64 if fe.feed_dtype == "double" else np.float32)
    if fe.layout == "NCHW":
        x = np.moveaxis(x, -1, 0)
    if fe.rank == 4:
        x = x[None]
    return Prepared({fe.feed: x}, notes, label)


def _wav16(item) -> bytes:
    buf = io.BytesIO()
    with wave.open(buf, "wb") as w:
        w.setnchannels(item.samples.shape[1])
        w.setsampwidth(2)
        w.setframerate(item.rate)
        w.writeframes((np.clip(item.samples, -1, 1) * 32767).astype("<i2").tobytes())
    return buf.getvalue()


def _array_feed(fe: FrontEnd, item) -> np.ndarray:
    x = item.array
    if fe.rank and x.ndim == fe.rank - 1:
        x = x[None]
    wanted = "[" + ",".join("?" if d is None else str(d) for d in fe.dims) + "]"
    if fe.rank and x.ndim != fe.rank:
        raise InspectorError(f"the array has shape {list(x.shape)}; '{fe.feed}' takes "
                             f"{wanted}", path=item.path)
    if fe.dims and any(d is not None and d != n for d, n in zip(fe.dims, x.shape)):
        raise InspectorError(f"the array has shape {list(x.shape)}; '{fe.feed}' takes "
                             f"{wanted}", path=item.path)
    if x.dtype.kind == "f" and not np.isfinite(x).all():
        raise InspectorError("the array holds NaN or infinite values", path=item.path)
    dtypes = {"float": np.float32, "half": np.float16, "double": np.float64,
              "uint8": np.uint8, "int32": np.int32, "int64": np.int64}
    return x.astype(dtypes.get(fe.feed_dtype, np.float32))


# -- the run (in the worker, in the app) --------------------------------------------------
@dataclass
class Seen:
    """What the model sees: a picture of it, its values and plain-words warnings."""

    picture: np.ndarray
    description: str
    expected: tuple
    low: float
    high: float
    outside: float = 0.0       # fraction of values outside the expected range
    at_edges: float = 0.0      # fraction at the range's ends (clipped, washed out)
    squashed: float = 0.0      # fraction of the first squashing layer at its limit
    warnings: list = field(default_factory=list)
    kind: str = "image"        # or "spectrogram" (drawn wide, in colour)

    def shown(self) -> np.ndarray:
        """The picture as drawn: a spectrogram in the maps' colour scale (h x w x 3), an
        image as it is."""
        return colour_lut()[self.picture] if self.kind == "spectrogram" else self.picture


@dataclass
class DemoRun:
    label: str
    seen: Seen | None
    outputs: list                          # [OutputView]
    blocks: list                           # [FeatureMaps]
    values: dict = field(default_factory=dict)   # output tensor -> raw array (small)
    notes: list = field(default_factory=list)
    run_ms: float = 0.0
    adjustable: bool = False     # the presenter's value range applies (pixels are fed)
    path: str = ""               # the input file (to run it again through another graph)


def _pct(f: float) -> str:
    return f"{f * 100:.0f} %"


def check_values(x: np.ndarray, expected: tuple) -> tuple[float, float, list]:
    """(fraction outside, fraction at the edges, warnings) of values meant for `expected`."""
    lo, hi = expected
    span = max(hi - lo, 1e-12)
    x = np.asarray(x, np.float64).reshape(-1)
    if x.size == 0:
        return 0.0, 0.0, []
    outside = float(np.mean((x < lo - 0.02 * span) | (x > hi + 0.02 * span)))
    edges = float(np.mean(x >= hi - 0.005 * span))    # blown out (dark pictures are fine)
    warnings = []
    if outside > WARN_FRACTION:
        warnings.append(f"{_pct(outside)} of what the model sees lies outside the range it "
                        f"expects ({lo:g} to {hi:g}); the values run from {x.min():.3g} to "
                        f"{x.max():.3g}. The input is probably scaled the wrong way: try "
                        "another value range.")
    elif edges > WARN_FRACTION:
        warnings.append(f"{_pct(edges)} of the values sit at the top of the range: the picture "
                        "is washed out, or the input is scaled the wrong way.")
    return outside, edges, warnings


def squashed_fraction(op: str, x: np.ndarray) -> float:
    x = np.asarray(x, np.float64)
    if op == "Relu6":
        return float(np.mean(x >= 6.0 - 1e-3))
    if op == "Sigmoid":
        return float(np.mean((x >= 0.999) | (x <= 0.001)))
    if op == "Tanh":
        return float(np.mean(np.abs(x) >= 0.999))
    return 0.0


def _seen(fe: FrontEnd, value, squash_op: str, squash_value) -> Seen:
    x = np.asarray(value)
    if fe.kind == "audio":
        spec = np.asarray(x, np.float64)
        spec = spec.reshape(-1, spec.shape[-1]) if spec.ndim >= 2 else spec[None]
        db = 10 * np.log10(np.maximum(spec, 1e-12))
        db = np.maximum(db, db.max() - 80.0)          # 80 dB below the loudest
        picture = to_picture(db.T[::-1])
        return Seen(picture, fe.describe() + ", as the model hears it: a spectrogram (time "
                    "left to right, pitch bottom to top, loud = bright)", fe.range,
                    float(spec.min()), float(spec.max()), kind="spectrogram")
    img = x[0] if x.ndim == 4 else x
    if fe.layout == "NCHW" and img.ndim == 3:
        img = np.moveaxis(img, 0, -1)
    lo, hi = fe.range
    outside, edges, warnings = check_values(img, fe.range)
    picture = np.clip((np.asarray(img, np.float32) - lo) / max(hi - lo, 1e-12) * 255, 0,
                      255).astype(np.uint8)
    if picture.ndim == 3 and picture.shape[-1] == 1:
        picture = picture[..., 0]
    conv = CONVENTIONS.get(fe.convention)
    if conv is not None and conv.bgr and picture.ndim == 3 and fe.sees == fe.feed:
        picture = picture[..., ::-1]
    seen = Seen(np.ascontiguousarray(picture), fe.describe(), fe.range, float(img.min()),
                float(img.max()), outside, edges, warnings=warnings)
    if squash_value is not None:
        seen.squashed = squashed_fraction(squash_op, squash_value)
        if seen.squashed > WARN_FRACTION and not warnings:
            seen.warnings.append(f"The first layer is at its limit for {_pct(seen.squashed)} "
                                 "of its values: the input is probably far larger than the "
                                 "model expects. Check the value range.")
    return seen


def run_demo(graph_def, fe: FrontEnd, prepared: Prepared, outputs: list, blocks: dict,
             squash: tuple = ("", ""), producers: dict | None = None, known_classes: int = 0,
             allow_io: bool = False, job: Job = NO_JOB) -> DemoRun:
    """One TensorFlow run fetching the outputs, what the model sees, the block ends and the
    first squashing layer (`squash` = (tensor, op)). `blocks`: scene item -> tensor."""
    block_items = list(blocks.items())
    fetches = list(outputs) + ([fe.sees] if fe.sees else []) + [t for _, t in block_items]
    if squash[0]:
        fetches.append(squash[0])
    unique = list(dict.fromkeys(fetches))
    job.progress(0, 0, "running the model")
    start = time.perf_counter()
    values = tensorflow().run_cached(graph_def, prepared.feeds, unique, allow_unsafe=allow_io)
    run_ms = (time.perf_counter() - start) * 1e3
    job.check()
    got = dict(zip(unique, values))
    producers = producers or {}
    views = [output_view(o, got[o], producers.get(o, ""), known_classes) for o in outputs]
    seen = _seen(fe, got[fe.sees], squash[1], got.get(squash[0])) if fe.sees else None
    maps = []
    budget = max(16_384, min(MAP_ELEMENTS, RUN_ELEMENTS // max(1, len(block_items))))
    for item, tensor in block_items:
        fm = feature_maps(item, tensor, got[tensor],
                          "NCHW" if fe.layout == "NCHW" else "NHWC", budget)
        if fm is not None:
            maps.append(fm)
    small = {o: got[o] for o in outputs if np.asarray(got[o]).size <= 1_000_000}
    return DemoRun(prepared.label, seen, views, maps, small, list(prepared.notes), run_ms,
                   fe.feed_format == "pixels")


def top_lines(view: OutputView) -> list:
    """'  62.1 %  tabby cat' lines of a classification answer."""
    return [f"{p * 100:6.2f} %  {name}" for (i, p), name in
            zip(view.top, view.labels or [f"class {i}" for i, _ in view.top])]
