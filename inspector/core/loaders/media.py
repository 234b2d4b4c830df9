"""Inputs for demo runs: photos (JPEG, PNG, BMP, GIF), sounds (WAV) and arrays (.npy), or a
folder of photos. The kind comes from the file's first bytes, never its name; sizes are
checked before anything is decoded, and every failure is one line naming the file."""

from __future__ import annotations

import io
import os
import re
import wave
from dataclasses import dataclass, field

import numpy as np

from inspector.core.errors import InspectorError
from inspector.core.loaders import files

MEDIA_LIMIT = 64 * 2 ** 20       # an input photo or sound over 64 MB is not a demo input
PIXEL_LIMIT = 40_000_000         # decoded pixels (a 60 kB PNG can claim 2 billion)
AUDIO_SECONDS_LIMIT = 600

IMAGE_EXTENSIONS = (".jpg", ".jpeg", ".png", ".bmp", ".gif")
_MAGIC = ((b"\xff\xd8\xff", "jpeg"), (b"\x89PNG\r\n\x1a\n", "png"), (b"BM", "bmp"),
          (b"GIF87a", "gif"), (b"GIF89a", "gif"), (b"\x93NUMPY", "npy"))


@dataclass
class ImageInput:
    """A decoded photo: `pixels` is height x width x 3 (RGB) uint8; `data` the file's bytes."""

    path: str
    format: str
    data: bytes
    pixels: np.ndarray

    kind = "image"

    @property
    def size(self) -> tuple:
        return self.pixels.shape[1], self.pixels.shape[0]


@dataclass
class AudioInput:
    """A WAV sound: `samples` is frames x channels float32 in [-1, 1]."""

    path: str
    data: bytes
    samples: np.ndarray
    rate: int
    sample_bits: int

    kind = "audio"
    format = "wav"

    @property
    def seconds(self) -> float:
        return len(self.samples) / float(self.rate)


@dataclass
class ArrayInput:
    path: str
    array: np.ndarray

    kind = "array"
    format = "npy"


@dataclass
class InputSet:
    """What the presenter dropped: one input or a folder of photos (runs use the first;
    `skipped` says which files of the folder were not photos)."""

    items: list
    skipped: list = field(default_factory=list)
    photos: list = field(default_factory=list)     # every photo of a folder (paths)

    @property
    def first(self):
        return self.items[0]


def sniff(head: bytes) -> str | None:
    """'jpeg', 'png', 'bmp', 'gif', 'wav', 'npy' or None."""
    if head[:4] == b"RIFF" and head[8:12] == b"WAVE":
        return "wav"
    for magic, kind in _MAGIC:
        if head.startswith(magic):
            return kind
    return None


def _describe_unknown(head: bytes) -> str:
    if not head:
        return "the file is empty"
    sample = head[:512]
    try:
        sample.decode("utf-8")
        return "it holds text, not a photo, sound or .npy array"
    except UnicodeDecodeError:
        return "not a JPEG, PNG, BMP or GIF photo, a WAV sound or a .npy array"


def read_input(path: str) -> InputSet:
    """A file or a folder of photos, decoded and checked (raises InspectorError)."""
    if os.path.isdir(path):
        return _read_folder(path)
    return InputSet([read_one(path)])


def read_one(path: str):
    head = files.read_file(path, MEDIA_LIMIT, "the input", error=InspectorError, count=16)
    kind = sniff(head)
    if kind is None:
        raise InspectorError(f"cannot use this as an input: {_describe_unknown(head)}",
                             path=path)
    if kind == "npy":
        from inspector.core.loaders.arrays import load_npy

        array = load_npy(path)
        if array.dtype.kind not in "biuf":
            raise InspectorError(f"holds {array.dtype} values; demo runs take numbers",
                                 path=path)
        return ArrayInput(path, array)
    data = files.read_file(path, MEDIA_LIMIT, "the input", error=InspectorError)
    if kind == "wav":
        return _read_wav(path, data)
    return _read_image(path, data, kind)


def _read_folder(path: str) -> InputSet:
    """The first photo of a folder, decoded; the others only recognised by their first
    bytes (a run uses the first; decoding 256 big photos would take gigabytes)."""
    try:
        names = sorted(os.listdir(path))
    except OSError as exc:
        raise InspectorError(f"cannot list the folder: {exc.strerror or exc}", path=path) \
            from None
    first, photos, skipped = None, [], []
    for name in names:
        full = os.path.join(path, name)
        if name.startswith("."):
            continue
        if not os.path.isfile(full):
            skipped.append(name)
            continue
        try:
            head = files.read_file(full, MEDIA_LIMIT, "the input", error=InspectorError,
                                   count=16)
        except InspectorError:
            skipped.append(name)
            continue
        if sniff(head) not in ("jpeg", "png", "bmp", "gif"):
            skipped.append(name)
            continue
        if first is None:
            try:
                first = read_one(full)
            except InspectorError:
                skipped.append(name)
                continue
        photos.append(full)
    if first is None:
        raise InspectorError("the folder holds no readable JPEG, PNG, BMP or GIF photo",
                             path=path)
    return InputSet([first], skipped, photos)


