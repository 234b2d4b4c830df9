"""runtime/feed_budget: made-up inputs sized before anything is allocated, made in their own
dtype with the values one whole draw gave (drawn a piece at a time)."""

import numpy as np
import pytest

from inspector.core.errors import InspectorError
from inspector.core.runtime import feed_budget


def test_values_are_those_of_one_whole_draw_in_the_input_s_dtype(monkeypatch):
    monkeypatch.setattr(feed_budget, "CHUNK", 1000)      # several pieces per array
    for shape in [(1, 8, 8, 1), (3, 50, 70), (0, 4), ()]:
        for dtype in (np.float32, np.float64, np.float16, np.int8, np.uint8, np.int32,
                      np.bool_):
            made = feed_budget.random(np.random.default_rng(0), shape, dtype)
            rng = np.random.default_rng(0)
            whole = (rng.standard_normal(shape) if np.dtype(dtype).kind == "f" else
                     rng.integers(0, 2 if dtype is np.bool_ else 10, shape)).astype(dtype)
            assert made.dtype == np.dtype(dtype) and np.array_equal(made, whole), (shape, dtype)
        made = feed_budget.random(np.random.default_rng(0), shape, np.float32, 0, 0.9972)
        whole = np.random.default_rng(0).uniform(0, 0.9972, shape).astype(np.float32)
        assert np.array_equal(made, whole)


def test_a_size_past_the_limit_is_one_line_naming_the_input(monkeypatch):
    monkeypatch.setenv(feed_budget.LIMIT_ENV, "1")       # 1 GB
    feed_budget.check("image", [1, 224, 224, 3], "float32", 100)
    with pytest.raises(InspectorError) as e:
        feed_budget.check("image", [1, 1000, 1000, 3], "float32", 100)
    assert e.value.one_line() == (
        "node 'image': input sized [1,1000,1000,3] (float32): 100 samples need 1.1 GB "
        "(11.4 MB each), past the 1.0 GB that made-up inputs may take "
        "($INSPECTOR_FEED_MEMORY_GB); give a smaller size or fewer samples")
    with pytest.raises(InspectorError, match="a negative dimension"):
        feed_budget.check("x", [1, -3], "int8")


def test_several_inputs_are_sized_together_and_each_share_named(monkeypatch):
    """Two inputs that each fit but together pass the limit were allocated one after the
    other (each was checked alone): the total is checked, one line names every share."""
    monkeypatch.setenv(feed_budget.LIMIT_ENV, "1")       # 1 GB
    feed_budget.check_all([("a", [1, 224, 224, 3], "float32", 100),
                           ("b", [1, 10], "int32", 100)])
    with pytest.raises(InspectorError) as e:
        feed_budget.check_all([("image", [1, 700, 700, 3], "float32", 100),
                               ("mask", [1, 700, 700], "uint8", 100),
                               ("extra", [1, 700, 700, 3], "float32", 100)])
    assert e.value.one_line() == (
        "made-up inputs need 1.1 GB together, past the 1.0 GB that made-up inputs may take "
        "($INSPECTOR_FEED_MEMORY_GB): 'image' [1,700,700,3] (float32) 560.8 MB (100 "
        "samples), 'mask' [1,700,700] (uint8) 46.7 MB (100 samples), 'extra' [1,700,700,3] "
        "(float32) 560.8 MB (100 samples); give smaller sizes or fewer samples")
    with pytest.raises(InspectorError, match="node 'y': input sized .1,-2.: a negative"):
        feed_budget.check_all([("x", [1, 2], "int8", 1), ("y", [1, -2], "int8", 1)])


def test_a_limit_that_is_not_a_finite_number_falls_back_to_the_machine_s(monkeypatch):
    """INSPECTOR_FEED_MEMORY_GB=inf raised OverflowError out of every run with made-up inputs."""
    monkeypatch.delenv(feed_budget.LIMIT_ENV, raising=False)
    default = feed_budget.feed_limit()
    for text in ("inf", "-inf", "nan", "lots"):
        monkeypatch.setenv(feed_budget.LIMIT_ENV, text)
        assert feed_budget.feed_limit() == default


def test_an_input_of_more_dimensions_than_an_array_can_have_is_one_line():
    """Hostile-input run (hostile2): a .tflite whose input declares 5,000 dimensions of 1
    (4 bytes) passed the size check, and `diff m.tflite m.tflite --numeric` ended in a
    traceback from numpy: 'maximum supported dimension for an ndarray is currently 64'."""
    feed_budget.check_all([("x", [1] * 64, "float32", 1)])
    with pytest.raises(InspectorError) as err:
        feed_budget.check_all([("x", [1] * 5000, "float32", 1)])
    assert err.value.one_line() == ("node 'x': input of 5,000 dimensions: an array can have "
                                    "at most 64")


def test_numpy_1_s_dimension_limit_is_its_own(monkeypatch):
    """pyproject allows numpy 1.26, whose arrays have at most 32 dimensions: an input of 33-64
    passed the check there and ended in numpy's ValueError (the review's item)."""
    monkeypatch.setattr(np, "__version__", "1.26.4")
    feed_budget.check_all([("x", [1] * 32, "float32", 1)])
    with pytest.raises(InspectorError, match="at most 32"):
        feed_budget.check_all([("x", [1] * 33, "float32", 1)])
    monkeypatch.setattr(np, "__version__", "2.4.6")
    feed_budget.check_all([("x", [1] * 64, "float32", 1)])


def test_sizes_are_said_past_terabytes_as_numfmt_says_them(monkeypatch):
    """size_words stopped at TB: a declared [1,2147483647,2147483647,3] float32 input read
    "50331648.0 TB", and 64 dimensions of 2^31-1 raised OverflowError (int / int past a
    float's range) out of the size check. Units go on to EB, as `numfmt --to=iec
    --format=%.1f` says them (48.0E, 1.0P, 1.0M), and past 1024 EB as a power of ten."""
    words = feed_budget.size_words
    assert words(55340232169589047308) == "48.0 EB"           # numfmt: 48.0E
    assert words(1 << 50) == "1.0 PB" and words(1048575) == "1.0 MB"    # 1.0P, 1.0M
    assert words((1 << 40) - 1) == "1.0 TB" and words(1023) == "1023 bytes"
    assert words(1 << 70) == "about 10^21 bytes"
    monkeypatch.setattr(feed_budget, "max_dims", lambda: 64)
    with pytest.raises(InspectorError, match=r"one sample needs about 10\^597 bytes"):
        feed_budget.check("x", [2147483647] * 64, "int8")
    with pytest.raises(InspectorError, match="one sample needs 48.0 EB"):
        feed_budget.check("image", [1, 2147483647, 2147483647, 3], "float32")
