"""Files, sizes and messages: writes are atomic and leave nothing behind, declared sizes are
checked before allocating, every GraphDef field survives saving, TF's errors say what failed.

This file holds the tests that need TensorFlow (an oracle, a model built or run by it); the
others are in tests/core/test_robustness.py."""

from __future__ import annotations

import os
import shutil

import numpy as np
import pytest

from inspector.core.errors import InspectorError
from inspector.core.model import protos


def test_tf_errors_name_the_cause_and_the_node():
    from inspector.core.runtime.executor import tensorflow

    gd = protos.GraphDef()
    x = gd.node.add(name="x", op="Placeholder")
    x.attr["dtype"].type = 1
    shape = gd.node.add(name="shape", op="Const")
    shape.attr["dtype"].type = 3
    value = shape.attr["value"].tensor
    value.dtype = 3
    value.tensor_shape.dim.add(size=2)
    value.int_val.extend([3, 5])
    r = gd.node.add(name="r", op="Reshape", input=["x", "shape"])
    r.attr["T"].type, r.attr["Tshape"].type = 1, 3
    with pytest.raises(InspectorError) as info:
        tensorflow().run_graph(gd, {"x": np.ones(4, np.float32)}, ["r"])
    text = info.value.one_line()
    assert "Input to reshape is a tensor with 4 values" in text and "node 'r'" in text
    assert "Graph execution error" not in text


def test_a_truncated_checkpoint_is_an_error_not_a_model(fx, tmp_path):
    from inspector.core.loaders import load

    for name in os.listdir(fx):
        if name.startswith("v1_training.ckpt") or name == "v1_training.meta":
            shutil.copy(os.path.join(fx, name), tmp_path)
    data = next(f for f in os.listdir(tmp_path) if ".data-" in f)
    raw = (tmp_path / data).read_bytes()
    (tmp_path / data).write_bytes(raw[: len(raw) // 2])
    with pytest.raises(InspectorError, match="Read less bytes than requested"):
        load(str(tmp_path / "v1_training.meta"), checkpoint=str(tmp_path / "v1_training.ckpt"),
             outputs=["output"])
