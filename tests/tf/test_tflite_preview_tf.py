"""Conversion preview on real models: four variants converted by TF's converter, run by a
TFLite interpreter and compared with TensorFlow; TFLite ops mapped back onto GraphDef nodes;
per-layer int8 error from TF's QuantizationDebugger; representative data from photos.

This file holds the tests that need TensorFlow (an oracle, a model built or run by it); the
others are in tests/core/test_tflite_preview.py, tests/cli/test_tflite_preview_cli.py."""

from __future__ import annotations

import gzip
import os

import numpy as np
import pytest

from inspector.core.app.demo import engine_here
from inspector.core.errors import InspectorError
from inspector.core.mobile.tflite_preview import gather_samples
from inspector.core.model.graph import Graph
from inspector.core.model.protos import GraphDef
from inspector.core.tf import lite
from tests.conftest import DEMO


def _gd(path):
    with open(path, "rb") as fh:
        return GraphDef.FromString(fh.read())


@pytest.fixture(scope="module")
def demo_preview():
    return engine_here(_gd(DEMO)).tflite_preview(["pixels"], ["output"],
                                                 source={"kind": "random", "count": 24},
                                                 compare_count=8)


def test_four_variants_of_the_demo_model(demo_preview):
    p = demo_preview
    rows = {r.variant: r for r in p.variants}
    assert list(rows) == ["float", "dynamic", "float16", "int8"]
    assert all(not r.errors and r.model[4:8] == b"TFL3" for r in rows.values())
    assert rows["dynamic"].size < rows["float16"].size < rows["float"].size
    assert all(r.gzip_size < r.size for r in rows.values())
    # the size Python's gzip gives the variant's bytes (was zlib's: 12 bytes under it)
    assert all(r.gzip_size == len(gzip.compress(r.model, 6)) for r in rows.values())
    int8_in, int8_out = rows["int8"].inputs[0], rows["int8"].outputs[0]
    assert int8_in["dtype"] == "int8" and int8_out["dtype"] == "int8"
    assert 0 < int8_in["scale"] < 0.01 and -128 <= int8_in["zero_point"] <= 127
    assert rows["float"].inputs[0]["dtype"] == "float32"
    assert rows["float"].max_abs_error < 1e-4 and rows["float"].top1 == 1.0   # same maths
    assert all(r.compared == 8 and r.top1 is not None for r in rows.values())
    assert rows["int8"].max_abs_error > rows["float"].max_abs_error
    assert set(rows["int8"].latency_ms) == {"phone-2016", "phone", "raspberry-pi-3"}
    assert rows["int8"].latency_ms["phone"] < rows["float"].latency_ms["phone"]
    assert any("RANDOM DATA" in w for w in p.warnings)
    assert any("only 24 representative samples" in w for w in p.warnings)
    assert "TensorFlow's tf.lite.Interpreter" in p.engine or "LiteRT" in p.engine
    assert "looks compatible with GPU delegate" in rows["float"].gpu_warnings[0]


def test_answers_agree_with_tensorflow_by_our_own_run(demo_preview):
    """The agreement figure is recomputed here from an independent interpreter run."""
    import tensorflow as tf

    row = next(r for r in demo_preview.variants if r.variant == "float")
    interp = tf.lite.Interpreter(model_content=row.model)
    interp.allocate_tensors()
    x = np.random.default_rng(5).uniform(0, 1, (1, 8, 8, 1)).astype(np.float32)
    interp.set_tensor(interp.get_input_details()[0]["index"], x)
    interp.invoke()
    ours, _ = lite.tflite_run(row.model, [[x]])
    want = interp.get_tensor(interp.get_output_details()[0]["index"])
    np.testing.assert_allclose(ours[0][0], want, rtol=0, atol=0)


def test_tflite_ops_map_back_to_graph_nodes(demo_preview):
    graph = Graph(_gd(DEMO))
    rows = {r.variant: r for r in demo_preview.variants}
    for row in rows.values():
        m = row.mapping
        mapped = [op for op in m.ops]
        assert mapped and all(op.nodes and all(n in graph for n in op.nodes) for op in mapped)
        assert {op.op for op in m.unmapped_ops} <= {"QUANTIZE", "DEQUANTIZE"}
    convs = [op for op in rows["float"].mapping.ops if op.op == "CONV_2D"]
    assert len(convs) == 2
    for conv in convs:   # Conv2D + batch norm + Relu fused into one CONV_2D
        assert {graph.node(n).op for n in conv.nodes} >= {"Conv2D", "Relu"}
        assert all(rows["float"].mapping.merged[n] == conv.index for n in conv.nodes)
    assert len(rows["float16"].mapping.unmapped_ops) >= 2      # weights dequantized


