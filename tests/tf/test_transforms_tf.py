"""Transforms: ours against TensorFlow's own engine (the oracle), and numerics in TensorFlow.

This file holds the tests that need TensorFlow (an oracle, a model built or run by it); the
others are in tests/core/test_transforms.py."""

import os

import numpy as np
import pytest
from test_transforms import (  # noqa: F401
    INCEPTION_IO,
    ORACLE_CASES,
    PYTHON_VS_NATIVE,
    duplicated_graph,
    graph_def,
)

from inspector.core.analysis.numeric_check import numeric_check
from inspector.core.loaders import load
from inspector.core.model import protos, tensors
from inspector.core.runtime.executor import tensorflow
from inspector.core.runtime.job import Job
from inspector.core.transforms import REGISTRY, run_pipeline


def normalized(node) -> tuple:
    """A comparable form of a NodeDef: tensors compared by dtype, shape and values."""
    attrs = {}
    for key, value in node.attr.items():
        if value.WhichOneof("value") == "tensor":
            arr = tensors.to_numpy(value.tensor)
            data = tuple(arr.ravel().tolist()) if arr.dtype == object else arr.tobytes()
            attrs[key] = ("tensor", value.tensor.dtype, arr.shape, data)
        else:
            attrs[key] = value.SerializeToString(deterministic=True)
    return node.op, tuple(node.input), node.device, tuple(sorted(attrs.items()))


def assert_same_graph(ours, theirs):
    a = {n.name: normalized(n) for n in ours.node}
    b = {n.name: normalized(n) for n in theirs.node}
    assert set(a) == set(b), (sorted(set(a) - set(b))[:5], sorted(set(b) - set(a))[:5])
    different = [k for k in a if a[k] != b[k]]
    assert not different, different[:5]


@pytest.mark.parametrize("name,transforms,io", ORACLE_CASES)
def test_matches_tensorflow_engine(fx, demo_model, name, transforms, io):
    gd = load(demo_model).graph.graph_def if name == "demo" else graph_def(fx, name)
    if name == "demo":  # fold the batch-norm scales first so that Mul(Conv2D, Const) appears
        gd = run_pipeline(gd, "fold_constants", ["pixels"], ["output"])[-1].graph_def
    ours = run_pipeline(gd, transforms, *io)[-1].graph_def
    theirs = tensorflow().run_native_transform(gd, io[0], io[1], transforms)
    assert_same_graph(ours, theirs)


def test_fold_old_batch_norms_matches_tf_for_v1_and_folds_v3(fx):
    gd = graph_def(fx, "inception_jpeg.pb")
    ours = run_pipeline(gd, "fold_old_batch_norms", *INCEPTION_IO)[-1].graph_def
    theirs = tensorflow().run_native_transform(gd, *INCEPTION_IO, "fold_old_batch_norms")
    ops_ours = {n.name: n.op for n in ours.node}
    ops_tf = {n.name: n.op for n in theirs.node}
    assert ops_tf["conv_1/BatchNorm"] == "FusedBatchNormV3"  # TF's engine skips V3
    assert ops_ours["conv_1/BatchNorm"] == "BiasAdd"
    for node in ours.node:  # every V1 fold is identical to TF's
        if not node.name.startswith("conv_1/"):
            assert normalized(node) == normalized(next(n for n in theirs.node
                                                       if n.name == node.name))
    results = numeric_check(gd, ours, ["Mul"], ["softmax"], {"Mul": (1, 299, 299, 3)})
    assert results[0].max_abs_error < 1e-5 and results[0].top1_agreement == 1.0


def test_fold_constants_structure_and_numerics_match_tensorflow(fx, demo_model):
    gd = load(demo_model).graph.graph_def
    ours = run_pipeline(gd, "fold_constants", ["pixels"], ["output"])[-1].graph_def
    theirs = tensorflow().run_native_transform(gd, ["pixels"], ["output"], "fold_constants")
    non_const = lambda g: {n.name for n in g.node if n.op != "Const"}  # noqa: E731
    assert non_const(ours) == non_const(theirs)
    assert sum(n.op == "Const" for n in ours.node) == sum(n.op == "Const" for n in theirs.node)
    assert any("__cf__" in n.name for n in ours.node)
    assert ours.node[-1].name == "pixels"  # inputs move to the end, as in TF
    for other in (ours, theirs):
        r = numeric_check(gd, other, ["pixels"], ["output"], {"pixels": (4, 8, 8, 1)})[0]
        assert r.max_abs_error < 1e-5


