"""Inputs made up for a run (random values or zeros, shaped as the user or the model declares),
sized before anything is allocated and made in the input's own dtype.

Every place that makes such inputs goes through here: profile, check outputs, run both
(analysis.numeric_check.make_inputs), the conversion preview, its confirm and the
quantization recipes (mobile.tflite_preview.gather_samples), calibration (overlays.
calibration, before its child starts). A size typed as image=1,100000,100000,1 once reached
numpy as 100 float64 arrays and came back as "Unable to allocate 74.5 GiB ... float64"; now
it is one line naming the input, its shape, what it would take and the limit. A run's inputs
are sized together (check_all): two that each fit could pass the limit between them."""

from __future__ import annotations

import math
import os

from inspector.core.errors import InspectorError
from inspector.core.runtime.keras_limits import machine_memory
from inspector.core.runtime.lazy_import import later

np = later("numpy", globals(), "np")     # (imported by tflite_preview, which imports none)

LIMIT_ENV = "INSPECTOR_FEED_MEMORY_GB"
UNKNOWN_MACHINE = 2 << 30     # the limit when the system does not say how much memory it has
CHUNK = 1 << 20               # values drawn at a time
MAX_DIMS = {1: 32}            # numpy's most dimensions by major version (NPY_MAXDIMS; 64
#                               from numpy 2; TensorFlow allows 254)
SHARE = 4                     # made-up inputs may take a quarter of the machine's memory (the
#                               worker's own limit is half: the run needs the rest)


def max_dims() -> int:
    """The most dimensions this numpy's arrays can have (pyproject allows numpy 1.26: 32)."""
    return MAX_DIMS.get(int(np.__version__.split(".")[0]), 64)


def feed_limit() -> tuple:
    """(bytes the made-up inputs of one run may take, where that figure comes from)."""
    if os.environ.get(LIMIT_ENV):
        try:
            return max(1 << 20, int(float(os.environ[LIMIT_ENV]) * (1 << 30))), f"${LIMIT_ENV}"
        except (ValueError, OverflowError):     # not a number, or inf
            pass
    machine = machine_memory()
    if not machine:
        return UNKNOWN_MACHINE, "the default"
    return machine // SHARE, "a quarter of this machine's memory"


def size_words(n: float) -> str:
    """Bytes in binary units up to EB, as `numfmt --to=iec --format=%.1f` says them (the unit
    chosen after rounding: 1,048,575 bytes read "1.0 MB"); a declared size past 1024 EB as
    its power of ten (a 64-dimension shape needs ~10^597 bytes: a float cannot hold it)."""
    n = int(n)
    if n < 1024:
        return f"{n} bytes"
    if n >= 1 << 70:
        return f"about 10^{len(str(n)) - 1} bytes"
    value = n / 1024
    for unit in ("KB", "MB", "GB", "TB", "PB"):
        if round(value, 1) < 1024:
            return f"{value:.1f} {unit}"
        value /= 1024
    return f"{value:.1f} EB"


def dims_text(dims) -> str:
    """Sizes as typed (1,224,224,3); past 8 of them, the first 8 and how many: a hostile
    model's or session's 64 sizes of 2147483647 made one line of 700 characters."""
    if len(dims) <= 8:
        return ",".join(map(str, dims))
    return ",".join(map(str, dims[:8])) + f",… ({len(dims)} sizes)"


def check(name: str, shape, dtype, count: int = 1) -> None:
    """Refuse (InspectorError naming the input) `count` samples of `shape` in `dtype` that
    would pass the limit, or a shape that no array can have; nothing is allocated. A run
    that makes up several inputs sizes them together (check_all)."""
    check_all([(name, shape, dtype, count)])


def check_all(wanted) -> None:
    """Refuse the made-up inputs of one run, (name, shape, dtype, samples) each, when their
    total would pass the limit (or a shape no array can have), before any is allocated: two
    inputs that each fit could take twice the limit together. The message is one line that
    names every input's share."""
    sized = []
    for name, shape, dtype, count in wanted:
        dims = [int(d) for d in shape]
        if any(d < 0 for d in dims):
            raise InspectorError(f"input sized [{dims_text(dims)}]: a negative "
                                 "dimension", node=name)
        most = max_dims()
        if len(dims) > most:          # numpy's own limit: past it, a ValueError escaped
            raise InspectorError(f"input of {len(dims):,} dimensions: an array can have at "
                                 f"most {most}", node=name)
        each = math.prod(dims) * max(np.dtype(dtype).itemsize, 1)
        count = max(int(count), 1)
        sized.append((name, f"[{dims_text(dims)}] ({np.dtype(dtype).name})", count,
                      each, each * count))
    limit, why = feed_limit()
    total = sum(need for *_, need in sized)
    if total <= limit:
        return
    past = f"past the {size_words(limit)} that made-up inputs may take ({why})"
    several = any(count > 1 for _, _, count, _, _ in sized)
    give = "; give " + ("smaller sizes" if len(sized) > 1 else "a smaller size") + \
        (" or fewer samples" if several else "")
    if len(sized) == 1:
        name, what, count, each, need = sized[0]
        many = f"{count} samples need {size_words(need)} ({size_words(each)} each)" \
            if count > 1 else f"one sample needs {size_words(need)}"
        raise InspectorError(f"input sized {what}: {many}, {past}{give}", node=name)
    shares = ", ".join(f"'{name}' {what} {size_words(need)}" +
                       (f" ({count} samples)" if count > 1 else "")
                       for name, what, count, _, need in sized)
    raise InspectorError(f"made-up inputs need {size_words(total)} together, {past}: {shares}"
                         f"{give}")


def random(rng, shape, dtype, low: float | None = None, high: float | None = None):
    """Seeded random values of `shape` written straight into an array of `dtype`: floats
    normal (uniform in [low, high] when given), integers in [0, 10), bools 0/1. They are
    drawn CHUNK at a time (float64 or int64 pieces of 8 MB at most, never a float64 copy of
    the whole input), the same values as one draw of the whole shape gave (the figures of
    earlier runs and tests stay as they were)."""
    dtype = np.dtype(dtype)
    if dtype.kind not in "fiubc":
        raise InspectorError(f"random {dtype.name} values cannot be made up")
    out = np.empty(tuple(int(d) for d in shape), dtype)
    flat = out.reshape(-1)           # a view: the array is new and contiguous
    for start in range(0, flat.size, CHUNK):
        k = min(CHUNK, flat.size - start)
        if dtype.kind in "fc":
            part = rng.standard_normal(k) if low is None else rng.uniform(low, high, k)
        else:
            part = rng.integers(0, 2 if dtype.kind == "b" else 10, k)
        flat[start:start + k] = part
    return out
