"""TF's static shapes from the C++ importer alone equal what Python's import_graph_def gives,
on real graphs (image models, a training graph, while loops, functions), with and without
input shapes; the last answers are kept per GraphDef object."""

import os

import pytest

pytest.importorskip("tensorflow")

from inspector.core.errors import InspectorError  # noqa: E402
from inspector.core.loaders import load  # noqa: E402
from inspector.core.model import protos  # noqa: E402
from inspector.core.tf import graphs  # noqa: E402

CASES = [("mobilenet_v2.pb", {"input": (2, 224, 224, 3)}), ("mobilenet_v2.pb", None),
         ("inception_jpeg.pb", None), ("v1_training.pb", None), ("while_v1.pb", None),
         ("while_v2.pb", None), ("speech_commands.pb", None), ("text_really.pb", None)]


@pytest.mark.parametrize("name,shapes", CASES)
def test_c_import_shapes_equal_python_import_shapes(fx, name, shapes):
    graph_def = graphs.skeleton(load(os.path.join(fx, name)).graph.graph_def)
    fast = graphs._shapes_by_c_import(graph_def, shapes)
    assert fast is not None, "this TensorFlow has the internals the fast path uses"
    slow = graphs._shapes_by_python_import(graph_def, shapes)
    assert list(fast) == list(slow) and fast == slow
    assert any(s is not None and len(s) == 4 for outs in fast.values() for s in outs) or \
        name != "mobilenet_v2.pb"


def test_an_unknown_op_is_one_line_naming_it():
    bad = protos.GraphDef()
    bad.node.add(name="x", op="NoSuchOpAnywhere")
    with pytest.raises(InspectorError, match="NoSuchOpAnywhere"):
        graphs.infer_shapes(bad)


def test_answers_are_kept_per_graph_object_and_shapes(fx):
    graph_def = load(os.path.join(fx, "mobilenet_v2.pb")).graph.graph_def
    calls = []
    real = graphs._shapes_by_c_import

    def counting(gd, shapes):
        calls.append(shapes)
        return real(gd, shapes)

    graphs._shapes_by_c_import, graphs._LAST_SHAPES[:] = counting, []
    try:
        first = graphs.infer_shapes(graph_def)
        again = graphs.infer_shapes(graph_def)
        other = graphs.infer_shapes(graph_def, {"input": (3, 224, 224, 3)})
        copy = protos.GraphDef()
        copy.CopyFrom(graph_def)
        graphs.infer_shapes(copy)
    finally:
        graphs._shapes_by_c_import = real
    assert len(calls) == 3 and first == again and first is not again
    assert other["input"] == [(3, 224, 224, 3)] and first["input"] != other["input"]
    assert any(held is copy for held, *_ in graphs._LAST_SHAPES)
    from inspector.core.tf import run

    run.forget_sessions()          # the worker lets the model go: nothing keeps its graph
    assert graphs._LAST_SHAPES == []