def test_seed_pipeline_on_inception_style_graph(fx):
    gd = graph_def(fx, "inception_jpeg.pb")
    seed = ('strip_unused_nodes(type=float, shape="1,299,299,3") remove_nodes(op=Identity, '
            'op=CheckNumerics) fold_constants(ignore_errors=true) fold_batch_norms '
            'fold_old_batch_norms quantize_weights')
    reports = run_pipeline(gd, seed, *INCEPTION_IO)
    final = reports[-1].graph_def
    ratio = final.ByteSize() / gd.ByteSize()
    assert 0.2 < ratio < 0.35, ratio
    ops = {n.op for n in final.node}
    assert not ops & {"DecodeJpeg", "Cast", "ExpandDims", "ResizeBilinear", "CheckNumerics",
                      "Identity", "FusedBatchNorm", "FusedBatchNormV3"}
    r = numeric_check(gd, final, ["Mul"], ["softmax"], {"Mul": (1, 299, 299, 3)})[0]
    assert r.max_abs_error < 0.05 and r.top1_agreement >= 0.75, r
    assert [x.spec.name for x in reports][-1] == "quantize_weights"
    assert any("folded" in why for why in reports[4].reasons.values())


def test_native_transform_runs_and_is_marked(fx):
    gd = graph_def(fx, "inception_jpeg.pb")
    reports = run_pipeline(gd, "rename_node(old_node_name=softmax, new_node_name=probs)")
    assert reports[0].native and reports[0].removed == ["softmax"] and reports[0].added == ["probs"]
    assert REGISTRY["rename_node"].summary.endswith("(runs in TensorFlow's engine)")


def test_optimize_for_inference_step(fx):
    gd = graph_def(fx, "inception_jpeg.pb")
    # TF's remove_training_nodes drops the Relu inputs behind Identity->CheckNumerics chains,
    # so CheckNumerics goes first (as TF's own docs suggest with remove_nodes)
    out = run_pipeline(gd, "remove_nodes(op=CheckNumerics) optimize_for_inference",
                       *INCEPTION_IO)[-1].graph_def
    r = numeric_check(gd, out, ["Mul"], ["softmax"], {"Mul": (1, 299, 299, 3)})[0]
    assert r.max_abs_error < 1e-5 and len(out.node) < len(gd.node)
    assert not {n.op for n in out.node} & {"CheckNumerics", "FusedBatchNorm", "DecodeJpeg"}


def test_round_weights_compresses_like_eight_bits(fx):
    from inspector.core.analysis.metrics import compute_metrics

    gd = graph_def(fx, "mobilenet_v2.pb")
    before = compute_metrics(gd, with_flops=False)
    rounded = compute_metrics(run_pipeline(gd, "round_weights")[-1].graph_def, with_flops=False)
    quant = compute_metrics(run_pipeline(gd, "quantize_weights")[-1].graph_def, with_flops=False)
    assert rounded.serialized_bytes == pytest.approx(before.serialized_bytes, rel=0.01)
    assert rounded.gzip_bytes < 0.5 * before.gzip_bytes  # measured 0.46 on random weights
    assert quant.serialized_bytes < 0.3 * before.serialized_bytes
    # every big constant now holds at most 257 distinct values (num_steps=256 buckets, both
    # ends included): the rounding really happened
    out = run_pipeline(gd, "round_weights")[-1].graph_def
    big = [n for n in out.node if n.op == "Const" and
           tensors.element_count(n.attr["value"].tensor) > 1024]
    assert big and all(len(np.unique(tensors.to_numpy(n.attr["value"].tensor))) <= 257
                       for n in big)


