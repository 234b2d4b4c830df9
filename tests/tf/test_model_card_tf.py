"""The model card: layers as defined in code, plain words for inputs and outputs, and the same
figures as the Summary and Preview panels; `explain` on the command line.

This file holds the tests that need TensorFlow (an oracle, a model built or run by it); the
others are in tests/core/test_model_card.py, tests/cli/test_model_card_cli.py."""

import os

import pytest

from inspector.core.analysis import model_card as mc
from inspector.core.loaders import load


def test_the_card_agrees_with_the_summary_and_the_preview_panel(fx):
    """Learned numbers = the Summary panel's parameters; FLOPs and per-device times = the
    Preview panel's metrics of the original graph (compute_metrics)."""
    from inspector.cli.explain import card_for
    from inspector.core.analysis.metrics import compute_metrics
    from inspector.core.analysis.summary import summarize

    model = load(os.path.join(fx, "mobilenet_v2.pb"))
    card = card_for(model)
    summary = summarize(model.graph)
    metrics = compute_metrics(model.graph.graph_def)
    assert card.fact("learned numbers").value == \
        summary.const_parameters + summary.variable_parameters == \
        metrics.const_parameters + metrics.variable_parameters
    assert card.fact("size as float").value == 4 * card.fact("learned numbers").value
    assert card.fact("arithmetic").value == metrics.flops.total > 0
    phone = card.fact("speed on typical phone").value
    assert phone == pytest.approx(metrics.latency_ms["phone"])
    assert card.fact("speed on 2016 high-end phone").value == \
        pytest.approx(metrics.latency_ms["phone-2016"])
    assert card.inputs[0].plain == "a 224x224 colour photo"
    assert card.outputs[0].plain.startswith("1,000 ")
    assert card.layer_kinds["convolution"] == sum(
        n for op, n in summary.op_counts.items() if op in mc.LAYER_OPS["convolution"])
    assert all(f.definition for f in card.facts)
