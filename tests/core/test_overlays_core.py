"""Timings and ranges against real TensorFlow: StatSummarizer tables, imports, calibration.

This file holds the tests that need neither TensorFlow nor Qt; the others are in
tests/tf/test_overlays_core_tf.py, tests/cli/test_overlays_core_cli.py."""

import os

import numpy as np
import pytest

from inspector.core.loaders import load


def test_the_match_summary_never_claims_all_matched_when_some_did_not(data):
    from inspector.core.overlays.profiling import parse_benchmark_output

    text = ("============================== Run Order ==============================\n"
            "\t Conv2D\t 0.000\t 1.000\t 1.000\t 50.000%\t 50.000%\t 0.000\t 1\tconv/Conv2D\n"
            "\t Relu\t 0.000\t 1.000\t 1.000\t 50.000%\t 100.000%\t 0.000\t 1\tghost/Relu\n"
            "\t Relu\t x\t y\t z\t 1%\t 2%\t 0.0\t 1\tbroken\n")
    prof = parse_benchmark_output(text)
    prof.match(load(os.path.join(data, "inception_jpeg.pb")).graph)
    summary = prof.match_summary()
    assert summary.startswith("1 of 2 timed nodes matched the graph")
    assert "ghost/Relu" in summary and "1 table lines could not be read" in summary


def test_quality_hint_speaks_plainly():
    from inspector.core.analysis.numeric_check import compare
    from inspector.core.overlays.calibration import quality_hint

    a = np.array([[0.1, 0.9], [0.8, 0.2], [0.3, 0.7], [0.6, 0.4]])
    assert "good" in quality_hint([compare(a, a + 0.01, "probs")])
    b = a.copy()
    b[0] = [0.9, 0.1]
    assert "changes on 1 of 4 inputs" in quality_hint([compare(a, b, "probs")])
    b[1] = [0.2, 0.8]
    assert quality_hint([compare(a, b, "probs")]).startswith("probs: poor")
    x = np.linspace(0, 10, 20).reshape(20, 1)
    assert quality_hint([compare(x, x + 0.05, "box")]) == (
        "box: good. The largest difference is 0.5% of the float output's range.")
    assert "poor" in quality_hint([compare(x, x + 2, "box")])


def test_quality_hint_of_nan_eight_bit_answers_is_poor_and_says_how_many():
    """The calibration's verdict (the ranges overlay's comparison text, `calibrate --freeze`)
    on eight-bit answers that are NaN: a regression output's error of nan fell through to
    'acceptable'/'largest difference nan%' before; it is poor now, with the count."""
    from inspector.core.analysis.numeric_check import compare
    from inspector.core.overlays.calibration import quality_hint

    x = np.linspace(0, 10, 20).reshape(20, 1)
    y = x.copy()
    y[3] = np.nan
    said = quality_hint([compare(x, y, "box")])
    assert said == ("box: poor. 1 of 20 values NaN or infinite in the transformed graph's "
                    "output (0 in the original's); do not ship this as is."), said
    a = np.array([[0.1, 0.9], [0.8, 0.2]])
    assert quality_hint([compare(a, a * np.nan, "probs")]).startswith("probs: poor. 4 of 4")


def test_a_flat_reference_answer_gives_no_top1_and_says_why():
    """walk16: an untrained classifier answers the same for every class; its argmax is
    always the first, so top-1 read 100% against anything ('good. ... the same top class on
    all N inputs'). No top-1 now; the warning says why, the verdict falls back to the span."""
    from inspector.core.analysis.numeric_check import compare
    from inspector.core.overlays.calibration import quality_hint

    flat = np.full((4, 10), 0.1)
    r = compare(flat, flat + np.linspace(0, 0.01, 10), "probs")
    assert r.top1_agreement is None and r.constant_reference
    assert r.warning() == ("top-1 not counted: the original graph's output is constant (every "
                           "class scores the same, so its top class is always the first)")
    assert quality_hint([r]).startswith("probs: largest difference 0.01 (no float range")
    varied = np.array([[0.1, 0.9], [0.8, 0.2]])
    assert compare(varied, varied, "probs").top1_agreement == 1.0
    assert compare(varied, varied, "probs").warning() == ""


