"""The preview engine without Qt: numbers equal compute_metrics of the same pipeline, rows
handed out never change, caches are keyed by what made each graph and stay bounded.

This file holds the tests that need TensorFlow (an oracle, a model built or run by it); the
others are in tests/core/test_preview.py."""

from __future__ import annotations

import os

import test_preview

from inspector.core.analysis.metrics import compute_metrics
from inspector.core.app.preview import PreviewEngine
from inspector.core.loaders import load
from inspector.core.transforms import parse_transforms, run_pipeline

graph_def = test_preview.graph_def   # the fixture, shared with tests/core


def test_two_input_shapes_with_the_same_node_count_do_not_share_flops(fx):
    engine = PreviewEngine(load(os.path.join(fx, "v1_training.pb")).graph.graph_def)
    steps = parse_transforms('strip_unused_nodes(type=float, shape="1,8,8,1")')
    small = engine.run(steps, ["input"], ["output"], {"input": (1, 8, 8, 1)})
    big = engine.run(steps, ["input"], ["output"], {"input": (2, 8, 8, 1)})
    # (a row carries totals, by op type, not a count per node: FlopReport.totals)
    conv = [r.metrics.flops.ops["Conv2D"] for r in (small[0], big[0])]
    assert conv[0] > 0 and conv[1] == 2 * conv[0]


PALETTE = {
    "add_default_attributes": "add_default_attributes",
    "backport_concatv2": "backport_concatv2",
    "backport_tensor_array_v3": "backport_tensor_array_v3",
    "flatten_atrous_conv": "flatten_atrous_conv",
    "fold_batch_norms": "fold_batch_norms",
    "fold_constants": "fold_constants(ignore_errors=true)",
    "fold_old_batch_norms": "fold_old_batch_norms",
    "freeze_requantization_ranges": "quantize_nodes freeze_requantization_ranges("
                                    "min_max_log_file={log})",
    "fuse_pad_and_conv": "fuse_pad_and_conv",
    "fuse_resize_and_conv": "fuse_resize_and_conv",
    "fuse_resize_pad_and_conv": "fuse_resize_pad_and_conv",
    "inline_partitionedcall": "inline_partitionedcall",
    "insert_logging": "insert_logging(op=Conv2D)",
    "merge_duplicate_nodes": "merge_duplicate_nodes",
    "obfuscate_names": "obfuscate_names",
    "optimize_for_inference": "optimize_for_inference",
    "quantize_nodes": "quantize_nodes",
    "quantize_weights": "quantize_weights",
    "remove_attribute": "remove_attribute(attribute_name=T, op_name=Relu)",
    "remove_control_dependencies": "remove_control_dependencies",
    "remove_device": "remove_device",
    "remove_nodes": "remove_nodes(op=Identity, op=CheckNumerics)",
    "rename_attribute": "rename_attribute(old_attribute_name=data_format, "
                        "new_attribute_name=data_format)",
    "rename_node": "rename_node(old_node_name=pool, new_node_name=pool_renamed)",
    "rename_op": "rename_op(old_op_name=Relu, new_op_name=Relu6)",
    "round_weights": "round_weights",
    "set_device": 'set_device(device="/cpu:0")',
    "sort_by_execution_order": "sort_by_execution_order",
    "sparsify_gather": "sparsify_gather",
    "strip_unused_nodes": 'strip_unused_nodes(type=float, shape="1,299,299,3")',
}


def test_preview_numbers_equal_the_metrics_of_the_saved_result_for_every_transform(
        graph_def, tmp_path):
    """One engine for all: the old cache keyed FLOPs by object ids, which Python reuses, and
    showed another graph's FLOPs after quantize_weights (11.48 G -> 80.8 M)."""
    from inspector.core.transforms import REGISTRY

    log = tmp_path / "ranges.log"
    quantized = run_pipeline(graph_def, "quantize_nodes", ["Mul"], ["softmax"])[-1].graph_def
    log.write_text("".join(f";{n.name}__print__;__requant_min_max:[-2][6]\n"
                           for n in quantized.node if n.op == "RequantizationRange"))
    assert set(PALETTE) == set(REGISTRY)
    engine = PreviewEngine(graph_def)
    shapes = {"Mul": (1, 299, 299, 3)}
    for name, text in PALETTE.items():
        text = text.format(log=str(log))
        rows = engine.run(parse_transforms(text), ["Mul"], ["softmax"], shapes)
        assert not rows[-1].error, (name, rows[-1].error)
        saved = run_pipeline(graph_def, text, ["Mul"], ["softmax"])[-1].graph_def
        expected = compute_metrics(saved, shapes)
        got = rows[-1].metrics
        assert (got.node_count, got.serialized_bytes, got.gzip_bytes) == \
            (expected.node_count, expected.serialized_bytes, expected.gzip_bytes), name
        assert got.flops.known == expected.flops.known, name
        assert got.flops.total == expected.flops.total, name
        assert got.flops.unknown == expected.flops.unknown, name


def test_an_open_batch_counts_with_batch_1_and_says_so(fx):
    engine = PreviewEngine(load(os.path.join(fx, "v1_training.pb")).graph.graph_def)
    rows = engine.run([], ["input"], ["output"])
    flops = rows[0].metrics.flops
    assert flops.known and flops.ops["Conv2D"] > 0 and not flops.per_node
    assert flops.assumed == ["batch 1 assumed for input 'input'",
                             "batch 1 assumed for input 'labels'"]


def test_flops_tf_cannot_count_are_unknown_with_the_reason_not_zero(fx):
    engine = PreviewEngine(load(os.path.join(fx, "v1_training.pb")).graph.graph_def)
    rows = engine.run([], ["input"], ["output"], {"input": (4, 8, 8, 1), "labels": (3,)})
    flops = rows[0].metrics.flops
    assert not flops.known and "cannot import" in flops.unknown and rows[0].metrics.latency_ms \
        == {}
