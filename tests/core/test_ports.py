"""One rule for the ports a feature uses when none are marked (Qt-free): marks win side by
side, else the summary's real feed points and top outputs."""

from __future__ import annotations

import os

from conftest import DEMO

from inspector.core.analysis.summary import summarize
from inspector.core.app.demo import choose_ports
from inspector.core.app.ports import ports_to_use, suggested_ports
from inspector.core.loaders import load


def _summary(path):
    model = load(path)
    return summarize(model.graph, model.known_inputs, model.known_outputs)


def test_suggestions_are_the_real_feed_points_and_the_top_outputs(data):
    summary = _summary(os.path.join(data, "inception_jpeg.pb"))
    ins, outs = suggested_ports(summary)
    assert outs == ["softmax"]
    assert "Mul" in ins or "DecodeJpeg/contents" in ins
    assert all(c.score >= 100 for c in summary.inputs if c.name in ins)
    assert suggested_ports(_summary(DEMO)) == (["pixels"], ["output"])


def test_marks_win_side_by_side():
    summary = _summary(DEMO)
    assert ports_to_use(["x"], [], summary) == (["x"], ["output"])
    assert ports_to_use([], ["y"], summary) == (["pixels"], ["y"])
    assert ports_to_use(["x"], ["y"], None) == (["x"], ["y"])
    assert ports_to_use([], [], None) == ([], [])


def test_the_demo_uses_the_same_rule():
    summary = _summary(DEMO)
    assert choose_ports([], [], summary) == ports_to_use([], [], summary)


def test_a_leftover_is_never_suggested_as_the_output(data):
    summary = _summary(os.path.join(data, "v1_training.pbtxt"))
    ins, outs = suggested_ports(summary)
    top = {c.name: c.score for c in summary.outputs}
    assert all(top[o] >= 70 for o in outs)