def test_a_node_that_runs_in_some_runs_only_counts_its_time_a_run_as_the_tables_do():
    """A profile run here: a node's time a run is all its calls' time over the runs, as
    StatSummarizer's "Summary by node type" (printed beside the window's op-type chart, and
    by `profile`) counts it. per_run took a call's average times the calls a run rounded
    down: a Relu in 1 of 3 runs (a tf.cond branch) read 0.1 ms where the tables say 33 us,
    and a Tanh called 4 times in 3 runs 0.05 ms for 66 us."""
    from inspector.core.model.graph import Graph
    from inspector.core.model.protos import GraphDef, step_stats_pb2
    from inspector.core.overlays.profiling import from_summarizer
    from inspector.core.overlays.stat_summarizer import StatSummarizer

    def run(nodes):
        stats = step_stats_pb2.StepStats()
        dev = stats.dev_stats.add(device="/job:localhost/replica:0/task:0/device:CPU:0")
        for name, op, us in nodes:
            dev.node_stats.add(node_name=name, timeline_label=f"{name} = {op}(x)",
                               all_end_rel_micros=us)
        return stats

    s = StatSummarizer()
    s.add_run(run([("x", "Placeholder", 1), ("a", "Relu", 100), ("b", "Tanh", 50)]))
    s.add_run(run([("x", "Placeholder", 1), ("b", "Tanh", 50)]))
    s.add_run(run([("x", "Placeholder", 1), ("b", "Tanh", 50), ("b", "Tanh", 50)]))
    gd = GraphDef()
    gd.node.add(name="x", op="Placeholder")
    gd.node.add(name="a", op="Relu", input=["x"])
    gd.node.add(name="b", op="Tanh", input=["x"])
    shown = from_summarizer(s, "three runs").by_op_type(Graph(gd))
    tables = {kind: us for kind, _, us, _, _ in s.by_type()}    # int(sum / runs) each
    assert tables == {"Relu": 33, "Tanh": 66, "Placeholder": 1}
    for kind, us in tables.items():
        assert abs(shown[kind] * 1000.0 - us) < 1.0, (kind, shown[kind], us)


def test_a_chrome_trace_with_a_loop_counts_the_loop_calls_not_more_runs():
    """A trace of one run where `body` ran 5 times (a while loop): the run count is the
    commonest event count (1), so the loop node is called 5 times a run and its time a run
    is its 5 calls; the other nodes once. The largest count (5) taken as the run count
    made the loop one call a run, a fifth of its time."""
    import json

    from inspector.core.overlays.profiling import parse_chrome_trace

    events = [{"ph": "X", "name": n, "dur": 100, "args": {"name": n, "op": "Op"}}
              for n in ("a", "b", "c")]
    events += [{"ph": "X", "name": "body", "dur": 40, "args": {"name": "body", "op": "Mul"}}
               for _ in range(5)]
    prof = parse_chrome_trace(json.dumps({"traceEvents": events}))
    body = prof.nodes["body"]
    assert body.times == 5
    assert abs(body.per_run() - 0.2) < 1e-9          # 5 calls of 0.04 ms
    assert all(prof.nodes[n].times == 1 for n in "abc")
    # three runs of the same: still 5 calls a run
    prof3 = parse_chrome_trace(json.dumps({"traceEvents": events * 3}))
    assert prof3.nodes["body"].times == 5 and prof3.nodes["a"].times == 1


