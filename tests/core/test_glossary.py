"""The plain-language glossary (issue #14): Tier 1 sentences are ours and free of jargon,
every op of the test corpus has one or a category's, Tier 2 comes from TensorFlow's op
registry (the shipped data file equals what the installed TensorFlow says), and scope
captions say what a block does from its op mix.

This file holds the tests that need neither TensorFlow nor Qt; the others are in
tests/tf/test_glossary_tf.py."""

from __future__ import annotations

import re

import pytest

from inspector.core.analysis import glossary
from inspector.core.model.op_categories import CATEGORIES

# words a product manager should not meet in a Tier 1 sentence
BANNED = ["tensor", "tensors", "kernel", "kernels", "logit", "logits", "gradient", "gradients",
          "stride", "strides", "epoch", "backprop", "backpropagation", "op", "ops", "node",
          "nodes", "dtype", "scalar", "matrix", "matrices", "vector", "vectors", "broadcast",
          "broadcasting", "quantize", "quantized", "placeholder", "float", "int", "int8",
          "bias", "softmax", "relu", "sigmoid", "tanh", "convolution", "convolutional",
          "activation", "activations", "batch norm", "batchnorm", "graph", "session",
          "feature map", "channel", "channels", "neuron", "neurons", "axis", "axes", "rank"]


def _sentences() -> dict:
    table = dict(glossary._plain_table())
    table.update({f"(fallback {k})": v for k, v in glossary.FALLBACK.items()})
    return table


def test_tier_one_covers_the_common_mobile_ops():
    table = glossary._plain_table()
    assert len(table) >= 90
    for op in ("Conv2D", "DepthwiseConv2dNative", "MatMul", "Relu6", "Softmax", "MaxPool",
               "FusedBatchNormV3", "DecodeJpeg", "DecodeWav", "AudioSpectrogram", "Mfcc",
               "QuantizeV2", "Dequantize", "Switch", "Merge", "Reshape", "ConcatV2"):
        assert glossary.has_plain(op), op
    assert glossary.plain("Conv2D").startswith("Slides many small pattern detectors")


@pytest.mark.parametrize("word", BANNED)
def test_no_tier_one_sentence_uses_jargon(word):
    pattern = re.compile(rf"\b{re.escape(word)}\b", re.IGNORECASE)
    bad = [op for op, text in _sentences().items() if pattern.search(text)]
    assert not bad, f"'{word}' in the plain sentence of {bad}"


def test_every_category_has_a_fallback_and_no_sentence_is_empty():
    assert set(CATEGORIES) <= set(glossary.FALLBACK) | {"other"}
    assert all(text.strip().endswith(".") for text in _sentences().values())
    assert glossary.plain("SomeCustomOpNobodyKnows").startswith("A step called")


def test_tier_two_names_inputs_outputs_and_attributes():
    assert glossary.technical("Conv2D").startswith("Conv2D(input: T, filter: T) -> output: T")
    assert "strides" in glossary.technical("Conv2D")
    assert glossary.technical("ReadFile") == "ReadFile(filename: string) -> contents: string"
    assert "stateful" in glossary.technical("RandomUniform")
    assert glossary.technical("NoSuchOp") is None


@pytest.mark.parametrize("ops, repeat, words", [
    ({"Conv2D": 1, "FusedBatchNormV3": 1, "Relu6": 1, "Const": 4}, 13,
     "feature extractor block x13: pattern detection + normalisation + clipping"),
    ({"MatMul": 1, "BiasAdd": 1, "Softmax": 1}, 1, "classifier block: weighted mixing"),
    ({"DecodeJpeg": 1, "Cast": 1, "ResizeBilinear": 1, "Sub": 1}, 1, "input preparation"),
    ({"MaxPool": 1}, 1, "shrinking step block: shrinking"),
    ({"Switch": 2, "Merge": 1}, 1, "loop or branch block: flow control"),
])
def test_scope_captions_say_what_a_block_does(ops, repeat, words):
    assert glossary.scope_caption(ops, repeat).startswith(words)


@pytest.mark.parametrize("ops, name, words", [
    ({"Conv2D": 1, "FusedBatchNormV3": 1, "Relu": 1}, "Conv2d_1a_3x3",
     "feature extractor block: pattern detection + normalisation + keeping positive values"),
    ({"AvgPool": 1, "Conv2D": 1, "BiasAdd": 1, "Squeeze": 1}, "Logits", "classifier block"),
    ({"Softmax": 1, "Reshape": 2}, "Predictions", "classifier block"),
    ({"Conv2D": 1, "Sigmoid": 1, "Mul": 1}, "squeeze_excite", "feature extractor block"),
    ({"MatMul": 1, "Tanh": 1}, "dense", "dense layer block: weighted mixing + squeezing"),
])
def test_a_classifier_head_and_its_activations_are_named_in_plain_words(ops, name, words):
    caption = glossary.scope_caption(ops, 1, name)
    assert caption.startswith(words) and "switching" not in caption
