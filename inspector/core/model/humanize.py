"""Number formatting: TF's HumanReadableNum, byte sizes, and libstdc++'s std::sort order."""

from __future__ import annotations

import functools


def tf_human_readable_num(value: int) -> str:
    """strings::HumanReadableNum from TensorFlow: 16 -> '16', 1234 -> '1.23k'."""
    sign = ""
    if value < 0:
        sign, value = "-", -value
    if value < 1000:
        return f"{sign}{value}"
    if value >= 10 ** 15:
        return sign + "%0.3G" % float(value)
    units = "kMBT"
    unit = 0
    while value >= 1_000_000:
        value //= 1000
        unit += 1
    return f"{sign}{value / 1000.0:.2f}{units[unit]}"


def human_bytes(n: float) -> str:
    """Bytes in binary units, as `ls -lh` counts them (1 KB = 1024 B): the unit chosen
    after rounding, so 1,048,575 bytes read "1.0 MB", not "1024.0 KB"."""
    for unit in ("B", "KB", "MB", "GB"):
        shown = round(n) if unit == "B" else round(n, 1)
        if abs(shown) < 1024 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024.0
    return f"{n:.1f} GB"


def milliseconds(ms: float) -> str:
    """A duration in plain digits, never scientific notation: 0.42 ms, 13.7 ms, 1,150 ms."""
    if ms < 10:
        return f"{ms:.2f} ms"
    if ms < 100:
        return f"{ms:.1f} ms"
    return f"{ms:,.0f} ms"


def latency(ms: float) -> str:
    """An estimated time, readable at any size: "13.7 ms", "0.42 ms", under 0.1 ms in
    microseconds ("24.6 µs", "0.35 µs"): a tiny model's estimate read "0.0 ms"."""
    if ms >= 0.1 or ms <= 0:
        return milliseconds(ms) if ms > 0 else "0 ms"
    return f"{ms * 1000:.3g} µs"


def cpp_std_sort(items: list, less) -> list:
    """The order libstdc++'s (unstable) std::sort gives, for exact reproduction of TF output.

    Introsort with median-of-three pivots and a final insertion sort, threshold 16.
    """
    a = list(items)
    n = len(a)
    if n < 2:
        return a

    def move_median_to_first(result, x, y, z):
        if less(a[x], a[y]):
            if less(a[y], a[z]):
                pick = y
            elif less(a[x], a[z]):
                pick = z
            else:
                pick = x
        elif less(a[x], a[z]):
            pick = x
        elif less(a[y], a[z]):
            pick = z
        else:
            pick = y
        a[result], a[pick] = a[pick], a[result]

    def unguarded_partition(first, last, pivot):
        while True:
            while less(a[first], a[pivot]):
                first += 1
            last -= 1
            while less(a[pivot], a[last]):
                last -= 1
            if not first < last:
                return first
            a[first], a[last] = a[last], a[first]
            first += 1

    def introsort(first, last, depth):
        while last - first > 16:
            if depth == 0:
                a[first:last] = sorted(a[first:last], key=_cmp_key(less))  # heapsort fallback
                return
            depth -= 1
            mid = first + (last - first) // 2
            move_median_to_first(first, first + 1, mid, last - 1)
            cut = unguarded_partition(first + 1, last, first)
            introsort(cut, last, depth)
            last = cut

    def linear_insert(i):
        val = a[i]
        j = i - 1
        while less(val, a[j]):
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = val

    def insertion_sort(first, last):
        for i in range(first + 1, last):
            if less(a[i], a[first]):
                val = a[i]
                a[first + 1:i + 1] = a[first:i]
                a[first] = val
            else:
                linear_insert(i)

    introsort(0, n, 2 * (n.bit_length() - 1))
    if n > 16:
        insertion_sort(0, 16)
        for i in range(16, n):
            linear_insert(i)
    else:
        insertion_sort(0, n)
    return a


def _cmp_key(less):
    return functools.cmp_to_key(lambda x, y: -1 if less(x, y) else (1 if less(y, x) else 0))


def count(n: int, word: str, plural: str | None = None) -> str:
    """'1 node', '2 nodes', '0 nodes', '30,301 items': a number (thousands separated, as
    every other count the app shows) with its noun in the right form."""
    return f"{n:,} {word if n == 1 else plural or word + 's'}"
