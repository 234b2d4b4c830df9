"""The preview engine without Qt: numbers equal compute_metrics of the same pipeline, rows
handed out never change, caches are keyed by what made each graph and stay bounded.

This file holds the tests that need neither TensorFlow nor Qt; the others are in
tests/tf/test_preview_tf.py."""

from __future__ import annotations

import dataclasses
import os

import pytest

from inspector.core.analysis.metrics import compute_metrics
from inspector.core.app import preview as preview_module
from inspector.core.app.preview import PreviewEngine
from inspector.core.loaders import load
from inspector.core.runtime.job import Job
from inspector.core.transforms import parse_transforms, run_pipeline

PIPELINE = ('strip_unused_nodes(type=float, shape="1,299,299,3") '
            "remove_nodes(op=Identity, op=CheckNumerics) fold_old_batch_norms quantize_weights")


@pytest.fixture(scope="module")
def graph_def(data):
    return load(os.path.join(data, "inception_jpeg.pb")).graph.graph_def


def test_every_number_equals_the_metrics_of_the_same_pipeline(graph_def):
    engine = PreviewEngine(graph_def)
    rows = engine.run(parse_transforms(PIPELINE), ["Mul"], ["softmax"],
                      {"Mul": (1, 299, 299, 3)})
    reports = run_pipeline(graph_def, PIPELINE, ["Mul"], ["softmax"])
    assert [r.label.split("(")[0] for r in rows[1:]] == [r.spec.name for r in reports]
    for row, report in zip(rows[1:], reports):
        expected = compute_metrics(report.graph_def, {"Mul": (1, 299, 299, 3)})
        m = row.metrics
        assert (m.node_count, m.serialized_bytes, m.gzip_bytes, m.const_parameters,
                m.flops.total) == (expected.node_count, expected.serialized_bytes,
                                   expected.gzip_bytes, expected.const_parameters,
                                   expected.flops.total)


def test_rows_handed_out_never_change(graph_def):
    seen = []
    engine = PreviewEngine(graph_def)
    engine.run(parse_transforms(PIPELINE), ["Mul"], ["softmax"], {"Mul": (1, 299, 299, 3)},
               job=Job(on_partial=lambda rows: seen.append([(r, r.metrics) for r in rows])))
    assert len(seen) >= 3
    for snapshot in seen:
        for row, metrics in snapshot:
            assert row.metrics is metrics  # a row given away is never updated in place
    with pytest.raises(dataclasses.FrozenInstanceError):
        seen[0][0][0].metrics = None


def test_an_edit_reuses_the_unchanged_prefix_and_the_cache_stays_bounded(graph_def,
                                                                      monkeypatch):
    calls = []
    real = preview_module.run_step
    monkeypatch.setattr(preview_module, "run_step",
                        lambda g, spec, *a: calls.append(spec.name) or real(g, spec, *a))
    engine = PreviewEngine(graph_def)
    engine.run(parse_transforms("remove_device sort_by_execution_order"), ["Mul"], ["softmax"],
               with_flops=False)
    engine.run(parse_transforms("remove_device sort_by_execution_order round_weights"),
               ["Mul"], ["softmax"], with_flops=False)
    assert calls == ["remove_device", "sort_by_execution_order", "round_weights"]
    for k in range(30):  # many different pipelines: old prefixes are forgotten
        engine.run(parse_transforms(f"round_weights(num_steps={k + 2})"), ["Mul"],
                   ["softmax"], with_flops=False)
    assert engine.cached_prefixes() <= preview_module.KEEP_OTHER_PREFIXES + 1


def test_a_failing_step_is_a_row_with_its_error_and_the_rest_waits(graph_def):
    rows = PreviewEngine(graph_def).run(parse_transforms("remove_device rename_op "
                                                         "sort_by_execution_order"),
                                        ["Mul"], ["softmax"], with_flops=False)
    assert [r.error != "" for r in rows] == [False, False, True]
    assert "old_op_name" in rows[-1].error
