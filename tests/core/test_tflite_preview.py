"""Conversion preview on real models: four variants converted by TF's converter, run by a
TFLite interpreter and compared with TensorFlow; TFLite ops mapped back onto GraphDef nodes;
per-layer int8 error from TF's QuantizationDebugger; representative data from photos.

This file holds the tests that need neither TensorFlow nor Qt; the others are in
tests/tf/test_tflite_preview_tf.py, tests/cli/test_tflite_preview_cli.py."""

from __future__ import annotations

import numpy as np
import pytest

from inspector.core.errors import InspectorError
from inspector.core.mobile.tflite_mapping import map_model, nodes_of
from inspector.core.mobile.tflite_preview import compare


def test_nodes_of_joined_names():
    names = {"a/conv", "a/relu", "b"}
    assert nodes_of("a/relu;a/conv;a/bn/sub", names) == ["a/relu", "a/conv"]
    assert nodes_of("b:0", names) == ["b"] and nodes_of("tfl.quantize", names) == []
    layers = {"ops": [{"index": 0, "op": "QUANTIZE", "inputs": [0], "outputs": [1]},
                      {"index": 1, "op": "CONV_2D", "inputs": [1], "outputs": [2]}],
              "tensors": [{"index": 0, "name": "x", "scales": []},
                          {"index": 1, "name": "b", "scales": [0.1]},
                          {"index": 2, "name": "a/relu;a/conv", "scales": [0.2]}]}
    m = map_model(layers, names, {"a/relu;a/conv1": {"max_abs_error": 0.5}})
    assert [op.index for op in m.unmapped_ops] == [0]           # QUANTIZE maps to nothing
    assert m.ops[0].nodes == ["a/relu", "a/conv"] and m.ops[0].max_abs_error == 0.5
    assert m.merged == {"a/relu": 1, "a/conv": 1}


def test_compare_counts_top1_and_max_error():
    ref = [[np.array([0.1, 0.9])], [np.array([0.8, 0.2])]]
    got = [[np.array([0.2, 0.8])], [np.array([0.3, 0.7])]]
    top1, worst = compare(ref, got)
    assert top1 == 0.5 and worst == pytest.approx(0.5)


def test_measured_latency_from_benchmark_model_output():
    from inspector.core.mobile.tflite_preview import measured_latency_ms

    text = ("INFO: Running benchmark for at least 50 iterations\n"
            "INFO: Inference timings in us: Init: 2712, First inference: 9210, "
            "Warmup (avg): 8012.4, Inference (avg): 7804.25\n")
    assert measured_latency_ms(text) == pytest.approx(7.80425)
    assert measured_latency_ms("Inference (avg): 12.34 ms\n") == pytest.approx(12.34)
    with pytest.raises(InspectorError, match="Inference \\(avg\\)"):
        measured_latency_ms("Timings (microseconds): count=10\n")
