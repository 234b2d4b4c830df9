"""The plain-language glossary (issue #14): Tier 1 sentences are ours and free of jargon,
every op of the test corpus has one or a category's, Tier 2 comes from TensorFlow's op
registry (the shipped data file equals what the installed TensorFlow says), and scope
captions say what a block does from its op mix.

This file holds the tests that need TensorFlow (an oracle, a model built or run by it); the
others are in tests/core/test_glossary.py."""

from __future__ import annotations

import os

import pytest
from conftest import DEMO

from inspector.core.analysis import glossary
from inspector.core.loaders import load
from inspector.core.model.op_categories import category

CORPUS = ["inception_jpeg.pb", "mobilenet_v2.pb", "v1_training.pb", "while_v1.pb",
          "while_v2.pb", "speech_commands.pb"]


def test_every_op_of_the_test_corpus_has_a_sentence_or_its_category_s(fx):
    ops = {n.op for name in CORPUS for n in load(os.path.join(fx, name)).graph}
    ops |= {n.op for n in load(DEMO).graph}
    missing = [op for op in sorted(ops) if not glossary.has_plain(op) and
               category(op) not in glossary.FALLBACK]
    assert not missing
    assert sum(glossary.has_plain(op) for op in ops) >= 0.9 * len(ops)
    for op in ops:
        tech = glossary.technical(op)
        assert tech and tech.startswith(f"{op}("), op


def test_the_shipped_facts_are_the_installed_tensorflow_s():
    pytest.importorskip("tensorflow")
    import importlib.util

    from tensorflow.python.framework import op_def_registry

    spec = importlib.util.spec_from_file_location(
        "make_op_facts", os.path.join(os.path.dirname(__file__), "..", "..", "tools",
                                      "make_op_facts.py"))
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    import tensorflow as tf

    assert glossary.facts_version() == tf.__version__
    for op in ("Conv2D", "MatMul", "FusedBatchNormV3", "DecodeJpeg", "Mfcc", "Switch",
               "QuantizedConv2D", "ResizeBilinear", "StridedSlice", "While", "_FusedConv2D",
               "DepthwiseConv2dNative", "AudioSpectrogram", "Relu6", "Softmax", "ConcatV2",
               "Placeholder", "Const", "NonMaxSuppressionV3", "TopKV2"):
        assert glossary.op_facts(op) == tool.op_facts(op_def_registry.get(op)), op
