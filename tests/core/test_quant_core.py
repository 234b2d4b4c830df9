"""Quantization evidence without TensorFlow: the error metrics (summed over runs equal one
numpy computation on the concatenated tensors), the data-free weight statistics, Spearman's
rank correlation, the keep-float regex, the Pareto front and the quant_error overlay."""

from __future__ import annotations

import math
import re
from types import SimpleNamespace

import numpy as np
import pytest

from inspector.core.app.quantization import QuantRun, Tried, _merge, keep_float_regex
from inspector.core.mobile import quant_metrics as qm
from inspector.core.mobile import sensitivity as sens
from inspector.core.mobile.recipes import (
    RecipeReport,
    RecipeResult,
    check_names,
    pareto,
    recipe_entries,
)


def test_summed_metrics_equal_numpy_on_the_concatenated_tensors():
    rng = np.random.default_rng(1)
    refs = [rng.normal(size=(1, 7, 5)).astype(np.float32) for _ in range(3)]
    gots = [r + rng.normal(scale=0.05, size=r.shape).astype(np.float32) for r in refs]
    sums = qm.Sums()
    for r, g in zip(refs, gots):
        sums.add(r, g)
    a = np.concatenate([r.ravel() for r in refs]).astype(np.float64)
    b = np.concatenate([g.ravel() for g in gots]).astype(np.float64)
    m = sums.metrics()
    assert m["mse"] == pytest.approx(np.mean((a - b) ** 2), rel=1e-12)
    assert m["snr_db"] == pytest.approx(10 * np.log10((a @ a) / ((a - b) @ (a - b))), rel=1e-12)
    assert m["cosine"] == pytest.approx(a @ b / np.linalg.norm(a) / np.linalg.norm(b), rel=1e-12)
    assert m["max_abs"] == pytest.approx(np.max(np.abs(a - b)), rel=1e-12)
    exact = qm.metrics(a, a)
    assert exact["snr_db"] == math.inf and exact["cosine"] == pytest.approx(1.0)
    assert qm.metrics(np.zeros(3), np.zeros(3))["cosine"] == 1.0
    with pytest.raises(ValueError):
        sums.add(np.zeros(3), np.zeros(4))
    assert qm.plain(math.inf) is None and qm.plain(2.0) == 2.0


def test_per_tensor_worst_first_and_mapped_to_nodes():
    good, bad = qm.Sums(), qm.Sums()
    good.add([1.0, 2.0], [1.0, 2.01])
    bad.add([1.0, 2.0], [1.5, 2.5])
    found = qm.per_tensor({"a/Relu;a/Conv2D": good, "b/Relu": bad}, {"b/Relu": "CONV_2D"},
                          {"b/Relu": "int8"}, {"a/Relu", "a/Conv2D", "b/Relu"})
    assert [e.tensor for e in found] == ["b/Relu", "a/Relu;a/Conv2D"]
    assert found[0].op == "CONV_2D" and found[0].dtype == "int8"
    assert found[1].nodes == ["a/Relu", "a/Conv2D"]
    assert set(qm.node_errors(found)) == {"a/Relu", "a/Conv2D", "b/Relu"}


def test_weight_statistics_and_rank_correlation():
    rng = np.random.default_rng(2)
    normal = rng.normal(size=20000)
    kurt, spread, outliers = sens.statistics(normal)
    assert kurt == pytest.approx(3.0, abs=0.15)                # a normal's kurtosis
    assert outliers == pytest.approx(0.0027, abs=0.0015)       # beyond 3 sigma
    c = normal - normal.mean()
    assert spread == pytest.approx((normal.max() - normal.min()) / np.sqrt(np.mean(c ** 2)))
    heavy = rng.standard_t(3, size=20000)
    assert sens.statistics(heavy)[0] > kurt
    assert sens.statistics([1.0, 1.0, 1.0]) == (0.0, 0.0, 0.0)
    assert list(sens.ranks([10, 20, 20, 5])) == [2.0, 3.5, 3.5, 1.0]
    assert sens.rank_correlation([1, 2, 3, 4], [10, 20, 30, 40]) == pytest.approx(1.0)
    assert sens.rank_correlation([1, 2, 3, 4], [4, 3, 2, 1]) == pytest.approx(-1.0)
    x, y = rng.normal(size=30), rng.normal(size=30)
    rx, ry = np.argsort(np.argsort(x)), np.argsort(np.argsort(y))
    assert sens.rank_correlation(x, y) == pytest.approx(np.corrcoef(rx, ry)[0, 1])


