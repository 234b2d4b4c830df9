"""The window's Profile strips its graph by strip_unused_nodes' quick path (strip_alone,
through transforms.last_graph): the same GraphDef as the pipeline's step, without the
pipeline's report (the whole graph's check, a note a node, the diff of the whole graph: ~40 s
before TensorFlow's run at 1M nodes on the slow class). Where the quick path is not sure of
the same answer, the pipeline runs and gives its own error."""

import os
import random

import pytest

from inspector.core.app.model_tasks import graph_for_run
from inspector.core.errors import InspectorError
from inspector.core.loaders import load
from inspector.core.model import protos
from inspector.core.transforms import last_graph, run_pipeline
from inspector.core.transforms.base import TransformError


def _spec(first: str, dims=()) -> str:
    return (f'strip_unused_nodes(name={first}, type_for_name=float, shape_for_name="'
            + ",".join(map(str, dims)) + '")')


def _same(graph_def, ins, outs, dims=()):
    spec = _spec(ins[0], dims)
    quick = last_graph(graph_def, spec, ins, outs)
    slow = run_pipeline(graph_def, spec, ins, outs)[-1].graph_def
    assert quick.SerializeToString(deterministic=True) == \
        slow.SerializeToString(deterministic=True)
    return quick


def _random_graph(seed: int, n: int = 300):
    """A DAG written in no particular order: data inputs on ports, control inputs, a few
    nodes reading nodes written after them, Placeholders and non-Placeholders to feed."""
    rng = random.Random(seed)
    gd = protos.GraphDef()
    gd.versions.producer = 1234
    gd.library.function.add().signature.name = "f"
    gd.debug_info.files.append("model.py")
    order = list(range(n))
    rng.shuffle(order)
    for i in order:
        node = gd.node.add(name=f"s{i % 7}/n{i}", op="Placeholder" if i < 3 else
                           rng.choice(["Add", "Mul", "Identity", "Relu"]))
        if i >= 3:
            for j in rng.sample(range(i), min(i, rng.randint(1, 3))):
                node.input.append(rng.choice([f"s{j % 7}/n{j}", f"s{j % 7}/n{j}:0",
                                              f"s{j % 7}/n{j}:1", f"^s{j % 7}/n{j}"]))
        node.attr["T"].type = 1
        node.device = "/cpu:0" if i % 5 == 0 else ""
    return gd


@pytest.mark.parametrize("seed", range(6))
def test_the_quick_strip_is_the_pipeline_s_step_field_for_field(seed):
    gd = _random_graph(seed)
    rng = random.Random(seed)
    name = lambda i: f"s{i % 7}/n{i}"  # noqa: E731
    outs = [name(i) for i in rng.sample(range(200, 300), 2)]
    ins = [name(i) for i in rng.sample(range(3, 150), 2)]      # not Placeholders: replaced
    got = _same(gd, ins, outs, (1, 4))
    first = next(n for n in got.node if n.name == ins[0])
    assert first.op == "Placeholder" and [d.size for d in first.attr["shape"].shape.dim] == [1, 4]
    assert 0 < len(got.node) < len(gd.node) and got.debug_info.files == ["model.py"]
    _same(gd, [name(0)], outs)                                 # a Placeholder: kept as it is
    _same(gd, [ins[0], name(1) + ":0"], [outs[0] + ":0", "^" + outs[1]])     # ports, marks
    _same(gd, [outs[0]], [outs[0]])                            # the input is the output


def test_a_real_model_s_strip_is_the_same(data):
    gd = load(os.path.join(data, "inception_jpeg.pb")).graph.graph_def
    got = _same(gd, ["Mul"], ["softmax"], (1, 299, 299, 3))
    assert "DecodeJpeg" not in {n.name for n in got.node}


def _broken(kind: str):
    gd = protos.GraphDef()
    gd.node.add(name="x", op="Placeholder")
    gd.node.add(name="a", op="Relu", input=["x"])
    gd.node.add(name="y", op="Relu", input=["a"])
    gd.node.add(name="far", op="Relu", input=["x"])
    if kind == "a name twice":
        gd.node.add(name="a", op="Relu", input=["far"])
    if kind == "an input naming no node":
        gd.node[2].input.append("^ghost")
    if kind == "a malformed input":
        gd.node[2].input.append("a:b:c")
    if kind == "a fed Placeholder with an input":
        gd.node[0].input.append("^far")
    return gd