def test_int8_per_layer_error_and_per_channel_scales(demo_preview):
    graph = Graph(_gd(DEMO))
    m = next(r for r in demo_preview.variants if r.variant == "int8").mapping
    worst = m.worst_first()
    errors = [op.max_abs_error for op in worst if op.max_abs_error is not None]
    assert len(errors) == len(m.ops) and errors == sorted(errors, reverse=True)
    assert errors[0] > 0
    for op in m.ops:
        if op.op != "CONV_2D":
            continue
        conv = next(graph.node(n) for n in op.nodes if graph.node(n).op == "Conv2D")
        weights = graph.node(conv.inputs[1].node)
        while weights.op != "Const":
            weights = graph.node(weights.inputs[0].node)
        out_channels = weights.attr("value").shape.dims[-1]
        channels, low, high = op.weight_scales
        assert channels == out_channels and 0 < low <= high


def test_photos_through_the_detected_preprocessing(tmp_path, fx):
    from PIL import Image

    rng = np.random.default_rng(0)
    for k in range(3):
        Image.fromarray(rng.integers(0, 255, (40, 50, 3), dtype=np.uint8)).save(
            tmp_path / f"p{k}.jpg")
    (tmp_path / "notes.txt").write_text("not a photo")
    gd = _gd(os.path.join(fx, "mobilenet_v2.pb"))
    feeds, what, warnings = gather_samples(gd, ["input"], None,
                                           {"kind": "folder", "path": str(tmp_path)})
    assert len(feeds) == 3 and feeds[0]["input"].shape == (1, 224, 224, 3)
    assert "3 photos" in what and "only 3 representative samples" in warnings[0]
    lo, hi = float(feeds[0]["input"].min()), float(feeds[0]["input"].max())
    assert -1.0 <= lo < 0 < hi <= 1.0         # MobileNet's [-1, 1] convention


def test_npy_rows_and_random_refusing_strings(tmp_path, fx):
    arr = np.random.default_rng(1).uniform(0, 1, (5, 8, 8, 1)).astype(np.float32)
    np.save(tmp_path / "five.npy", arr)
    feeds, what, _ = gather_samples(_gd(DEMO), ["pixels"], None,
                                    {"kind": "npy", "paths": [str(tmp_path / "five.npy")]})
    assert len(feeds) == 5 and feeds[2]["pixels"].shape == (1, 8, 8, 1)
    np.testing.assert_array_equal(feeds[2]["pixels"][0], arr[2])
    with pytest.raises(InspectorError, match="string values"):
        gather_samples(_gd(os.path.join(fx, "speech_commands.pb")), ["wav_data"], None,
                       {"kind": "random"})


def test_tflite_op_profile_lands_on_the_graph_nodes(demo_preview):
    """TFLite's benchmark_model --enable_op_profiling names each row after its op's output
    tensor ("[relu;bn;conv]:N"); imported as timings, the time goes to the convolution."""
    from inspector.core.overlays.profiling import parse_benchmark_output

    graph = Graph(_gd(DEMO))
    m = next(r for r in demo_preview.variants if r.variant == "float").mapping
    rows = ["=" * 30 + " Run Order " + "=" * 30,
            "\t" + "\t".join(["[node type]", "[first]", "[avg ms]", "[%]", "[cdf%]", "[mem KB]",
                              "[times called]", "[Name]"])]
    for k, op in enumerate(m.ops):
        rows.append("\t" + "\t".join([f"{op.op:>40}", "0.100", f"{0.5 + k:.3f}", "10.000%",
                                      "10.000%", "0.000", "1", f"[{op.tensor}]:{op.index}"]))
    prof = parse_benchmark_output("\n".join(rows))
    prof.match(graph)
    assert prof.unmatched == []
    times = prof.by_graph_node(graph)
    convs = [op for op in m.ops if op.op == "CONV_2D"]
    for conv in convs:
        target = next(n for n in conv.nodes if graph.node(n).op == "Conv2D")
        assert times[target] == pytest.approx(0.5 + m.ops.index(conv))