@pytest.mark.parametrize("name,transforms,io", PYTHON_VS_NATIVE)
def test_python_versions_match_tensorflow_engine(fx, name, transforms, io):
    gd = graph_def(fx, name)
    reports = run_pipeline(gd, transforms, *io)
    assert not reports[0].native
    assert_same_graph(reports[-1].graph_def, tensorflow().run_native_transform(gd, *io, transforms))


def test_merge_duplicate_nodes_like_tensorflow_with_a_stable_survivor():
    from collections import Counter

    gd = duplicated_graph()
    ours = run_pipeline(gd, "merge_duplicate_nodes", ["input"], ["output"])[-1].graph_def
    theirs = tensorflow().run_native_transform(gd, ["input"], ["output"], "merge_duplicate_nodes")
    assert Counter(n.op for n in ours.node) == Counter(n.op for n in theirs.node)
    assert [n.name for n in ours.node] == ["input", "w", "mm", "add", "ident", "output", "sum"]
    # TF keeps whichever twin its hash map puts first; the numbers agree either way
    for other in (ours, theirs):
        r = numeric_check(gd, other, ["input"], ["output", "sum"], {"input": (1, 4)})
        assert all(x.max_abs_error == 0 for x in r)


def test_quantize_log_and_freeze_ranges_match_tensorflow(fx, tmp_path):
    from inspector.core.analysis.ranges import parse_log, percentile_range

    gd = graph_def(fx, "inception_jpeg.pb")
    prep = ('strip_unused_nodes(type=float, shape="1,299,299,3") '
            'remove_nodes(op=Identity, op=CheckNumerics) fold_old_batch_norms quantize_nodes')
    quantized = run_pipeline(gd, prep, *INCEPTION_IO)[-1].graph_def
    requant = [n.name for n in quantized.node if n.op == "RequantizationRange"]
    assert requant
    logging = 'insert_logging(op=RequantizationRange, show_name=true, message="__requant_min_max:")'
    logged = run_pipeline(quantized, logging, *INCEPTION_IO)[-1].graph_def
    assert_same_graph(logged, tensorflow().run_native_transform(quantized, *INCEPTION_IO, logging))
    rng = np.random.default_rng(3)
    lines = []
    for run in range(7):  # a log as TF prints it, with and without glog prefixes
        for name in requant:
            lo, hi = -rng.random() * 10, rng.random() * 10
            prefix = "I0108 21:45:42.261883    1972 logging_ops.cc:79] " if run % 2 else ""
            lines.append(f"{prefix};{name}__print__;__requant_min_max:[{lo:.7g}][{hi:.7g}]")
    log_path = tmp_path / "ranges.log"
    log_path.write_text("\n".join(lines) + "\nunrelated line\n")
    parsed = parse_log(log_path.read_text())
    assert set(parsed.records) == set(requant) and parsed.lines_skipped == 0
    for pct in ("", "(min_percentile=30, max_percentile=30)"):
        freeze = f'freeze_requantization_ranges(min_max_log_file="{log_path}"{pct[1:-1] and ", " + pct[1:-1]})'
        ours = run_pipeline(quantized, freeze, *INCEPTION_IO)[-1].graph_def
        assert_same_graph(ours, tensorflow().run_native_transform(quantized, *INCEPTION_IO, freeze))
    lo, hi = percentile_range([(-1, 1), (-2, 2), (-3, 3), (-4, 4), (-5, 5)], 30, 30)
    assert (lo, hi) == (-3.0, 5.0)  # mins[round(1.5)=2], maxs[round(3.5)=4]


def structural_signatures(graph) -> list:
    """Sorted per-node signatures that ignore node names: op, attrs, inputs' signatures."""
    import hashlib

    nodes = {n.name: n for n in graph.node}
    memo: dict = {}

    def sig(name: str) -> str:
        if name not in memo:
            memo[name] = "..."  # cycles (loops) are cut here
            node = nodes[name]
            parts = [node.op, repr(normalized(node)[3])]
            for text in node.input:
                ref = text.lstrip("^").split(":")
                port = ref[1] if len(ref) > 1 else "0"
                parts.append(("^" if text.startswith("^") else "") + sig(ref[0]) + ":" + port)
            memo[name] = hashlib.sha1("|".join(parts).encode()).hexdigest()
        return memo[name]

    return sorted(sig(n) for n in nodes)