def test_the_window_s_profile_holds_its_inputs_to_tf_s_rule_without_a_graph_of_the_model(
        tmp_path, monkeypatch):
    """note15: b691296 built a whole Graph of the window's original model on each Profile
    run only to read its inputs' declared shapes (~3.8 s at 1M nodes, in the worker). The
    inputs' NodeDefs are now found by a walk that stops at the last input; the refusal is the
    same. (Fails on the old code: a Graph of the original graph_def was built.)"""
    from inspector.core.app.preview import PreviewEngine
    from inspector.core.errors import InspectorError
    from inspector.core.overlays import profiling
    from tests.fixtures.hostile import inputs as I

    engine = PreviewEngine(load(I.input_shape_negative(str(tmp_path))).graph.graph_def)
    built = []
    real = profiling.Graph
    monkeypatch.setattr(profiling, "Graph", lambda gd, *a, **k: built.append(gd) or
                        real(gd, *a, **k))
    with pytest.raises(InspectorError, match=r"node 'x': TensorFlow cannot import the graph: "
                       r"the input's shape \[-5,3\] has sizes below -1"):
        engine.profile(["x"], ["y"], {"x": [1, 3]}, "random", None, 1, 1, 0, 1)
    assert built and all(gd is not engine.graph_def for gd in built)


def test_an_input_s_node_def_is_found_by_a_walk_that_stops_at_the_last_input():
    from inspector.core.model import protos
    from inspector.core.overlays.profiling import input_node_defs

    gd = protos.GraphDef()
    for name in ("a", "b", "a", "c"):
        gd.node.add(name=name, op="Placeholder" if name != "c" else "Identity")
    gd.node[2].attr["shape"].shape.dim.add(size=7)
    seen = []

    class Counting:
        node = property(lambda self: (seen.append(n.name) or n for n in gd.node))

    found = input_node_defs(Counting(), ["b:0", "a"])
    assert [n.name for n in found] == ["a", "b"] and not found[0].attr   # the first "a"
    assert seen == ["a", "b"]


def test_a_convolution_grappler_renamed_after_the_batch_norm_mul_it_absorbed_is_a_conv():
    """walk17 (fixtures' mobilenet_v2, Profile in TensorFlow): TF's oneDNN remapper folds
    the batch norm's `mul` into the convolution's weights (…/merged_input) and runs the
    convolution as `_MklNativeConv2D` under the name of the `batchnorm/mul_1` it replaced.
    The time went to that Mul node: the op-type chart said Mul 9.56 ms and had no Conv2D,
    where TF's own "Summary by node type" beside it said _MklNativeConv2D 8.4 ms, Mul 1.1.
    A kernel that computes a convolution or matmul is credited to the convolution upstream
    of the node it is named after, fused or not."""
    from inspector.core.model.graph import Graph
    from inspector.core.model.protos import GraphDef
    from inspector.core.overlays.profiling import NodeTime, Profile, credited_node

    gd = GraphDef()
    for name, op, ins in (("x", "Placeholder", []), ("w", "Const", []),
                          ("conv", "Conv2D", ["x", "w"]), ("s", "Const", []),
                          ("bn/mul_1", "Mul", ["conv", "s"]), ("relu", "Relu6", ["bn/mul_1"]),
                          ("dw", "DepthwiseConv2dNative", ["relu", "w"]),
                          ("dw_bn/mul_1", "Mul", ["dw", "s"])):
        gd.node.add(name=name, op=op, input=ins)
    g = Graph(gd)
    assert credited_node(g, "bn/mul_1", "_MklNativeConv2D") == "conv"
    assert credited_node(g, "bn/mul_1", "Conv2D") == "conv"
    assert credited_node(g, "dw_bn/mul_1", "Mul") == "dw_bn/mul_1"      # a real Mul stays
    assert credited_node(g, "relu", "Relu6") == "relu"
    assert credited_node(g, "dw", "_MklNativeDepthwiseConv2dNative") == "dw"
    p = Profile({"bn/mul_1": NodeTime("bn/mul_1", "_MklNativeConv2D", 2.0, run_ms=2.0),
                 "dw_bn/mul_1": NodeTime("dw_bn/mul_1", "Mul", 0.5, run_ms=0.5)}, "run")
    assert p.by_op_type(g) == {"Conv2D": 2.0, "Mul": 0.5}