def _read_image(path: str, data: bytes, kind: str) -> ImageInput:
    from PIL import Image

    try:
        with Image.open(io.BytesIO(data)) as img:
            width, height = img.size
            if width * height > PIXEL_LIMIT or width <= 0 or height <= 0:
                raise InspectorError(f"the {kind.upper()} declares {width}x{height} pixels, "
                                     f"over the {PIXEL_LIMIT // 1_000_000} million pixel limit",
                                     path=path)
            img.seek(0)
            pixels = _eight_bit_rgb(img)
    except InspectorError:
        raise
    except Image.DecompressionBombError:
        raise InspectorError(f"the {kind.upper()} declares more pixels than the "
                             f"{PIXEL_LIMIT // 1_000_000} million pixel limit", path=path) \
            from None
    except Exception as exc:  # noqa: BLE001  (Pillow raises many kinds on bad data)

        text = re.sub(r"<_io\.BytesIO object at 0x[0-9a-f]+>", "it", str(exc).split("\n")[0])
        text = text[:120] or type(exc).__name__
        raise InspectorError(f"the {kind.upper()} photo is damaged or truncated ({text})",
                             path=path) from None
    return ImageInput(path, kind, data, pixels)


def _eight_bit_rgb(img) -> np.ndarray:
    """H x W x 3 uint8. 16- and 32-bit greys are scaled down (Pillow's own conversion clips
    them to white)."""
    if img.mode in ("I;16", "I;16B", "I;16L", "I;16N", "I", "F"):
        grey = np.asarray(img, dtype=np.float64)
        top = 65535.0 if img.mode.startswith("I;16") else max(float(grey.max()), 1.0)
        grey = np.clip(grey / top * 255.0 + 0.5, 0, 255).astype(np.uint8)
        return np.repeat(grey[..., None], 3, axis=2)
    rgb = img.convert("RGB")
    rgb.load()
    return np.asarray(rgb, dtype=np.uint8).copy()


def _read_wav(path: str, data: bytes) -> AudioInput:
    try:
        with wave.open(io.BytesIO(data)) as w:
            channels, width, rate = w.getnchannels(), w.getsampwidth(), w.getframerate()
            frames = w.getnframes()
            if rate <= 0 or channels <= 0 or frames / rate > AUDIO_SECONDS_LIMIT:
                raise InspectorError(f"the WAV declares {frames} samples at {rate} Hz: not a "
                                     "usable sound", path=path)
            raw = w.readframes(frames)
    except InspectorError:
        raise
    except (wave.Error, EOFError, ValueError) as exc:
        why = str(exc)[:120] or "it ends too early"
        raise InspectorError(f"not a readable WAV sound ({why}); only 8, 16 and 32-bit "
                             "integer PCM is read", path=path) from None
    if width not in (1, 2, 4):
        raise InspectorError(f"the WAV has {width * 8}-bit samples; only 8, 16 and 32-bit "
                             "PCM is read", path=path)
    usable = len(raw) // (width * channels) * width * channels
    if usable == 0:
        raise InspectorError("the WAV holds no samples", path=path)
    if len(raw) < frames * width * channels:
        raise InspectorError(f"the WAV is truncated: it declares {frames:,} samples and holds "
                             f"{len(raw) // (width * channels):,}", path=path)
    if width == 1:
        values = (np.frombuffer(raw[:usable], np.uint8).astype(np.float32) - 128.0) / 128.0
    else:
        dtype = {2: "<i2", 4: "<i4"}[width]
        values = np.frombuffer(raw[:usable], dtype).astype(np.float32) / float(2 ** (width * 8 - 1))
    return AudioInput(path, data, values.reshape(-1, channels), rate, width * 8)


def is_demo_input(path: str) -> bool:
    """Whether a dropped path is something to run the open model on (a photo, a WAV, a .npy
    or a folder of photos) rather than a model to open. Reads at most 16 bytes."""
    if os.path.isdir(path):
        if os.path.exists(os.path.join(path, "saved_model.pb")) or \
                os.path.exists(os.path.join(path, "model.json")):
            return False
        try:
            return any(n.lower().endswith(IMAGE_EXTENSIONS) for n in os.listdir(path))
        except OSError:
            return False
    named = path.lower().endswith(IMAGE_EXTENSIONS + (".wav", ".npy"))
    if not os.path.isfile(path):      # never open a FIFO or device to look
        return named
    try:
        with open(path, "rb") as fh:
            head = fh.read(16)
    except OSError:
        return named
    if sniff(head) is not None:
        return True
    return named
