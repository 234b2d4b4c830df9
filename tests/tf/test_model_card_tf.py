"""The model card: layers as defined in code, plain words for inputs and outputs, and the same
figures as the Summary and Preview panels; `explain` on the command line.

This file holds the tests that need TensorFlow (an oracle, a model built or run by it); the
others are in tests/core/test_model_card.py, tests/cli/test_model_card_cli.py."""

import os

import pytest

from inspector.core.analysis import model_card as mc
from inspector.core.loaders import load


def test_the_card_agrees_with_the_summary_and_the_preview_panel(fx):
    """Learned numbers = the Summary panel's parameters less what is not learned (shapes,
    axes, single numbers: 86 here); FLOPs and per-device times = the Preview panel's metrics
    of the original graph (compute_metrics)."""
    from inspector.cli.explain import card_for
    from inspector.core.analysis.metrics import compute_metrics
    from inspector.core.analysis.summary import summarize

    model = load(os.path.join(fx, "mobilenet_v2.pb"))
    card = card_for(model)
    summary = summarize(model.graph)
    metrics = compute_metrics(model.graph.graph_def)
    assert card.fact("learned numbers").value + 86 == \
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


def _frozen_keras(name: str):
    import tensorflow as tf
    from tensorflow.python.framework.convert_to_constants import (
        convert_variables_to_constants_v2,
    )

    from inspector.core.model import protos

    model = getattr(tf.keras.applications, name)(weights=None, input_shape=(224, 224, 3))
    fn = tf.function(lambda x: model(x, training=False)).get_concrete_function(
        tf.TensorSpec([1, 224, 224, 3], tf.float32, name="input"))
    return model, protos.GraphDef.FromString(
        convert_variables_to_constants_v2(fn).graph.as_graph_def().SerializeToString())


def test_learned_numbers_are_what_keras_count_params_says(fx):
    """The card's learned numbers of a Keras model frozen into a GraphDef are its
    count_params(): MobileNetV3Small 2,554,968 (the card said 2.56 million: every constant's
    elements, 2,555,194, with its shapes and the 3s and 6s of hard-swish), MobileNetV2
    3,538,984, also as the fixtures' mobilenet_v2.pb. A TF1 graph with variables
    (v1_training.pb): the elements of the variables its .meta lists, not their initial
    values again nor the training part's constants."""
    import tensorflow as tf

    from inspector.core.analysis.summary import summarize
    from inspector.core.model.graph import Graph

    for name in ("MobileNetV3Small", "MobileNetV2"):
        model, gd = _frozen_keras(name)
        graph = Graph(gd)
        made = mc.build_card(graph, summarize(graph))
        assert made.fact("learned numbers").value == model.count_params(), name
        assert made.fact("size as float").value == 4 * model.count_params()
    assert model.count_params() == 3_538_984
    fixture = load(os.path.join(fx, "mobilenet_v2.pb")).graph
    assert mc.build_card(fixture, summarize(fixture)).fact("learned numbers").value == \
        3_538_984
    with tf.Graph().as_default():
        tf.compat.v1.train.import_meta_graph(os.path.join(fx, "v1_training.meta"))
        declared = sum(v.shape.num_elements() for v in tf.compat.v1.global_variables())
    v1 = load(os.path.join(fx, "v1_training.pb")).graph
    assert mc.build_card(v1, summarize(v1)).fact("learned numbers").value == declared == 5234


class _Engine:
    """A preview engine that notes whether the card asked it for TF's shapes."""

    def __init__(self, graph_def):
        from inspector.core.app import demo

        self.here, self.asked = demo.engine_here(graph_def), []

    def card_shapes(self, *args):
        self.asked.append(args)
        return self.here.card_shapes(*args)


def test_the_card_counts_from_the_graphs_own_shapes_and_equals_tf(fx, monkeypatch):
    """A graph whose own shapes give every counted op its shapes (MobileNet v2, batch open):
    the card asks TensorFlow nothing (its inference took 75 s and 6.2 GB on a 1M-node graph)
    and its figures are TF's: FLOPs, assumptions, every port's shape."""
    from inspector.core.analysis.metrics import flop_report
    from inspector.core.app import card as card_module, own_count
    from inspector.core.app.card import card

    model = load(os.path.join(fx, "mobilenet_v2.pb"))
    engine = _Engine(model.graph.graph_def)
    own = card(model, engine)
    assert engine.asked == []
    assert "without TensorFlow" in own.flops.source
    assert "without TensorFlow" in own.card.fact("arithmetic").definition
    tf = flop_report(model.graph.graph_def)
    assert own.flops.total == tf.total > 0 and own.flops.tf_total == tf.tf_total
    assert own.flops.per_node == tf.per_node
    assert own.flops.assumed == tf.assumed
    real = own_count.own_count                                # TF's way, for the same card
    monkeypatch.setattr(card_module, "own_count",
                        lambda *args: real(*args)._replace(usable=False))
    forced = card(model, engine, summary=own.summary)
    assert len(engine.asked) == 1 and forced.flops.source.startswith("TensorFlow")
    assert [(p.name, p.shape, p.plain) for p in forced.card.inputs + forced.card.outputs] == \
        [(p.name, p.shape, p.plain) for p in own.card.inputs + own.card.outputs]
    assert [f.text for f in forced.card.facts] == [f.text for f in own.card.facts]


def test_a_graph_whose_own_shapes_leave_ops_unknown_asks_tf_and_says_so(tmp_path):
    """An op the graph's own shapes have no rule for (SpaceToDepth) leaves the convolution
    after it unknown: the card counts with TF's shapes, says why TF was needed, and counts
    what TF counts."""
    import numpy as np
    import tensorflow as tf

    from inspector.core.analysis.metrics import flop_report
    from inspector.core.app.card import card

    graph = tf.Graph()
    with graph.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [None, 8, 8, 3], name="x")
        packed = tf.nn.space_to_depth(x, 2, name="packed")
        weights = tf.constant(np.ones((3, 3, 12, 4), np.float32), name="w")
        tf.nn.relu(tf.nn.conv2d(packed, weights, 1, "SAME"), name="out")
    path = str(tmp_path / "packed.pb")
    with open(path, "wb") as f:
        f.write(graph.as_graph_def().SerializeToString())
    model = load(path)
    engine = _Engine(model.graph.graph_def)
    made = card(model, engine)
    assert len(engine.asked) == 1
    assert made.flops.source.startswith("TensorFlow's shape inference (the graph's own "
                                        "shapes leave ") and "ops unknown" in made.flops.source
    assert "TensorFlow's shape inference" in made.card.fact("arithmetic").definition
    assert made.flops.total == flop_report(model.graph.graph_def).total >= 2 * 4 * 4 * 4 * 108
