"""Transforms: ours against TensorFlow's own engine (the oracle), and numerics in TensorFlow.

This file holds the tests that need neither TensorFlow nor Qt; the others are in
tests/tf/test_transforms_tf.py."""

import os

import pytest

from inspector.core.loaders import load
from inspector.core.transforms import REGISTRY, run_pipeline
from inspector.core.transforms.base import TransformError

INCEPTION_IO = (["Mul"], ["softmax"])


def graph_def(data, name):
    return load(os.path.join(data, name)).graph.graph_def


ORACLE_CASES = [
    ("inception_jpeg.pb", 'strip_unused_nodes(type=float, shape="1,299,299,3")', INCEPTION_IO),
    ("inception_jpeg.pb", "remove_nodes(op=Identity, op=CheckNumerics)", INCEPTION_IO),
    ("inception_jpeg.pb", "quantize_weights", INCEPTION_IO),
    ("inception_jpeg.pb", "quantize_weights(minimum_size=16)", INCEPTION_IO),
    ("inception_jpeg.pb", "round_weights(num_steps=64)", INCEPTION_IO),
    ("inception_jpeg.pb", "backport_concatv2", INCEPTION_IO),
    ("inception_jpeg.pb", "sort_by_execution_order", INCEPTION_IO),
    ("mobilenet_v2.pb", "remove_nodes(op=Identity)", (["input"], ["Identity"])),
    ("mobilenet_v2.pb", "sort_by_execution_order", ([], [])),
    ("mobilenet_v2.pb", "quantize_weights round_weights", ([], [])),
    ("v1_training.pb", "remove_control_dependencies remove_device", ([], [])),
    ("v1_training.pb", 'set_device(device="/cpu:0", if_default=true)', ([], [])),
    ("v1_training.pb", "rename_op(old_op_name=Relu, new_op_name=Relu6)", ([], [])),
    ("v1_training.pb", "remove_attribute(attribute_name=T, op_name=Relu)", ([], [])),
    ("v1_training.pb", "rename_attribute(old_attribute_name=T, new_attribute_name=U)", ([], [])),
    ("v1_training.pb", "strip_unused_nodes(name=input, type_for_name=float, "
                       "shape_for_name=\"2,8,8,1\")", (["input"], ["output"])),
    ("while_v1.pb", "sort_by_execution_order", ([], [])),
    ("demo", "fold_batch_norms", ([], [])),
]


def test_ignore_errors_as_in_tensorflow(data):
    gd = graph_def(data, "inception_jpeg.pb")
    with pytest.raises(TransformError, match="Input node nope not found"):
        run_pipeline(gd, "strip_unused_nodes", ["nope"], ["softmax"])
    reports = run_pipeline(gd, "strip_unused_nodes(ignore_errors=true)", ["nope"], ["softmax"])
    assert reports[0].graph_def is gd and "nope" in reports[0].ignored_error
    with pytest.raises(TransformError, match="ignore_errors should be true or false, found 1"):
        run_pipeline(gd, "remove_device(ignore_errors=1)")
    with pytest.raises(TransformError, match="Transform 'bogus' not recognized"):
        run_pipeline(gd, "bogus")


def test_every_tf_transform_is_registered():
    tf_names = {"add_default_attributes", "backport_concatv2", "backport_tensor_array_v3",
                "flatten_atrous_conv", "fold_batch_norms", "fold_constants",
                "fold_old_batch_norms", "freeze_requantization_ranges", "fuse_pad_and_conv",
                "fuse_resize_and_conv", "fuse_resize_pad_and_conv", "inline_partitionedcall",
                "insert_logging", "merge_duplicate_nodes", "obfuscate_names", "quantize_nodes",
                "quantize_weights", "remove_attribute", "remove_control_dependencies",
                "remove_device", "remove_nodes", "rename_attribute", "rename_node",
                "rename_op", "round_weights", "set_device", "sort_by_execution_order",
                "sparsify_gather", "strip_unused_nodes"}
    assert tf_names <= set(REGISTRY)
    assert "optimize_for_inference" in REGISTRY


def duplicated_graph():
    """The reference graph with twin MatMuls and twin Consts that merge in cascade."""
    from test_summary import reference_graph

    g = reference_graph()
    w3 = g.node.add()
    w3.CopyFrom(g.node[1])
    w3.name = "w3"
    g.node.add(name="mm3", op="MatMul", input=["input", "w3"]).attr["T"].type = 1
    g.node.add(name="mm4", op="MatMul", input=["input", "w"]).attr["T"].type = 1
    g.node.add(name="sum", op="AddN", input=["mm3", "mm4", "^mm"]).attr["N"].i = 2
    for node in g.node:
        if node.op in ("MatMul", "AddV2", "Identity", "Relu", "AddN"):
            node.attr["T"].type = 1
    return g


