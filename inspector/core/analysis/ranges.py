"""Requantization range logs: parse TF's `__requant_min_max:` lines and aggregate them as
freeze_requantization_ranges does (single-precision percentile indexes, round half away)."""

from __future__ import annotations

import math
from dataclasses import dataclass

from inspector.core.runtime.lazy_import import later

np = later("numpy", globals(), "np")     # not imported before the app's first picture

MARKER = "__print__;__requant_min_max:"
FIELD = "__requant_min_max:"


@dataclass
class RangeLog:
    records: dict  # node name -> list of (min, max) in the order logged
    lines_read: int = 0
    lines_skipped: int = 0


def _strtof(text: str):
    """A finite float, else None (TF would take nan and inf, which make no range)."""
    try:
        value = float(text.strip())
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def _record(name_field: str, field_text: str):
    """(node name, min, max) from a name field and the range field after it, or None."""
    parts = field_text.split("[")
    if len(parts) != 3 or parts[0] != FIELD:
        return None
    lo_parts, hi_parts = parts[1].split("]"), parts[2].split("]")
    if len(lo_parts) != 2 or len(hi_parts) != 2:
        return None
    lo, hi = _strtof(lo_parts[0]), _strtof(hi_parts[0])
    if lo is None or hi is None or not name_field.endswith("__print__"):
        return None
    return name_field[: -len("__print__")], lo, hi


def parse_line(line: str):
    """(node name, min, max) from one log line, or None (TF's rules, no regex: the last range
    field on the line counts)."""
    if MARKER not in line:
        return None
    fields = line.split(";")
    pick = None
    for i in range(1, len(fields)):
        if fields[i].startswith(FIELD):
            pick = i
    return None if pick is None else _record(fields[pick - 1], fields[pick])


def parse_records(line: str) -> tuple[list, int]:
    """Every (node name, min, max) on one line and how many range fields failed to parse.
    TensorFlow's Print kernel writes its message and the newline as two writes to stderr, so
    two Print ops running at once can leave both messages on one line; TF's own reader keeps
    only the last of them, we keep both."""
    fields = line.split(";")
    found, bad = [], 0
    for i in range(1, len(fields)):
        if fields[i].startswith(FIELD):
            rec = _record(fields[i - 1], fields[i])
            if rec is None:
                bad += 1
            else:
                found.append(rec)
    return found, bad


def parse_log(text: str) -> RangeLog:
    log = RangeLog({})
    for line in text.split("\n"):
        if MARKER not in line:
            continue
        log.lines_read += 1
        found, bad = parse_records(line)
        if bad or not found:
            log.lines_skipped += 1
        for rec in found:
            log.records.setdefault(rec[0], []).append((rec[1], rec[2]))
    return log


def percentile_range(pairs: list, min_percentile: float = 5.0,
                     max_percentile: float = 5.0) -> tuple[float, float]:
    """TF's choice of (min, max) for one node from all its logged pairs."""
    mins = sorted(np.float32(p[0]) for p in pairs)
    maxs = sorted(np.float32(p[1]) for p in pairs)
    n = np.float32(len(pairs))
    hundred = np.float32(100.0)
    lo_f = n * (np.float32(min_percentile) / hundred)
    hi_f = n * (np.float32(1.0) - np.float32(max_percentile) / hundred)
    lo_i = max(int(math.floor(float(np.float32(lo_f)) + 0.5)), 0)
    hi_i = min(int(math.floor(float(np.float32(hi_f)) + 0.5)), len(pairs) - 1)
    return float(mins[lo_i]), float(maxs[hi_i])


def range_warnings(ranges: dict, wide_factor: float = 10.0) -> list:
    """Ranges that miss zero, are empty, or are far wider than the others."""
    out = []
    widths = sorted(hi - lo for lo, hi in ranges.values())
    median = widths[len(widths) // 2] if widths else 0.0
    for name, (lo, hi) in ranges.items():
        if lo == hi:
            out.append(f"{name}: min == max ({lo:g}); quantization has no resolution here")
        elif lo > 0 or hi < 0:
            out.append(f"{name}: range [{lo:g}, {hi:g}] does not contain zero")
        if median > 0 and hi - lo > wide_factor * median:
            out.append(f"{name}: range {hi - lo:g} wide, {wide_factor:g}x the median "
                       f"({median:g}); outliers waste precision")
    return out
