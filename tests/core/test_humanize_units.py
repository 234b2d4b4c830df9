"""Byte sizes are shown in binary units (1 KB = 1024 B, as `ls -lh` counts) with the unit
chosen after rounding: a figure never reads "1024 B", "1024.0 KB" or "1024.0 MB" (1,048,575
bytes read "1024.0 KB", where `ls -lh` says 1.0M), and it is the size within half of its
last digit."""

from __future__ import annotations

import re

import pytest

from inspector.cli.sizes import _mb
from inspector.core.model.humanize import human_bytes

UNITS = {"B": 1, "KB": 1024, "MB": 1024 ** 2, "GB": 1024 ** 3}
EDGES = [0, 1, 1023, 1023.4, 1023.6, 1024, 1048524, 1048525, 1048575, 1048576,
         1073689395, 1073741823, 1073741824, 5 * 1024 ** 4]


@pytest.mark.parametrize("n", EDGES)
def test_human_bytes_shows_a_number_under_1024_of_its_unit_within_half_a_digit(n):
    text = human_bytes(n)
    number, unit = re.fullmatch(r"(-?[\d.]+) (B|KB|MB|GB)", text).groups()
    scale = UNITS[unit]
    assert float(number) < 1024 or unit == "GB", text
    step = 1 if unit == "B" else 0.1
    assert abs(float(number) * scale - n) <= step / 2 * scale + 1e-9, text


@pytest.mark.parametrize("n", EDGES[:11])
def test_the_sizes_commands_figures_never_read_1024_kb(n):
    text = _mb(int(n))
    number, unit = re.fullmatch(r"([\d,.]+) (B|KB|MB)", text).groups()
    assert float(number.replace(",", "")) < 1024, text
