"""The figures of one compared pair (computed where both models ran: the worker, in the app)."""

import math

import numpy as np

from inspector.core.model.tensor_error import compared, metrics


def test_metrics_are_the_textbook_figures():
    rng = np.random.default_rng(0)
    x = rng.standard_normal(1000).astype(np.float32)
    y = x + 0.01 * rng.standard_normal(1000).astype(np.float32)
    m = metrics(x, y)
    err = y.astype(np.float64) - x
    assert math.isclose(m["mse"], float(np.mean(err ** 2)), rel_tol=1e-9)
    assert math.isclose(m["snr_db"], 10 * math.log10(float(np.sum(x.astype(float) ** 2)) /
                                                     float(np.sum(err ** 2))), rel_tol=1e-9)
    assert math.isclose(m["cosine"], float(x @ y / np.linalg.norm(x) / np.linalg.norm(y)),
                        rel_tol=1e-6)
    assert math.isclose(m["peak_rel_error"], float(np.abs(err).max() / np.abs(x).max()),
                        rel_tol=1e-9)
    assert metrics(x, x)["snr_db"] == math.inf and metrics(x, x)["cosine"] == 1.0
    zeros = metrics(x, np.zeros_like(x))             # an int8 softmax that rounds to zero
    assert zeros["cosine"] == 0.0 and math.isclose(zeros["snr_db"], 0.0, abs_tol=1e-12)


def test_pairs_that_cannot_be_compared_say_why():
    a = np.ones((1, 10), np.float32)
    assert compared(a, np.ones((1, 1, 1, 10)), same_size=False).startswith("shapes differ")
    assert isinstance(compared(a, np.ones((1, 1, 1, 10)), same_size=True), dict)  # .tflite
    assert compared(a, None) == "not kept by the interpreter"
    assert compared(np.array([b"x"]), np.array([b"y"])).startswith("not numbers")


def test_the_two_relative_errors_have_two_names_and_one_formula_each():
    """'max relative error' meant the largest per-element |B - A| / |A| in `check` and
    max|B - A| / max|A| in the numeric comparison (note13's leftover). The comparison's is
    now the peak-relative error, everywhere it is said; `check` keeps max relative error.
    On a = [100, 1], b = [100, 2]: numpy's per-element maximum is 1.0, the peak-relative
    error 0.01."""
    from inspector.core.analysis.numeric_check import compare
    from inspector.core.compare.numeric import Divergence
    from inspector.core.compare.numeric_report import numeric_html

    a, b = np.array([100.0, 1.0]), np.array([100.0, 2.0])
    per_element = float(np.max(np.abs(b - a) / np.abs(a)))
    assert compare(a, b, "y").max_rel_error == per_element == 1.0
    peak = metrics(a, b)
    assert "max_rel_error" not in peak
    assert peak["peak_rel_error"] == float(np.max(np.abs(b - a)) / np.max(np.abs(a))) == 0.01
    d = Divergence(first="n", per_node={"n": {**peak, "snr_db": 40.0}}, pairs=[("n", "n")])
    assert "peak-relative error 0.001" in d.headline()
    page = numeric_html(d)
    assert "peak-relative error" in page and "max relative error" not in page


def test_a_run_where_every_value_is_equal_names_no_worst_node():
    """walk5: Run both on MobileNet v2 and its fold_constants step said 'no node past the
    threshold; worst: mobilenetv2_1.00_224_1/Conv1_1/convolution (SNR inf dB)': a 'worst'
    where nothing differs. It now says every compared value is equal; a finite worst stays."""
    from inspector.core.compare.numeric import Divergence

    same = {"snr_db": float("inf"), "peak_rel_error": 0.0}
    d = Divergence(per_node={"a": same, "b": same}, pairs=[("a", "a"), ("b", "b")])
    assert d.headline() == ("2 matched tensors compared; no node past the threshold; every "
                            "compared value equal")
    d.per_node["b"] = {"snr_db": 80.0, "peak_rel_error": 1e-5}
    assert d.headline().endswith("; worst: b (SNR 80.0 dB)")
