"""The transforms that run in TensorFlow's own engine, each on a small graph it changes: the
pipeline passes names and parameters through unchanged, marks the step as native, and the
result is what TF's engine gives when called directly."""

from __future__ import annotations

import numpy as np
import pytest

from inspector.core.model import protos
from inspector.core.runtime.executor import tensorflow
from inspector.core.transforms import run_pipeline


def _graph(build):
    import tensorflow as tf

    graph = tf.Graph()
    with graph.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [1, 8, 8, 2], name="x")
        tf.identity(build(tf, x), name="y")
    return protos.GraphDef.FromString(graph.as_graph_def().SerializeToString())


def _filter(tf, cin=2, cout=3):
    return tf.constant(np.linspace(-1, 1, 3 * 3 * cin * cout, dtype=np.float32)
                       .reshape(3, 3, cin, cout))


def resize_conv(tf, x):
    return tf.nn.conv2d(tf.compat.v1.image.resize_bilinear(x, [12, 12]), _filter(tf), 1, "VALID")


def pad_conv(tf, x):
    return tf.nn.conv2d(tf.pad(x, [[0, 0], [1, 1], [1, 1], [0, 0]], "REFLECT"), _filter(tf), 1,
                        "VALID")


def resize_pad_conv(tf, x):
    y = tf.pad(tf.compat.v1.image.resize_bilinear(x, [12, 12]), [[0, 0], [1, 1], [1, 1], [0, 0]],
               "REFLECT")
    return tf.nn.conv2d(y, _filter(tf), 1, "VALID")


def atrous(tf, x):
    return tf.nn.atrous_conv2d(x, _filter(tf), rate=2, padding="SAME")


def call(tf, x):
    @tf.function
    def double(v):
        return v * 2.0

    return double(x)


def tensor_array(tf, x):
    """TF1 TensorArray ops (graph mode now builds TensorLists instead)."""
    handle, flow = tf.raw_ops.TensorArrayV3(size=tf.constant(2), dtype=tf.float32)
    flow = tf.raw_ops.TensorArrayWriteV3(handle=handle, index=tf.constant(0), value=x,
                                         flow_in=flow)
    flow = tf.raw_ops.TensorArrayWriteV3(handle=handle, index=tf.constant(1), value=x * 3.0,
                                         flow_in=flow)
    return tf.raw_ops.TensorArrayReadV3(handle=handle, index=tf.constant(1), flow_in=flow,
                                        dtype=tf.float32)


def gather(tf, x):
    table = tf.constant(np.array([[0.0], [2.5], [0.0], [-1.5]], np.float32))
    ids = tf.constant([1, 3], tf.int32)
    return tf.reduce_sum(x) + tf.reduce_sum(tf.gather(tf.identity(table), ids))


CASES = [
    ("fuse_resize_and_conv", resize_conv, "FusedResizeAndPadConv2D"),
    ("fuse_pad_and_conv", pad_conv, "FusedPadConv2D"),
    ("fuse_resize_pad_and_conv", resize_pad_conv, "FusedResizeAndPadConv2D"),
    ("flatten_atrous_conv", atrous, None),
    ("inline_partitionedcall", call, None),
    ("backport_tensor_array_v3", tensor_array, "TensorArrayV2"),
    ("sparsify_gather", gather, "HashTable"),
    ("rename_node(old_node_name=y, new_node_name=z)", lambda tf, x: x * 2.0, None),
]


@pytest.mark.parametrize("transform,build,new_op", CASES, ids=[c[0].split("(")[0] for c in CASES])
def test_native_transform_changes_its_graph_as_tf_does(transform, build, new_op):
    gd = _graph(lambda tf, x: build(tf, x))
    outputs = ["z"] if transform.startswith("rename_node") else ["y"]
    report = run_pipeline(gd, transform, ["x"], ["y"])[-1]
    assert report.native
    direct = tensorflow().run_native_transform(gd, ["x"], ["y"], transform)
    assert report.graph_def == direct
    assert report.graph_def != gd and (report.removed or report.added or report.changed)
    if new_op:
        assert new_op in {n.op for n in report.graph_def.node}
    assert outputs[0] in {n.name for n in report.graph_def.node}
