"""Timings and ranges against real TensorFlow: StatSummarizer tables, imports, calibration.

This file holds the tests that need neither TensorFlow nor Qt; the others are in
tests/tf/test_overlays_core_tf.py, tests/cli/test_overlays_core_cli.py."""

import os

import numpy as np

from inspector.core.loaders import load


def test_the_match_summary_never_claims_all_matched_when_some_did_not(data):
    from inspector.core.overlays.profiling import parse_benchmark_output

    text = ("============================== Run Order ==============================\n"
            "\t Conv2D\t 0.000\t 1.000\t 1.000\t 50.000%\t 50.000%\t 0.000\t 1\tconv/Conv2D\n"
            "\t Relu\t 0.000\t 1.000\t 1.000\t 50.000%\t 100.000%\t 0.000\t 1\tghost/Relu\n"
            "\t Relu\t x\t y\t z\t 1%\t 2%\t 0.0\t 1\tbroken\n")
    prof = parse_benchmark_output(text)
    prof.match(load(os.path.join(data, "inception_jpeg.pb")).graph)
    summary = prof.match_summary()
    assert summary.startswith("1 of 2 timed nodes matched the graph")
    assert "ghost/Relu" in summary and "1 table lines could not be read" in summary


def test_quality_hint_speaks_plainly():
    from inspector.core.analysis.numeric_check import compare
    from inspector.core.overlays.calibration import quality_hint

    a = np.array([[0.1, 0.9], [0.8, 0.2], [0.3, 0.7], [0.6, 0.4]])
    assert "good" in quality_hint([compare(a, a + 0.01, "probs")])
    b = a.copy()
    b[0] = [0.9, 0.1]
    assert "changes on 1 of 4 inputs" in quality_hint([compare(a, b, "probs")])
    b[1] = [0.2, 0.8]
    assert quality_hint([compare(a, b, "probs")]).startswith("probs: poor")
    x = np.linspace(0, 10, 20).reshape(20, 1)
    assert quality_hint([compare(x, x + 0.05, "box")]) == (
        "box: good. The largest difference is 0.5% of the float output's range.")
    assert "poor" in quality_hint([compare(x, x + 2, "box")])


def test_quality_hint_of_nan_eight_bit_answers_is_poor_and_says_how_many():
    """The calibration's verdict (the ranges overlay's comparison text, `calibrate --freeze`)
    on eight-bit answers that are NaN: a regression output's error of nan fell through to
    'acceptable'/'largest difference nan%' before; it is poor now, with the count."""
    from inspector.core.analysis.numeric_check import compare
    from inspector.core.overlays.calibration import quality_hint

    x = np.linspace(0, 10, 20).reshape(20, 1)
    y = x.copy()
    y[3] = np.nan
    said = quality_hint([compare(x, y, "box")])
    assert said == ("box: poor. 1 of 20 values NaN or infinite in the transformed graph's "
                    "output (0 in the original's); do not ship this as is."), said
    a = np.array([[0.1, 0.9], [0.8, 0.2]])
    assert quality_hint([compare(a, a * np.nan, "probs")]).startswith("probs: poor. 4 of 4")
