"""Quantization recipes (ai-edge-quantizer, LiteRT) on a real model: a recipe that keeps one
layer float leaves that layer's ops float in the .tflite (read by our own reader) and its
error drops; the table's figures equal a direct LiteRT run; per-tensor metrics equal numpy's
on the same tensors."""

from __future__ import annotations

import os

import numpy as np
import pytest

from inspector.core.loaders import load
from inspector.core.loaders.tflite import read_model
from inspector.core.mobile import recipes
from inspector.core.mobile.tflite_preview import gather_samples

KEEP = "mixed/tower_1/conv_1/"            # one Conv2D+BN+Relu layer of the Inception block
SHAPES = {"Mul": [1, 299, 299, 3]}
SOURCE = {"kind": "random", "count": 12, "seed": 0}


@pytest.fixture(scope="module")
def inception(fx):
    return load(os.path.join(fx, "inception_jpeg.pb")).graph


@pytest.fixture(scope="module")
def reports(inception):
    run = lambda keep: recipes.run_recipes(inception.graph_def, ["Mul"], ["softmax"], SHAPES,
                                          ["int8"], keep, SOURCE, compare_count=6,
                                          tensor_count=4, flops=10 ** 9)
    return run(""), run(KEEP)


def _layer_ops(model: bytes, name: str) -> list:
    tfl = read_model(model, "variant.tflite").subgraphs[0]
    return [(op.op, [tfl.tensors[i].dtype for i in op.inputs if i >= 0])
            for op in tfl.operators if name in tfl.tensors[op.outputs[0]].name]


def test_keeping_a_layer_float_makes_its_ops_float_and_its_error_drop(reports):
    plain, kept = (r.result("int8") for r in reports)
    assert plain.tool == kept.tool == "ai-edge-quantizer" and kept.keep_float == KEEP
    before, after = _layer_ops(plain.model, KEEP), _layer_ops(kept.model, KEEP)
    assert [op for op, _ in before] == ["CONV_2D"]
    assert [op for op, _ in after] == ["CONV_2D", "QUANTIZE"]     # back to int8 after it
    assert before[0][1] == ["INT8", "INT8", "INT32"]             # read by our reader
    assert after[0][1] == ["FLOAT32", "FLOAT32", "FLOAT32"]
    others = [d for op, d in _layer_ops(kept.model, "mixed/tower_0/conv/") if op == "CONV_2D"]
    assert others == [["INT8", "INT8", "INT32"]]                  # the rest stays int8
    err = lambda row: next(e for e in row.tensors if KEEP + "Relu" in e.tensor)
    assert err(kept).dtype == "float32" and err(plain).dtype == "int8"
    assert err(kept).mse < err(plain).mse and err(kept).snr_db > err(plain).snr_db
    print(f"\n{KEEP} int8: MSE {err(plain).mse:.3g} SNR {err(plain).snr_db:.1f} dB; kept "
          f"float: MSE {err(kept).mse:.3g} SNR {err(kept).snr_db:.1f} dB")


def test_table_figures_equal_a_direct_litert_run(reports, inception):
    from ai_edge_litert.interpreter import Interpreter

    from inspector.core.tf import run

    row = reports[1].result("int8")
    samples, _, _ = gather_samples(inception, ["Mul"], SHAPES, SOURCE)
    interp = Interpreter(model_content=row.model)
    interp.allocate_tensors()
    refs, gots = [], []
    ind, outd = interp.get_input_details()[0], interp.get_output_details()[0]
    assert ind["dtype"] == np.int8 and outd["dtype"] == np.int8   # full integer in and out
    (si, zi), (so, zo) = ind["quantization"], outd["quantization"]
    for feeds in samples[:6]:
        x = np.clip(np.round(feeds["Mul"] / si + zi), -128, 127).astype(np.int8)
        interp.set_tensor(ind["index"], x)
        interp.invoke()
        gots.append((interp.get_tensor(outd["index"]).astype(np.float64) - zo) * so)
        refs.append(run.run_graph(inception.graph_def, feeds, ["softmax"])[0].astype(
            np.float64))
    ref, got = np.concatenate([r.ravel() for r in refs]), np.concatenate(
        [g.ravel() for g in gots])
    assert row.size == len(row.model) and row.compared == 6
    assert row.output["mse"] == pytest.approx(np.mean((ref - got) ** 2), rel=1e-9)
    assert row.output["max_abs"] == pytest.approx(np.max(np.abs(ref - got)), rel=1e-9)
    assert row.output["cosine"] == pytest.approx(
        ref @ got / np.linalg.norm(ref) / np.linalg.norm(got), rel=1e-9)
    assert row.output["snr_db"] == pytest.approx(
        10 * np.log10(np.sum(ref ** 2) / np.sum((ref - got) ** 2)), rel=1e-9)
    assert row.top1 == np.mean([np.argmax(r) == np.argmax(g) for r, g in zip(refs, gots)])
    assert row.host_ms > 0
    assert row.latency_ms["phone"] == pytest.approx(1000.0 * 1e9 / 10e9 / 3.0)   # int8: 3x