PYTHON_VS_NATIVE = [
    ("inception_jpeg.pb", "obfuscate_names", INCEPTION_IO),
    ("mobilenet_v2.pb", "obfuscate_names", (["input"], ["Identity"])),
    ("v1_training.pb", "add_default_attributes", ([], [])),
    ("inception_jpeg.pb", 'insert_logging(op=Conv2D, op=MatMul, show_name=true, show_op=true, '
                          'message="hello", first_n=3)', INCEPTION_IO),
    ("v1_training.pb", "insert_logging(prefix=fc, summarize=5)", ([], [])),
]


def test_two_print_messages_on_one_line_both_count():
    """TF's Print kernel writes its message, then the newline, as two writes: two Print ops
    running at once leave `msgAmsgB` on one line and an empty one after it. Both count."""
    from inspector.core.analysis.ranges import parse_line, parse_log

    a = ";conv/requant__print__;__requant_min_max:[-3.5][2.25]"
    b = ";fc/requant__print__;__requant_min_max:[-1][4]"
    text = f"{a}\n{a}{b}\n\n{b}\nI0108 21:45:42.261 1 logging_ops.cc:79] {b}{a}\n"
    log = parse_log(text)
    assert log.records == {"conv/requant": [(-3.5, 2.25)] * 3, "fc/requant": [(-1.0, 4.0)] * 3}
    assert log.lines_read == 4 and log.lines_skipped == 0
    assert parse_line(a + b) == ("fc/requant", -1.0, 4.0)   # TF's reader keeps only the last
    broken = parse_log(a + ";x__print__;__requant_min_max:[nan][1]\n")
    assert broken.records == {"conv/requant": [(-3.5, 2.25)]} and broken.lines_skipped == 1


# Every registered transform and the test that checks it against TF's engine (oracle) or by
# its behaviour; the test below fails when a transform is added without one.
COVERAGE = {
    "strip_unused_nodes": "test_matches_tensorflow_engine",
    "remove_nodes": "test_matches_tensorflow_engine",
    "quantize_weights": "test_matches_tensorflow_engine",
    "round_weights": "test_matches_tensorflow_engine",
    "backport_concatv2": "test_matches_tensorflow_engine",
    "sort_by_execution_order": "test_matches_tensorflow_engine",
    "remove_control_dependencies": "test_matches_tensorflow_engine",
    "remove_device": "test_matches_tensorflow_engine",
    "set_device": "test_matches_tensorflow_engine",
    "rename_op": "test_matches_tensorflow_engine",
    "remove_attribute": "test_matches_tensorflow_engine",
    "rename_attribute": "test_matches_tensorflow_engine",
    "fold_batch_norms": "test_matches_tensorflow_engine",
    "fold_old_batch_norms": "test_fold_old_batch_norms_matches_tf_for_v1_and_folds_v3",
    "fold_constants": "test_fold_constants_structure_and_numerics_match_tensorflow",
    "optimize_for_inference": "test_optimize_for_inference_step",
    "obfuscate_names": "test_python_versions_match_tensorflow_engine",
    "add_default_attributes": "test_python_versions_match_tensorflow_engine",
    "insert_logging": "test_python_versions_match_tensorflow_engine",
    "merge_duplicate_nodes": "test_merge_duplicate_nodes_like_tensorflow_with_a_stable_survivor",
    "freeze_requantization_ranges": "test_quantize_log_and_freeze_ranges_match_tensorflow",
    "quantize_nodes": "test_quantize_nodes_equals_tensorflow_up_to_twin_names",
    **{name: "test_native_transforms.test_native_transform_changes_its_graph_as_tf_does"
       for name in ("fuse_resize_and_conv", "fuse_pad_and_conv", "fuse_resize_pad_and_conv",
                    "flatten_atrous_conv", "inline_partitionedcall", "backport_tensor_array_v3",
                    "sparsify_gather", "rename_node")},
}


def test_every_registered_transform_has_an_oracle_or_behaviour_case():
    import importlib

    assert set(COVERAGE) == set(REGISTRY), set(REGISTRY) ^ set(COVERAGE)
    here = {**vars(importlib.import_module("test_transforms_tf")), **globals()}  # and its TF half
    for name, test in COVERAGE.items():
        module, _, function = test.rpartition(".")
        holder = importlib.import_module(module) if module else here
        assert callable(getattr(holder, function, None) if module else holder.get(function)), \
            (name, test)
    oracle_specs = " ".join(t for _, t, _ in ORACLE_CASES + PYTHON_VS_NATIVE)
    for name, test in COVERAGE.items():
        if test in ("test_matches_tensorflow_engine",
                    "test_python_versions_match_tensorflow_engine"):
            assert name in oracle_specs, name