@pytest.mark.parametrize("params", ["", "(fallback_min=-10, fallback_max=10)",
                                    "(input_min=-1, input_max=1)",
                                    "(ignore_op=Relu, ignore_op=MaxPool)"])
def test_quantize_nodes_equals_tensorflow_up_to_twin_names(fx, params):
    gd = graph_def(fx, "inception_jpeg.pb")
    prep = run_pipeline(gd, 'strip_unused_nodes(type=float, shape="1,299,299,3") '
                            'remove_nodes(op=Identity, op=CheckNumerics) fold_old_batch_norms',
                        *INCEPTION_IO)[-1].graph_def
    reports = run_pipeline(prep, "quantize_nodes" + params, *INCEPTION_IO)
    assert not reports[0].native
    ours = reports[-1].graph_def
    theirs = tensorflow().run_native_transform(prep, *INCEPTION_IO, "quantize_nodes" + params)
    # TF keeps whichever duplicate its hash map meets first, so names of merged twins differ;
    # everything else is identical, and the graphs are identical up to those names
    outside = lambda g: {n.name for n in g.node if "_eightbit/" not in n.name}  # noqa: E731
    assert outside(ours) == outside(theirs)
    assert structural_signatures(ours) == structural_signatures(theirs)
    if "input_min" not in params:
        for other in (ours, theirs):
            r = numeric_check(prep, other, ["Mul"], ["softmax"], {"Mul": (1, 299, 299, 3)})[0]
            assert r.max_abs_error < 0.1 and r.top1_agreement == 1.0
        same = numeric_check(ours, theirs, ["Mul"], ["softmax"], {"Mul": (1, 299, 299, 3)})[0]
        assert same.max_abs_error == 0.0


def test_fold_constants_never_executes_file_ops(tmp_path):
    from inspector.core.model import protos

    secret = tmp_path / "secret.txt"
    secret.write_text("do not read me")
    g = protos.GraphDef()
    c = g.node.add(name="fname", op="Const")
    c.attr["dtype"].type = 7
    c.attr["value"].tensor.dtype = 7
    c.attr["value"].tensor.string_val.append(str(secret).encode())
    g.node.add(name="read", op="ReadFile", input=["fname"])
    g.node.add(name="out", op="Identity", input=["read"]).attr["T"].type = 7
    out = run_pipeline(g, "fold_constants", [], ["out"])[-1].graph_def
    assert [n.op for n in out.node] == ["Const", "ReadFile", "Identity"]
    assert not any(b"do not read me" in n.SerializeToString() for n in out.node)


def shared_batch_norm_graph(shared: str):
    """Conv2D -> FusedBatchNormV3 -> out, where `shared` ('mean', 'conv', 'w' or 'stats') is
    also read by another node: the fold would lose or change what that reader gets."""
    import tensorflow as tf

    graph = tf.Graph()
    with graph.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [1, 8, 8, 3], name="input")
        w = tf.constant(np.random.default_rng(0).standard_normal((3, 3, 3, 4)), tf.float32,
                        name="w")
        conv = tf.nn.conv2d(x, w, [1, 1, 1, 1], "SAME", name="conv")
        consts = [tf.constant(v, tf.float32, name=n) for v, n in (
            ([1.0, 2, 3, 4], "scale"), ([0.1] * 4, "offset"), ([0.5] * 4, "mean"),
            ([2.0] * 4, "var"))]
        bn = tf.raw_ops.FusedBatchNormV3(x=conv, scale=consts[0], offset=consts[1],
                                         mean=consts[2], variance=consts[3], epsilon=0.001,
                                         is_training=False, name="bn")
        tf.identity(bn.y, name="out")
        reader = {"mean": lambda: consts[2] + 1.0, "conv": lambda: tf.nn.relu(conv),
                  "w": lambda: tf.nn.conv2d(x, w, [1, 1, 1, 1], "VALID"),
                  "stats": lambda: bn.batch_mean * 2.0}[shared]
        tf.identity(reader(), name="side")
    return protos.GraphDef.FromString(graph.as_graph_def().SerializeToString())