def test_per_tensor_metrics_equal_numpy_on_the_same_tensors(reports, inception):
    from inspector.core.tf import litert

    t0 = reports[0]
    row = t0.result("int8")
    float_model = recipes_float_model(inception)
    samples, _, _ = gather_samples(inception, ["Mul"], SHAPES, SOURCE)
    feeds = [[s["Mul"]] for s in samples[:t0.tensor_samples]]
    for err in row.tensors[:5]:
        ref, _ = litert.tflite_tensors(float_model, feeds, [err.tensor])
        got, _ = litert.tflite_tensors(row.model, feeds, [err.tensor])
        a = np.concatenate([x.ravel() for x in ref[err.tensor]]).astype(np.float64)
        b = np.concatenate([x.ravel() for x in got[err.tensor]]).astype(np.float64)
        assert err.mse == pytest.approx(np.mean((a - b) ** 2), rel=1e-9)
        assert err.max_abs == pytest.approx(np.max(np.abs(a - b)), rel=1e-9)
        assert err.cosine == pytest.approx(a @ b / np.linalg.norm(a) / np.linalg.norm(b),
                                           rel=1e-9)
        assert err.snr_db == pytest.approx(10 * np.log10(a @ a / ((a - b) @ (a - b))),
                                           rel=1e-9)
        assert err.nodes and all(n in inception for n in err.nodes)
    nsr = [e.nsr for e in row.tensors]
    assert nsr == sorted(nsr, reverse=True)                   # worst first


def recipes_float_model(graph):
    from inspector.core.tf import lite

    return lite.convert_tflite(graph.graph_def, ["Mul"], ["softmax"], "float",
                               input_shapes=SHAPES)["model"]


def test_recipes_through_the_command_line(tmp_path, fx):
    import json

    from tests.conftest import run_cli

    code, out, err = run_cli("tflite", os.path.join(fx, "inception_jpeg.pb"), "--inputs", "Mul",
                             "--outputs", "softmax", "--input-shape", "Mul=1,299,299,3",
                             "--recipe", "int8,float16", "--keep-float", KEEP, "--samples",
                             "8", "--compare", "4", "-o", str(tmp_path), "--json")
    assert code == 0, err
    found = json.loads(out)
    rows = {r["recipe"]: r for r in found["recipes"]}
    assert set(rows) == {"int8", "float16"} and found["keep_float"] == KEEP
    assert found["interpreter"].startswith("LiteRT ")
    int8 = rows["int8"]
    assert os.path.getsize(int8["file"]) == int8["size"]
    assert set(int8["output"]) >= {"mse", "snr_db", "cosine", "max_abs"}
    assert int8["tensors"] and {"mse", "snr_db", "cosine", "max_abs", "nodes"} <= \
        set(int8["tensors"][0])
    assert _layer_ops(open(int8["file"], "rb").read(), KEEP)[0][1][0] == "FLOAT32"
    code, _, err = run_cli("tflite", os.path.join(fx, "inception_jpeg.pb"), "--recipe",
                           "int9")
    assert code == 2 and "unknown recipe 'int9'" in err


def test_per_tensor_metrics_agree_with_ai_edge_quantizers_validate(inception):
    """On a variant with float inputs (dynamic range) and one sample, our per-tensor MSE,
    cosine and SNR equal what ai-edge-quantizer's own validate() computes (it works in
    float32 and adds 1e-9 to the MSE under its linear SNR)."""
    from ai_edge_litert.interpreter import Interpreter
    from ai_edge_quantizer import quantizer
    from ai_edge_quantizer.utils import validation_utils as vu

    from inspector.core.tf import litert

    source = {"kind": "random", "count": 2, "seed": 4}
    row = recipes.run_recipes(inception.graph_def, ["Mul"], ["softmax"], SHAPES, ["dynamic"],
                              "", source, 1, 1).results[0]
    float_model = litert.with_signature(recipes_float_model(inception))
    samples, _, _ = gather_samples(inception, ["Mul"], SHAPES, source)
    key = next(iter(Interpreter(model_content=float_model).get_signature_runner(
        "serving_default").get_input_details()))
    checker = quantizer.Quantizer(bytearray(float_model),
                                  previous_quantized_model=bytearray(row.model))
    metrics = [vu.ValidationErrorMetric.MSE, vu.ValidationErrorMetric.SNR,
               vu.ValidationErrorMetric.COSINE_SIMILARITY]
    theirs = checker.validate({"serving_default": [{key: samples[0]["Mul"]}]}, metrics,
                              use_xnnpack=False).get_all_tensor_results()
    assert len(row.tensors) >= 8
    for err in row.tensors:
        found = theirs[err.tensor]
        assert err.mse == pytest.approx(found["mse"], rel=1e-5)
        assert err.cosine == pytest.approx(found["cosine_similarity"], abs=1e-5)
        linear = 10 ** (err.snr_db / 10) * err.mse / (err.mse + 1e-9)
        assert linear == pytest.approx(found["snr"], rel=1e-4)