def test_fixed_point_loops_have_a_pass_limit_with_a_clear_error():
    from inspector.core.transforms.base import Context

    ctx = Context([], [], {}, name="endless")
    with pytest.raises(TransformError, match="endless did not settle after 5 passes"):
        ctx.until_settled(lambda g: (g, True), duplicated_graph(), limit=5)


def test_a_step_that_changes_nothing_says_why_and_what_to_use(data):
    graph_def = load(os.path.join(data, "inception_jpeg.pb")).graph.graph_def
    slim = run_pipeline(graph_def, "fold_batch_norms remove_device fold_old_batch_norms "
                                   "fold_old_batch_norms", [], ["softmax"])
    assert slim[0].outcome().startswith("changed nothing: no Mul by a constant")
    assert "(4 FusedBatchNorm, 1 FusedBatchNormV3)" in slim[0].unchanged
    assert "fold_old_batch_norms" in slim[0].unchanged
    assert slim[1].unchanged == "this graph has nothing this step changes"
    assert slim[2].unchanged == "" and slim[2].changed     # it folds them
    assert "no batch-norm op" in slim[3].unchanged and "fold_batch_norms" in slim[3].unchanged


def _conv_bn(gamma_through_identity=False, stats_from=None):
    """x -> Conv2D(const weights) -> FusedBatchNormV3 (inference), its four parameters Consts
    (gamma read through an Identity; mean and variance from `stats_from`'s node instead)."""
    from inspector.core.model import protos

    g = protos.GraphDef()
    g.node.add(name="x", op="Placeholder").attr["dtype"].type = 1
    for name, dims, values in (("w", (1, 1, 1, 2), [1.0, 2.0]), ("gamma", (2,), [1.0, 1.0]),
                               ("beta", (2,), [0.0, 0.5]), ("mean", (2,), [0.1, 0.2]),
                               ("var", (2,), [1.0, 4.0])):
        c = g.node.add(name=name, op="Const")
        c.attr["dtype"].type = 1
        tensor = c.attr["value"].tensor
        tensor.dtype = 1
        for d in dims:
            tensor.tensor_shape.dim.add(size=d)
        tensor.float_val.extend(values)
    for d in (1, 4, 4, 1):
        g.node[0].attr["shape"].shape.dim.add(size=d)
    conv = g.node.add(name="conv", op="Conv2D", input=["x", "w"])
    conv.attr["T"].type = 1
    conv.attr["padding"].s = b"SAME"
    conv.attr["strides"].list.i.extend([1, 1, 1, 1])
    gamma = "gamma"
    if gamma_through_identity:
        g.node.add(name="gamma/read", op="Identity", input=["gamma"])
        gamma = "gamma/read"
    mean, var = "mean", "var"
    if stats_from:
        g.node.add(name="is_training", op="PlaceholderWithDefault", input=["beta"])
        g.node.add(name="pick", op=stats_from, input=["is_training", "mean", "var"])
        g.node.add(name="pick/Identity", op="Identity", input=["pick"])
        mean, var = "pick/Identity", "pick:1"
    bn = g.node.add(name="bn", op="FusedBatchNormV3", input=["conv", gamma, "beta", mean, var])
    bn.attr["epsilon"].f = 0.001
    return g


def test_fold_old_batch_norms_says_what_keeps_each_batch_norm_from_folding():
    """Regression: on v1_training.meta (frozen) it advised "freeze the graph first, or
    fold_constants": the graph was frozen, and fold_constants then folds nothing, for the
    statistics come from an If on the is_training switch. The advice now names what blocks
    the fold, the switch first (neither freezing nor folding resolves it)."""
    from inspector.core.transforms.fold_old_batch_norms import why_unchanged

    data = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
    v1 = load(os.path.join(data, "v1_training.pb")).graph.graph_def    # the If, unfrozen
    said = why_unchanged(v1)
    assert "'bn1/select_stats', an If" in said and "by 'is_training'" in said
    assert "Export the model for inference" in said and "freeze the graph first" not in said
    for op in ("If", "StatelessIf"):
        said = why_unchanged(_conv_bn(gamma_through_identity=True, stats_from=op))
        assert f"come from 'pick', an {op}" in said, said
    said = why_unchanged(_conv_bn(gamma_through_identity=True))
    assert said.endswith("constants read through Identity nodes: fold_constants first"), said
    # and fold_constants then lets it fold: the advice holds
    steps = run_pipeline(_conv_bn(gamma_through_identity=True), "fold_constants "
                         "fold_old_batch_norms", ["x"], ["bn"])
    assert steps[1].changed, steps[1].unchanged
