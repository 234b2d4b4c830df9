"""FLOPs without TensorFlow (issue 45.7): counted from a graph's own shapes, they equal TF's
profiler where shapes are static; a float .tflite's count, from its operators' tensors, is its
GraphDef's; TF's inference is asked only where the graph's shapes leave ops unknown, and the
report says so. TF is the oracle here; the TF-free paths are in tests/core/test_flops_static.py
and tests/cli/test_cli_diff.py."""

import json
import os
import subprocess
import sys

import pytest

from inspector.core.analysis.graph_flops import OWN, TF_INFERENCE, graph_flops
from inspector.core.loaders import load
from inspector.core.model.graph import Graph
from inspector.core.runtime.executor import tensorflow

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEMO = os.path.join(ROOT, "inspector/core/app/demo_model/demo_digits.pb")


@pytest.fixture(scope="module")
def mobilenet_tflite(fx, tmp_path_factory):
    """The Keras MobileNetV2 fixture converted to float TFLite by TF's converter (67
    constants before its first operator)."""
    gd = load(os.path.join(fx, "mobilenet_v2.pb")).graph.graph_def
    made = tensorflow().convert_tflite(gd, ["input"], ["Identity"], "float")
    path = tmp_path_factory.mktemp("lite") / "mobilenet_v2.tflite"
    path.write_bytes(made["model"])
    return str(path)


@pytest.mark.parametrize("name", ["mobilenet_v2.pb", "inception_jpeg.pb", "demo"])
def test_the_tf_free_count_equals_the_profiler_where_shapes_are_static(fx, name):
    path = DEMO if name == "demo" else os.path.join(fx, name)
    graph = load(path).graph
    report = graph_flops(graph, allow_tf=False)
    assert report.source == OWN and not report.unknown_shape
    given = {"pixels": (1, 8, 8, 1)} if name == "demo" else {}   # the batch it assumed
    assert report.tf_total == tensorflow().profiler_float_ops(graph.graph_def, given) > 0
    if name == "demo":
        assert report.assumed == ["batch 1 assumed for input 'pixels'"]


def test_a_float_conversion_counts_what_its_graphdef_counts(fx, mobilenet_tflite):
    """Demo: within 1 % of the profiler's count of the GraphDef. MobileNetV2: the converter
    folds 52 batch norms into the convolutions' weights (their per-element multiply and add
    become one bias add), so the .tflite counts 1.1 % less than the GraphDef as it is, and
    within 0.01 % of the profiler's count of the same GraphDef with those batch norms folded
    by fold_constants + fold_batch_norms."""
    from inspector.core.transforms.pipeline import run_pipeline

    lite = graph_flops(load(os.path.join(ROOT, "tests", "core", "data",
                                         "digits_float.tflite")).graph)
    assert lite.source == "the .tflite's tensor shapes" and not lite.unknown_shape
    demo = tensorflow().profiler_float_ops(load(DEMO).graph.graph_def, {"pixels": (1, 8, 8, 1)})
    assert abs(lite.tf_total - demo) / demo < 0.01

    lite = graph_flops(load(mobilenet_tflite).graph)
    assert not lite.unknown_shape and lite.ops["CONV_2D"] > 0
    gd = load(os.path.join(fx, "mobilenet_v2.pb")).graph.graph_def
    folded = run_pipeline(gd, "fold_constants fold_batch_norms", ["input"],
                          ["Identity"])[-1].graph_def
    reference = tensorflow().profiler_float_ops(folded, {})
    assert abs(lite.tf_total - reference) / reference < 1e-4
    as_is = tensorflow().profiler_float_ops(gd, {})
    assert -0.02 < (lite.tf_total - as_is) / as_is < 0


def test_shapes_only_tf_can_infer_are_asked_of_tf_and_said(fx):
    """The speech model's audio decoder leaves its batch to TF's constant folding: the count
    comes from TF's inference, says so, and equals the profiler."""
    graph = load(os.path.join(fx, "speech_commands.pb")).graph
    alone = graph_flops(graph, allow_tf=False)
    assert alone.unknown_shape
    report = graph_flops(graph)
    assert report.source.startswith(TF_INFERENCE) and "ops unknown" in report.source
    assert report.tf_total == tensorflow().profiler_float_ops(graph.graph_def, {})


def test_diff_of_a_graphdef_and_its_tflite_counts_both_sides_with_no_tf_log(fx, mobilenet_tflite):
    """The .tflite has more constants than the old is-it-a-tflite probe looked at: it used to
    be sent to TensorFlow ("Op type not registered 'CONV_2D'", an E0000 quant_scale line)."""
    env = {k: v for k, v in os.environ.items() if k != "TF_CPP_MIN_LOG_LEVEL"}
    args = ["diff", os.path.join(fx, "mobilenet_v2.pb"), mobilenet_tflite, "--json"]
    code = ("import sys\nfrom inspector.cli.main import main\n"
            f"rc = main({args!r})\n"
            "print('tensorflow' in sys.modules, file=sys.stderr)\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, env=env, cwd=ROOT)
    assert "E0000" not in proc.stderr and "not registered" not in proc.stderr, proc.stderr
    assert proc.stderr.strip().splitlines()[-1] == "False", proc.stderr
    totals = json.loads(proc.stdout)["totals"]
    a, b = totals["FLOPs"]
    assert isinstance(a, int) and isinstance(b, int) and abs(b - a) / a < 0.02
    for device in ("phone-2016", "phone", "raspberry-pi-3"):
        ms = totals[f"latency ms ({device})"]
        assert all(isinstance(v, float) and v > 0 for v in ms)
    assert totals["FLOPs counted from"] == [OWN, "the .tflite's tensor shapes"]


@pytest.mark.parametrize("name", ["EfficientNetB0", "NASNetMobile"])
def test_keras_applications_with_squeeze_excite_and_cropping_count_as_the_profiler(name):
    """Two Keras applications (weights=None) built here: EfficientNetB0's swish is an IdentityN
    (a custom gradient) and NASNetMobile crops with a 4-D StridedSlice; both once left the
    TF-free count with unknown shapes. (ResNet50, InceptionV3, DenseNet121 and
    MobileNetV3Small were equal as well when measured; building them all costs minutes.)"""
    import tensorflow as tf
    from tensorflow.python.framework.convert_to_constants import (
        convert_variables_to_constants_v2,
    )

    from inspector.core.model import protos

    model = getattr(tf.keras.applications, name)(weights=None, input_shape=(224, 224, 3))
    fn = tf.function(lambda x: model(x, training=False)).get_concrete_function(
        tf.TensorSpec([1, 224, 224, 3], tf.float32, name="input"))
    gd = protos.GraphDef.FromString(
        convert_variables_to_constants_v2(fn).graph.as_graph_def().SerializeToString())
    report = graph_flops(Graph(gd), allow_tf=False)
    assert not report.unknown_shape and report.source == OWN
    assert report.tf_total == tensorflow().profiler_float_ops(gd, {}) > 0
