"""fold_constants without TensorFlow (transforms/exact_ops.py): exact subgraphs fold in numpy
with no TensorFlow executor at all; declared sizes are checked before anything is allocated.
(Bit-equality with TensorFlow is tested in tests/tf/test_exact_fold_tf.py.)"""

import tracemalloc

import numpy as np
import pytest

from inspector.core.model import protos, tensors
from inspector.core.runtime import executor
from inspector.core.transforms import run_pipeline
from inspector.core.transforms.graph_utils import tensor_const


@pytest.fixture
def no_tensorflow(monkeypatch):
    """Any request for TensorFlow fails the test."""
    monkeypatch.setattr(executor, "_current", None)


def node(g, name, op, inputs=(), **types):
    n = g.node.add(name=name, op=op, input=list(inputs))
    for key, value in types.items():
        if isinstance(value, bool):
            n.attr[key].b = value
        elif isinstance(value, int) and key.endswith("_mask"):
            n.attr[key].i = value
        else:
            n.attr[key].type = value
    return n


def const(g, name, value, dtype=None):
    g.node.add().CopyFrom(tensor_const(name, np.asarray(value), dtype))


def exact_graph():
    """x (float [2, 3]) times weights made by Transpose/Reshape/Cast/Mul of constants, plus a
    shape built with Shape/StridedSlice/Pack/Fill: everything foldable is exact."""
    g = protos.GraphDef()
    x = node(g, "x", "Placeholder", dtype=1)
    x.attr["shape"].shape.dim.add(size=2)
    x.attr["shape"].shape.dim.add(size=3)
    const(g, "w", np.arange(6, dtype=np.int32).reshape(2, 3), 3)
    const(g, "perm", np.array([1, 0], np.int32), 3)
    node(g, "wt", "Transpose", ["w", "perm"], T=3, Tperm=3)
    node(g, "wf", "Cast", ["wt"], SrcT=3, DstT=1)
    const(g, "half", np.float32(0.5), 1)
    node(g, "scaled", "Mul", ["wf", "half"], T=1)
    node(g, "mm", "MatMul", ["x", "scaled"], T=1)
    node(g, "shape", "Shape", ["w"], T=3, out_type=3)
    const(g, "b0", np.array([0], np.int32), 3)
    const(g, "b1", np.array([1], np.int32), 3)
    node(g, "rows", "StridedSlice", ["shape", "b0", "b1", "b1"], T=3, Index=3,
         shrink_axis_mask=1)
    node(g, "dims", "Pack", ["rows", "rows"], T=3).attr["N"].i = 2
    node(g, "ones", "Fill", ["dims", "half"], T=1, index_type=3)
    node(g, "out", "MatMul", ["mm", "ones"], T=1)
    return g


def test_exact_subgraphs_fold_with_no_tensorflow_at_all(no_tensorflow):
    report = run_pipeline(exact_graph(), "fold_constants", ["x"], ["out"])[-1]
    consts = {n.name: tensors.to_numpy(n.attr["value"].tensor) for n in report.graph_def.node
              if n.op == "Const"}
    assert [n.op for n in report.graph_def.node] == ["MatMul", "MatMul", "Const", "Const",
                                                     "Placeholder"]
    assert np.array_equal(consts["scaled/_0__cf__0"],
                          np.arange(6, dtype=np.float32).reshape(2, 3).T * 0.5)
    assert np.array_equal(consts["ones/_0__cf__1"], np.full((2, 2), 0.5, np.float32))
    assert all("TensorFlow" not in why for why in report.reasons.values())


def huge_graph(op: str):
    """A small declaration of a huge tensor (8 TB) feeding an output."""
    g = protos.GraphDef()
    node(g, "x", "Placeholder", dtype=1)
    if op == "Fill":
        const(g, "dims", np.array([2 ** 20, 2 ** 21], np.int32), 3)
        const(g, "v", np.float32(1), 1)
        node(g, "big", "Fill", ["dims", "v"], T=1, index_type=3)
    elif op == "Range":
        const(g, "a", np.int64(0), 9)
        const(g, "b", np.int64(2 ** 40), 9)
        const(g, "d", np.int64(1), 9)
        node(g, "big", "Range", ["a", "b", "d"], Tidx=9)
        node(g, "bigf", "Cast", ["big"], SrcT=9, DstT=1)
    elif op == "Tile":
        const(g, "v", np.ones((4, 4), np.float32), 1)
        const(g, "m", np.array([2 ** 20, 2 ** 20], np.int32), 3)
        node(g, "big", "Tile", ["v", "m"], T=1, Tmultiples=3)
    elif op == "BroadcastTo":
        const(g, "v", np.ones((1,), np.float32), 1)
        const(g, "s", np.array([2 ** 20, 2 ** 20], np.int64), 9)
        node(g, "big", "BroadcastTo", ["v", "s"], T=1, Tidx=9)
    else:  # broadcasting Add of two small vectors
        const(g, "a", np.ones((2 ** 20, 1), np.float32), 1)
        const(g, "b", np.ones((1, 2 ** 20), np.float32), 1)
        node(g, "big", "Add", ["a", "b"], T=1)
    node(g, "out", "Add", ["x", "bigf" if op == "Range" else "big"], T=1)
    return g