def test_recipe_names_regexes_and_the_pareto_front():
    assert check_names(["int8", "int4-blockwise"]) == ["int8", "int4-blockwise"]
    with pytest.raises(Exception, match="unknown recipe 'int9'"):
        check_names(["int9"])
    with pytest.raises(Exception, match="not a regular expression"):
        check_names(["int8"], "conv[")
    entries = recipe_entries("int8", "^a$")
    assert entries[-1] == {"regex": "^a$", "operation": "*", "algorithm_key": "no_quantize"}
    assert recipe_entries("float", "x") == []                  # TF's converter: no scope
    regex = keep_float_regex("conv/Relu;conv/Conv2D")
    regex = keep_float_regex("b/Relu", regex)
    # matched as ai-edge-quantizer matches: in the op's scope, tensor names + ";"
    assert re.search(regex, "conv/Relu;conv/Conv2D;") and re.search(regex, "b/Relu;")
    assert not re.search(regex, "mixed/conv/Relu;mixed/conv/Conv2D;")   # whole names only
    assert not re.search(regex, "b/Relu_1;")
    rows = [RecipeResult("a", model=b"x", size=10, output={"mse": 0.1}),
            RecipeResult("b", model=b"x", size=20, output={"mse": 0.01}),
            RecipeResult("c", model=b"x", size=30, output={"mse": 0.05})]
    assert pareto(rows) == ["a", "b"]
    tried = QuantRun(RecipeReport(rows), tried=(Tried("a", "", 10, 0.1, 10.0),
                                                Tried("c", "", 30, 0.05, 13.0)))
    assert [p.recipe for p in tried.pareto()] == ["a", "c"]
    assert Tried("int8", "^a$|^b$", 1, 0.0, 0.0).label == "int8 +2 float"


def test_a_rerun_merges_and_the_overlay_colours_the_chosen_recipe():
    from inspector.core.overlays import quant_error, registry

    def row(recipe, keep, nsr):
        err = qm.TensorError("n/Relu", "CONV_2D", ["n/Relu"], nsr=nsr, snr_db=-10 *
                             math.log10(nsr))
        return RecipeResult(recipe, keep_float=keep, model=f"{recipe}{keep}".encode(), size=5,
                            output={"mse": nsr, "snr_db": 1.0}, tensors=[err])

    run = _merge(None, RecipeReport([row("int8", "", 1e-2), row("dynamic", "", 1e-4)]))
    assert run.chosen == ("int8", "") and len(run.tried) == 2      # the worst one shown
    run = _merge(run, RecipeReport([row("int8", "^n/Relu;", 1e-5)]))
    assert run.chosen == ("int8", "^n/Relu;") and len(run.tried) == 3
    assert len(run.report.results) == 3
    state = SimpleNamespace(quant=run, visible_id=lambda n: n,
                            overlay=SimpleNamespace(mode="quant_error"))
    overlay = registry.get("quant_error")
    assert overlay.has_data(state) and overlay.values(state) == {"n/Relu": 1e-5}
    badges: dict = {}
    heat, _ = quant_error.paint(state, {"n/Relu": None, "other": None}, badges)
    assert badges == {"n/Relu": "50 dB"} and set(heat) == {"n/Relu"}
    assert "int8" in overlay.legend(state) and len(overlay.key(state)) == 4


def test_the_sensitivity_overlay_colours_the_weighted_layers():
    from inspector.core.overlays import registry, sensitivity

    found = [sens.LayerSensitivity("a/Conv2D", "Conv2D", "a/w", 9, 4.0, 5.0, 0.01),
             sens.LayerSensitivity("b/MatMul", "MatMul", "b/w", 9, 2.0, 3.0, 0.0)]
    state = SimpleNamespace(quant=QuantRun(RecipeReport([]), sensitivity=found),
                            visible_id=lambda n: n)
    overlay = registry.get("sensitivity")
    assert overlay.has_data(state) and overlay.values(state) == {"a/Conv2D": 4.0,
                                                                 "b/MatMul": 2.0}
    badges: dict = {}
    heat, _ = sensitivity.paint(state, {"a/Conv2D": None, "b/MatMul": None}, badges)
    assert badges == {"a/Conv2D": "κ 4.0", "b/MatMul": "κ 2.0"}
    assert heat["a/Conv2D"] != heat["b/MatMul"] and len(overlay.key(state)) == 4
    assert not overlay.has_data(SimpleNamespace(quant=None))


def test_a_file_another_recipe_made_is_no_point_of_its_own():
    """int4-blockwise on a model without FULLY_CONNECTED is dynamic's file byte for byte:
    its row says so and the chart has one point for the two (a rerun merged in too)."""
    dyn = RecipeResult("dynamic", model=b"same", size=4, output={"mse": 0.1})
    int4 = RecipeResult("int4-blockwise", model=b"same", size=4, output={"mse": 0.1},
                        ops={"CONV_2D": 2})
    run = _merge(None, RecipeReport([dyn]))
    run = _merge(run, RecipeReport([int4]))
    assert [p.recipe for p in run.tried] == ["dynamic"]
    row = run.row(("int4-blockwise", ""))
    assert row.same_as == "dynamic"
    assert "byte-identical to dynamic's file: the model has no FULLY_CONNECTED" in row.note
