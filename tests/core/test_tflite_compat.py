"""TFLite compatibility: the static status of every node (tables, no TensorFlow) checked
against TensorFlow's own converter on probe graphs, fixtures and the demo model; the flex
allowlist against the one compiled into TensorFlow; the ops_to_register.h writer against
TF's print_selective_registration_header.

This file holds the tests that need neither TensorFlow nor Qt; the others are in
tests/tf/test_tflite_compat_tf.py, tests/cli/test_tflite_compat_cli.py."""

from __future__ import annotations

import os

from inspector.core.mobile import tflite_compat as tc
from inspector.core.model.graph import Graph
from inspector.core.model.protos import GraphDef


def _graph(path):
    with open(path, "rb") as fh:
        return GraphDef.FromString(fh.read())


def test_tf1_while_loop_is_flagged(data):
    graph = Graph(_graph(os.path.join(data, "while_v1.pb")))
    static = tc.analyze(graph)
    loop_ops = {"Switch", "Merge", "Enter", "Exit", "NextIteration", "LoopCond"}
    flagged = {n.name for n in graph if n.op in loop_ops}
    assert flagged and {n for n, c in static.nodes.items()
                        if c.status == "control_flow"} == flagged
    assert static.problems()[0][1].status == "control_flow"
    scopes = {n.name.split("/")[0] for n in graph if "/" in n.name}
    counted = static.by_scope(scopes)
    assert sum(c["control_flow"] for c in counted.values()) == len(flagged)


def test_mobile_kernel_check_puts_training_first(data):
    graph = Graph(_graph(os.path.join(data, "v1_training.pb")))
    missing = tc.analyze(graph).missing_mobile_kernels()
    whys = [why for _, _, why in missing]
    assert whys and whys[0] == "training only"
    assert whys == sorted(whys, key=lambda w: w != "training only")
    graph = Graph(_graph(os.path.join(data, "inception_jpeg.pb")))
    missing = tc.analyze(graph, ["softmax"]).missing_mobile_kernels()
    assert [(op, why.split(" (")[0]) for _, op, why in missing] == [
        ("DecodeJpeg", "needs an image library")]


def test_statuses_colours_and_labels_cover_each_other():
    assert set(tc.COLOURS) == set(tc.LABELS) == set(tc.SEVERITY) == set(tc.STATUSES)
