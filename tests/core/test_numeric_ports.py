"""comparing.numeric_ports: where the window's numeric comparison and `diff --numeric` feed
and compare both models (Qt-free, no TensorFlow)."""

from __future__ import annotations

import os

from inspector.core.analysis.summary import summarize
from inspector.core.app.comparing import numeric_ports
from inspector.core.app.ports import ports_to_use
from inspector.core.loaders import load


def test_given_ports_win_side_by_side_and_the_rules_differ_only_in_what_fills_a_side(data):
    model = load(os.path.join(data, "inception_jpeg.pb"))
    summary = summarize(model.graph, model.known_inputs, model.known_outputs)
    # the window: the suggested ports (past the JPEG decoder)
    assert numeric_ports(summary) == ports_to_use([], [], summary) == (["Mul"], ["softmax"])
    # diff --numeric: every candidate the summary lists (the encoded bytes too)
    assert numeric_ports(summary, every_candidate=True) == (
        [c.name for c in summary.inputs], ["softmax"])
    assert "DecodeJpeg/contents" in numeric_ports(summary, every_candidate=True)[0]
    for every in (False, True):
        assert numeric_ports(summary, ["Mul"], [], every)[0] == ["Mul"]
        assert numeric_ports(summary, [], ["mixed/join"], every)[1] == ["mixed/join"]
        assert numeric_ports(summary, ("a",), ("b",), every) == (["a"], ["b"])
