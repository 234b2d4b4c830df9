"""FLOPs of fused kernels (`_FusedConv2D`, `_FusedMatMul`: grappler's and the TF.js converter's
Conv2D/MatMul + BiasAdd + activation in one node). TF's registry has no rule for them, so its
profiler counts 0; `flops` left them out too, and the TF.js SSD hand detector (handtrackjs on
npm) read 133.87M FLOPs instead of 1.74B (its 72 fused convolutions are 92 % of the work), with
phone latencies 13x too low. Now each counts as its base op plus each fused step: the same total
as the graph with every fused kernel split into plain ops, whose TF part is the profiler's."""

import os

import numpy as np
import pytest
from conftest import run_cli

from tests.fixtures import wild_models

tf = pytest.importorskip("tensorflow")
v1 = tf.compat.v1


def _split(graph_def):
    """The graph with every _FusedConv2D / _FusedMatMul written as its plain ops, the last
    keeping the node's name (what the fused kernel stands for)."""
    out = v1.GraphDef()
    out.versions.CopyFrom(graph_def.versions)
    for n in graph_def.node:
        if n.op not in ("_FusedConv2D", "_FusedMatMul"):
            out.node.add().CopyFrom(n)
            continue
        steps = [s.decode() for s in n.attr["fused_ops"].list.s]
        base = out.node.add()
        base.CopyFrom(n)
        base.name, base.op = n.name + "/base", n.op[len("_Fused"):]
        del base.input[:]
        base.input.extend(n.input[:2])
        for key in ("fused_ops", "num_args", "epsilon", "leakyrelu_alpha", "TArgs",
                    "filter_format", "num_host_args"):
            if key in base.attr:
                del base.attr[key]
        prev, args = base.name, list(n.input[2:])
        for j, step in enumerate(steps):
            m = out.node.add(name=n.name if j == len(steps) - 1 else f"{n.name}/{step}", op=step)
            m.attr["T"].CopyFrom(n.attr["T"])
            m.input.extend([prev, args.pop(0)] if step == "BiasAdd" else [prev])
            prev = m.name
    return out


def _fused_graph():
    """x [1,8,8,3] -> _FusedConv2D(3x3x3x16, BiasAdd, Relu6) -> Reshape -> _FusedMatMul(
    1024x10, BiasAdd, Relu), as grappler's remapper writes them."""
    rng = np.random.default_rng(3)
    g = v1.GraphDef()

    def const(name, value):
        node = g.node.add(name=name, op="Const")
        node.attr["dtype"].type = 1 if value.dtype == np.float32 else 3
        node.attr["value"].tensor.CopyFrom(tf.make_tensor_proto(value))

    x = g.node.add(name="x", op="Placeholder")
    x.attr["dtype"].type = 1
    x.attr["shape"].shape.CopyFrom(tf.TensorShape([1, 8, 8, 3]).as_proto())
    const("w", rng.normal(size=(3, 3, 3, 16)).astype(np.float32))
    const("b", rng.normal(size=16).astype(np.float32))
    const("shape", np.array([1, 1024], np.int32))
    const("wd", rng.normal(size=(1024, 10)).astype(np.float32))
    const("bd", rng.normal(size=10).astype(np.float32))
    conv = g.node.add(name="conv", op="_FusedConv2D", input=["x", "w", "b"])
    for key, ints in (("strides", [1, 1, 1, 1]), ("dilations", [1, 1, 1, 1])):
        conv.attr[key].list.i.extend(ints)
    conv.attr["padding"].s = b"SAME"
    conv.attr["data_format"].s = b"NHWC"
    conv.attr["fused_ops"].list.s.extend([b"BiasAdd", b"Relu6"])
    dense = g.node.add(name="dense", op="_FusedMatMul", input=["flat", "wd", "bd"])
    dense.attr["fused_ops"].list.s.extend([b"BiasAdd", b"Relu"])
    for node in (conv, dense):
        node.attr["T"].type = 1
        node.attr["num_args"].i = 1
        node.attr["TArgs"].list.type.append(1)
    flat = g.node.add(name="flat", op="Reshape", input=["conv", "shape"])
    flat.attr["T"].type = 1
    flat.attr["Tshape"].type = 3
    return g


def _flops(path):
    rc, out, err = run_cli("flops", path)
    assert rc == 0, err
    first = out.splitlines()[0]          # Total FLOPs: N (..); TF's flops registry counts M (..)
    total = int(first.split("Total FLOPs: ")[1].split(" ")[0].replace(",", ""))
    registry = int(first.split("registry counts ")[1].split(" ")[0].replace(",", ""))
    return total, registry, out


def _profiler(graph_def):
    with tf.Graph().as_default() as g:
        tf.graph_util.import_graph_def(graph_def, name="")
        opts = v1.profiler.ProfileOptionBuilder.float_operation()
        opts["output"] = "none"
        return v1.profiler.profile(g, options=opts).total_float_ops


def test_fused_kernels_count_as_the_plain_ops_they_stand_for(tmp_path):
    fused = _fused_graph()
    split = _split(fused)
    (tmp_path / "fused.pb").write_bytes(fused.SerializeToString())
    (tmp_path / "split.pb").write_bytes(split.SerializeToString())
    total, registry, out = _flops(str(tmp_path / "fused.pb"))
    split_total, split_registry, _ = _flops(str(tmp_path / "split.pb"))
    assert split_registry == _profiler(split) == 2 * 1024 * 27 + 1024 + 2 * 1024 * 10 + 10
    assert registry == _profiler(fused) == 0          # what tf.profiler says of this file
    # conv 55,296 + bias 1,024 + Relu6 2,048; matmul 20,480 + bias 10 + Relu 10 (was 0)
    assert total == split_total == 55_296 + 1_024 + 2_048 + 20_480 + 10 + 10
    assert "TF's registry counts nothing for _FusedConv2D, _FusedMatMul" in out
    assert "not counted" not in out


def test_the_tfjs_hand_detector_counts_its_fused_convolutions(tmp_path):
    try:
        path = wild_models.model("handtrack_float32")
    except wild_models.Unavailable as exc:
        pytest.skip(f"package registry unavailable: {exc}")
    total, registry, out = _flops(path)
    converted = str(tmp_path / "hand.pb")
    rc, _, err = run_cli("convert", path, "-o", converted)
    assert rc == 0, err
    graph_def = v1.GraphDef.FromString(open(converted, "rb").read())
    split = _split(graph_def)
    assert sum(n.op == "_FusedConv2D" for n in graph_def.node) == 72
    assert not any(n.op.startswith("_Fused") for n in split.node)
    (tmp_path / "split.pb").write_bytes(split.SerializeToString())
    split_total, split_registry, _ = _flops(str(tmp_path / "split.pb"))
    assert total == split_total > 1.7e9       # was 133,867,599
    # the input [1,?,?,3] is taken as [1,1,1,3] (the graph resizes it to 320x320 itself)
    for g in (graph_def, split):
        g.node[[n.name for n in g.node].index("input_tensor")].attr["shape"].shape.CopyFrom(
            tf.TensorShape([1, 1, 1, 3]).as_proto())
    assert registry == _profiler(graph_def) == 124_344_359
    assert split_registry == _profiler(split)
    assert "_FusedConv2D 1.61B" in out
