"""Recipe rows as `tflite --recipe` gives them on an untrained MobileNetV2 (weights=None):
a recipe that fails keeps the run (its row says why and offers TF's converter's file, the
others write theirs, exit 1); each figure names the kernels that made it; degenerate rows
say so (a constant output's top-1; a file byte-identical to another recipe's)."""

from __future__ import annotations

import json
import os
import re

import pytest

from tests.conftest import run_cli


@pytest.fixture(scope="module")
def mobilenet_run(fx, tmp_path_factory):
    out = tmp_path_factory.mktemp("recipes")
    code, text, err = run_cli("tflite", os.path.join(fx, "mobilenet_v2.pb"), "--recipe",
                              "float,int8,dynamic", "--samples", "4", "--compare", "2", "-o",
                              str(out), "--json")
    return code, json.loads(text) if text.strip() else None, err, out


def test_a_failing_recipe_keeps_the_run_and_offers_tfs_file(mobilenet_run):
    code, found, err, out = mobilenet_run
    assert found is not None, err
    assert code == 1                           # one recipe failed: not 0, and not exit 2
    rows = {r["recipe"]: r for r in found["recipes"]}
    assert list(rows) == ["float", "int8", "dynamic"]
    int8 = rows["int8"]
    assert int8["failed"].startswith("int8 by ai-edge-quantizer: ")
    assert "DEPTHWISE_CONV_2D" in int8["failed"] and "builtin kernels" in int8["failed"]
    assert int8["tool"] == "TF's converter (fallback)"
    for name in ("float", "int8", "dynamic"):  # every row its file, int8 TF's converter's
        path = out / f"mobilenet_v2_{name}.tflite"
        assert rows[name]["file"] == str(path) and path.stat().st_size == rows[name]["size"]
    from ai_edge_litert.interpreter import Interpreter, OpResolverType

    interp = Interpreter(model_path=str(out / "mobilenet_v2_int8.tflite"),
                         experimental_op_resolver_type=OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES)
    interp.allocate_tensors()                  # the fallback prepares where the other failed
    assert not rows["float"]["failed"] and not rows["dynamic"]["failed"]


def test_each_figure_names_its_kernels_and_both_runtimes_are_shown(mobilenet_run):
    _, found, err, _ = mobilenet_run
    assert found["kernels"]["answers"].startswith("XNNPACK")
    assert "without XNNPACK" in found["kernels"]["tensors"]
    dynamic = {r["recipe"]: r for r in found["recipes"]}["dynamic"]
    assert set(dynamic["output_builtin"]) >= {"mse", "snr_db", "cosine", "max_abs"}


def test_a_constant_output_says_its_top1_is_meaningless(mobilenet_run):
    _, found, _, _ = mobilenet_run
    rows = {r["recipe"]: r for r in found["recipes"]}
    assert rows["float"]["top1"] == 1.0       # an untrained softmax: 1/1000 everywhere
    assert any("top-1 is meaningless" in n for n in rows["float"]["notes"])
    assert any("top-1 is meaningless" in n for n in rows["int8"]["notes"])


def test_the_text_table_names_the_failed_recipe_without_scientific_notation(
        fx, monkeypatch, capsys):
    from inspector.cli.main import main
    from inspector.core.analysis import flops

    monkeypatch.setitem(flops.DEVICE_PRESETS, "phone", 0.1e9)   # estimates over 1,000 ms
    model = os.path.join(fx, "mobilenet_v2.pb")
    code = main(["tflite", model, "--recipe", "int8", "--samples", "4", "--compare", "2"])
    text = capsys.readouterr().out
    assert code == 1, text
    assert "int8              failed: int8 by ai-edge-quantizer: " in text
    assert "  fallback" in text and "TF's converter (fallback)" in text
    assert "XNNPACK" in text and "builtin kernels" in text
    assert re.search(r"fallback +3,\d{3},\d{3} +\d,\d{3} ", text)     # 1,2xx ms, not 1.2e+03
    code = main(["tflite", model, "--variants", "float", "--samples", "2", "--compare", "1"])
    text = capsys.readouterr().out
    assert code == 0 and re.search(r"  \d,\d{3} ms", text) and "e+" not in text, text


def test_int4_blockwise_without_fully_connected_is_dynamics_file_and_no_pareto_point(tmp_path):
    import tensorflow as tf
    from tensorflow.python.framework.convert_to_constants import (
        convert_variables_to_constants_v2,
    )

    w = tf.constant(tf.random.stateless_normal([3, 3, 3, 8], [1, 2]))
    fn = tf.function(lambda x: tf.reduce_mean(tf.nn.relu(tf.nn.conv2d(x, w, 1, "SAME")),
                                              [1, 2], name="out")).get_concrete_function(
        tf.TensorSpec([1, 16, 16, 3], tf.float32, name="x"))
    path = tmp_path / "conv_only.pb"
    path.write_bytes(convert_variables_to_constants_v2(fn).graph.as_graph_def()
                     .SerializeToString())
    code, text, err = run_cli("tflite", str(path), "--recipe", "dynamic,int4-blockwise",
                              "--samples", "4", "--compare", "2", "--json")
    assert code == 0, err
    found = json.loads(text)
    rows = {r["recipe"]: r for r in found["recipes"]}
    int4 = rows["int4-blockwise"]
    assert int4["size"] == rows["dynamic"]["size"] and int4["same_as"] == "dynamic"
    assert any("byte-identical to dynamic's file: the model has no FULLY_CONNECTED" in n
               for n in int4["notes"])
    assert "int4-blockwise" not in found["pareto"] and "dynamic" in found["pareto"]
