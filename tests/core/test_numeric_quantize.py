"""Feeding a quantized .tflite side of a numeric comparison (compare.numeric.quantize)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from inspector.core.compare.numeric import quantize


@pytest.mark.parametrize("scale", [0.0, -1.0, float("nan")])
def test_a_scale_that_is_not_positive_makes_no_numpy_warning(scale):
    """hostile15b: diff --numeric of an int8 .tflite whose input scale is 0 printed numpy's
    'RuntimeWarning: invalid value encountered in cast' (and its source line) above the
    one-line refusal (LiteRT is not given such a model)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = quantize(np.ones((2, 3), np.float32), ("int8", scale, 5))
    assert out.dtype == np.int8 and (out == 5).all()


def test_a_positive_scale_quantizes_as_before():
    out = quantize(np.array([0.0, 1.0, -1.0, 100.0], np.float32), ("int8", 0.5, 1))
    assert out.tolist() == [1, 3, -1, 127]