def test_fold_old_batch_norms_ends_when_a_fold_cannot_be_made(tmp_path):
    """A fold cancelled because a matched constant is read elsewhere used to count as a change,
    and the fixed-point loop matched the same batch norm forever (EfficientNet-B0 from tf.keras
    after remove_nodes(op=Identity)); a subprocess, so that a regression fails, not hangs."""
    import subprocess
    import sys

    gd = shared_batch_norm_graph("mean")
    path = tmp_path / "shared.pb"
    path.write_bytes(gd.SerializeToString())
    steps = "remove_nodes(op=Identity) fold_old_batch_norms"
    proc = subprocess.run(
        [sys.executable, "-m", "inspector", "transform", "--in_graph", str(path), "--out_graph",
         str(tmp_path / "out.pb"), "--inputs", "input", "--outputs", "out,side", "--transforms",
         steps, "--no_flops"], capture_output=True, text=True, timeout=120,
        env=dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3"))
    assert proc.returncode == 0, proc.stderr
    ours = load(str(tmp_path / "out.pb")).graph.graph_def
    assert "FusedBatchNormV3" in {n.op for n in ours.node}
    assert_same_graph(ours, tensorflow().run_native_transform(gd, ["input"], ["out", "side"],
                                                              steps))


@pytest.mark.parametrize("shared", ["conv", "w", "stats"])
def test_fold_old_batch_norms_never_changes_what_other_readers_get(shared):
    """TF folds these anyway (scaled weights under the old name): the other reader then gets
    different numbers, or a port that no longer exists. We keep the batch norm and say why."""
    gd = shared_batch_norm_graph(shared)
    report = run_pipeline(gd, "fold_old_batch_norms", ["input"], ["out", "side"])[-1]
    assert "FusedBatchNormV3" in {n.op for n in report.graph_def.node}
    assert "bn" in report.kept and ("read elsewhere" in report.kept["bn"] or
                                    "statistics" in report.kept["bn"])
    checks = numeric_check(gd, report.graph_def, ["input"], ["out", "side"])
    assert all(c.max_abs_error == 0 for c in checks)
    # the same graph without the other reader folds, and the answers stay close
    plain = shared_batch_norm_graph("mean")
    del plain.node[-2:]  # the Add on mean and its Identity
    folded = run_pipeline(plain, "fold_old_batch_norms", ["input"], ["out"])[-1].graph_def
    assert "FusedBatchNormV3" not in {n.op for n in folded.node}
    assert numeric_check(plain, folded, ["input"], ["out"])[0].max_abs_error < 1e-4


class TripsAfter:
    """A cancel flag that becomes set after `n` looks (to cancel at every check point)."""

    def __init__(self, n: int):
        self.n, self.looks = n, 0

    def is_set(self) -> bool:
        self.looks += 1
        return self.looks > self.n


def test_cancel_reaches_inside_the_transform_loops(fx):
    """Every check point stops the work at once, and some of them are inside transforms (a
    cancelled quantize_nodes or quantize_weights on a big graph used to run to the end)."""
    import traceback

    from inspector.core.errors import Cancelled

    gd = graph_def(fx, "inception_jpeg.pb")
    steps = ("remove_nodes(op=Identity) fold_old_batch_norms quantize_weights(minimum_size=8) "
             "round_weights quantize_nodes")
    counting = TripsAfter(10 ** 9)
    run_pipeline(gd, steps, *INCEPTION_IO, job=Job(counting))
    total = counting.looks
    assert total > 20
    where = set()
    for n in range(total):
        flag = TripsAfter(n)
        with pytest.raises(Cancelled) as info:
            run_pipeline(gd, steps, *INCEPTION_IO, job=Job(flag))
        assert flag.looks == n + 1  # stopped at the first look after the flag was set
        frames = [f.name for f in traceback.extract_tb(info.value.__traceback__)]
        where.add(frames[-3])  # the function that looked at the flag (ctx.check, job.check)
    assert {"run_step", "until_settled", "replace_matching", "quantize_weights",
            "round_weights", "quantize_nodes"} <= where, where