@pytest.mark.parametrize("op", ["Fill", "Range", "Tile", "BroadcastTo", "Add"])
def test_huge_declared_sizes_are_refused_before_allocating(op, no_tensorflow):
    g = huge_graph(op)
    tracemalloc.start()
    try:
        out = run_pipeline(g, "fold_constants", ["x"], ["out"])[-1].graph_def
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 64 * 2 ** 20, peak  # the inputs are at most 4 MB; nothing huge was made
    assert "big" in {n.name for n in out.node}   # left as it is, not folded, not evaluated
    assert not any("__cf__" in n.name for n in out.node)


def test_a_huge_exact_node_under_a_non_exact_one_is_refused_too(no_tensorflow):
    """Fill (8 TB) -> Rsqrt: Rsqrt would go to TensorFlow, but the Fill under it is sized
    first and makes the whole chain unfoldable: TensorFlow is never asked."""
    g = huge_graph("Fill")
    node(g, "r", "Rsqrt", ["big"], T=1)
    g.node[-2].input[1] = "r"  # out = x + Rsqrt(big)
    out = run_pipeline(g, "fold_constants", ["x"], ["out"])[-1].graph_def
    assert {"big", "r"} <= {n.name for n in out.node}


def test_an_output_over_the_limit_is_not_folded_but_what_feeds_it_is(no_tensorflow):
    """TF's rule: a node whose output passes max_constant_size_in_bytes is not foldable; the
    foldable tensors that feed it are folded instead."""
    g = protos.GraphDef()
    node(g, "x", "Placeholder", dtype=1)
    const(g, "dims", np.array([4], np.int32), 3)
    const(g, "two", np.array([2], np.int32), 3)
    node(g, "dims2", "Mul", ["dims", "two"], T=3)          # [8], exact, small
    const(g, "v", np.float32(1), 1)
    node(g, "big", "Fill", ["dims2", "v"], T=1, index_type=3)  # 32 bytes > the limit of 16
    node(g, "out", "Add", ["x", "big"], T=1)
    out = run_pipeline(g, "fold_constants(max_constant_size_in_bytes=16)", ["x"],
                       ["out"])[-1].graph_def
    names = [n.name for n in out.node]
    assert "big" in names and "dims2/_0__cf__0" in names and "dims2" not in names


def test_many_outputs_over_the_limit_cost_a_few_plans_not_one_each(no_tensorflow, monkeypatch):
    """max_constant_size_in_bytes=1: every exact node is over the limit; they are found in
    one pass and the fold plans again a few times, not once per node."""
    from inspector.core.transforms import fold_constants as fc

    g = protos.GraphDef()
    node(g, "x", "Placeholder", dtype=1)
    const(g, "v", np.ones(4, np.float32), 1)
    for i in range(300):
        node(g, f"n{i}", "Mul", ["v", "v"], T=1)
        node(g, f"o{i}", "Add", ["x", f"n{i}"], T=1)
    node(g, "out", "AddN", [f"o{i}" for i in range(300)], T=1).attr["N"].i = 300
    plans = []
    real = fc._plan
    monkeypatch.setattr(fc, "_plan", lambda *a: plans.append(1) or real(*a))
    out = run_pipeline(g, "fold_constants(max_constant_size_in_bytes=1)", ["x"],
                       ["out"])[-1].graph_def
    assert not any("__cf__" in n.name for n in out.node)
    assert len(plans) <= 3, len(plans)


def test_control_inputs_do_not_stop_a_fold_and_move_onto_the_constant(no_tensorflow):
    """TF's rule: a node folds when its data inputs fold; control inputs from nodes that do
    not fold move onto the replacement constant (they used to stop the fold, or pull the
    non-constant node into the constant subgraph and fail it)."""
    g = protos.GraphDef()
    node(g, "x", "Placeholder", dtype=1)
    node(g, "side", "Relu", ["x"], T=1)                   # not constant
    g.node.add(name="check", op="NoOp", input=["^side"])  # a NoOp counts as constant in TF
    const(g, "a", np.float32(2), 1)
    g.node[-1].input.append("^check")
    const(g, "b", np.float32(3), 1)
    node(g, "ab", "Mul", ["a", "b", "^side"], T=1)
    node(g, "out", "Add", ["x", "ab"], T=1)
    out = run_pipeline(g, "fold_constants", ["x"], ["out"])[-1].graph_def
    folded = next(n for n in out.node if n.name.startswith("ab/_0__cf__"))
    assert list(folded.input) == ["^side"]
    assert float(tensors.to_numpy(folded.attr["value"].tensor)) == 6.0
    assert "ab" not in {n.name for n in out.node}