@pytest.mark.parametrize("kind, ins, outs", [
    ("a name twice", ["x"], ["y"]), ("an input naming no node", ["x"], ["y"]),
    ("a malformed input", ["x"], ["y"]), ("a fed Placeholder with an input", ["x"], ["y"]),
    ("a fed Placeholder with an input", ["x"], ["far"]), ("", ["nothere"], ["y"]),
    ("", ["x"], ["nothere"]), ("", ["x"], [])])
def test_where_the_quick_path_is_not_sure_the_pipeline_answers_in_its_own_words(kind, ins, outs):
    gd = _broken(kind)
    spec = _spec(ins[0])
    try:
        expected = run_pipeline(gd, spec, ins, outs)[-1].graph_def.SerializeToString(
            deterministic=True)
    except InspectorError as exc:
        with pytest.raises(type(exc)) as got:
            last_graph(gd, spec, ins, outs)
        assert got.value.message == exc.message
    else:
        assert last_graph(gd, spec, ins, outs).SerializeToString(deterministic=True) == \
            expected


def test_a_broken_node_the_run_does_not_reach_no_longer_stops_the_profile():
    """The pipeline checked every node before its first step ('The input graph is invalid'),
    so a broken node anywhere refused a Profile of a part that never reads it; TensorFlow
    imports the stripped graph only."""
    spec = _spec("x")
    for broken in ("ghost", "^ghost", "x:", "a:b:c"):
        gd = _broken("")
        gd.node[3].input.append(broken)              # 'far': not reached from y
        with pytest.raises(TransformError, match="The input graph is invalid"):
            run_pipeline(gd, spec, ["x"], ["y"])
        assert [n.name for n in last_graph(gd, spec, ["x"], ["y"]).node] == ["x", "a", "y"]


def test_the_window_s_profile_strips_without_the_pipeline_s_report(monkeypatch):
    """Profile ran the general pipeline: the whole graph checked, a note for each node left
    out, and the report's diff of the whole graph (~40 s at 1M nodes on the slow class, the
    run a few nodes). None of these runs now. (Fails on the old code: run_step and the
    diff ran.)"""
    from inspector.core.app.preview import PreviewEngine
    from inspector.core.overlays import profiling
    from inspector.core.transforms import pipeline

    gd = _random_graph(7)
    outs, ins = ["s3/n290"], ["s0/n140"]
    expected = run_pipeline(gd, _spec(ins[0], (2, 3)), ins, outs)[-1].graph_def

    called = []
    monkeypatch.setattr(pipeline, "run_step", lambda *a, **k: called.append("run_step"))
    monkeypatch.setattr(pipeline, "diff", lambda *a, **k: called.append("diff"))
    real_validate = pipeline.validate
    monkeypatch.setattr(pipeline, "validate", lambda g, *a: called.append("validate") or
                        real_validate(g, *a))
    ran = []

    class Stop(Exception):
        pass

    class TF:
        def profile_runs(self, graph_def, *args, **kwargs):
            ran.append(graph_def)
            raise Stop

    monkeypatch.setattr(profiling, "tensorflow", TF)
    with pytest.raises(Stop):
        PreviewEngine(gd).profile(ins, outs, {"s0/n140": [2, 3]}, "random", None, 1, 1, 0, 1)
    assert called == []
    assert ran[0].SerializeToString(deterministic=True) == \
        expected.SerializeToString(deterministic=True)
    assert graph_for_run(gd, [], outs, {}) is gd               # no inputs: the whole graph


def test_an_input_named_as_a_tensor_is_cut_there_as_tensorflow_s_strip_does():
    """Profile's first input given as a tensor ('pre:0', as TensorFlow's tools write it):
    strip_unused_nodes reads it as its node (NodeNameFromInput, tf-graph-tools.md 2.3),
    with its shape. The name went into the step's text unquoted: 'expected a parameter
    name' before (perf17profile's finding)."""
    gd = protos.GraphDef()
    x = gd.node.add(name="x", op="Placeholder")
    x.attr["dtype"].type = 1
    gd.node.add(name="pre", op="Relu", input=["x"])
    gd.node.add(name="y", op="Relu", input=["pre"])
    for ins in (["pre:0"], ["pre"]):
        out = graph_for_run(gd, ins, ["y:0"], {"pre": (1, 3)})
        assert [(n.name, n.op) for n in out.node] == [("pre", "Placeholder"), ("y", "Relu")]
        assert [d.size for d in out.node[0].attr["shape"].shape.dim] == [1, 3]
