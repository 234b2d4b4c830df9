"""summarize: TF's exact text, and the ranked report with its fixes for TF's blind spots.

This file holds the tests that need TensorFlow (an oracle, a model built or run by it); the
others are in tests/cli/test_summary_cli.py, tests/core/test_summary.py."""

import json
import os

import numpy as np  # noqa: F401  (the cases below are numpy expressions, eval-ed)
from conftest import run_cli

from inspector.core.analysis.summary import summarize
from inspector.core.loaders import load


def test_const_parameter_count_equals_tensorflow_decoding(fx):
    import tensorflow as tf

    for name in ("inception_jpeg.pb", "mobilenet_v2.pb"):
        path = os.path.join(fx, name)
        gd = tf.compat.v1.GraphDef.FromString(open(path, "rb").read())
        expected = sum(tf.make_ndarray(n.attr["value"].tensor).size
                       for n in gd.node if n.op == "Const")
        assert summarize(load(path).graph).const_parameters == expected


def test_a_saved_model_s_ports_keep_their_signature_names_and_shapes(fx):
    path = os.path.join(fx, "two_signatures")
    m = load(path, signature="embed")
    s = summarize(m.graph, m.known_inputs, m.known_outputs, m.signature)
    out = s.outputs[0]
    assert (out.title, out.dtype, out.shape) == (f"embedding ({out.name})", "float", "[?,3]")
    assert s.inputs[0].title == "features" and s.inputs[0].shape == "[?,4]"
    code, text, err = run_cli("summarize", "--signature", "embed", path)
    assert code == 0, err
    assert f"1. embedding ({out.name})  float [?,3]" in text
    code, text, err = run_cli("summarize", "--json", path)
    assert json.loads(text)["outputs"][0]["label"] == "probabilities"
    code, text, err = run_cli("explain", "--signature", "embed", path)
    assert code == 0, err
    assert f"(embedding ({out.name}): float [?,3])" in text


def test_value_summaries_match_tensorflows_print_kernel():
    """TF's Print op writes SummarizeValue(summarize) to stderr: the same function as
    Tensor::DebugString, so it is the oracle for --print_structure's values."""
    import subprocess
    import sys

    from inspector.core.formats.tensor_text import summarize_values

    cases = ["np.arange(8, dtype=np.float32).reshape(4, 2)",
             "np.array([1/3, 2/3, 1.0, 0.5], np.float32)",
             "np.arange(6, dtype=np.int32).reshape(1, 6)", "np.array(3.5, np.float32)",
             "np.array([True, False])", "np.arange(24, dtype=np.float32).reshape(2, 3, 4) / 7",
             "np.array([0.1, 1e-8, 12345678.0], np.float32)", "np.array([0.1, 2.5])",
             "np.zeros((2, 0), np.float32)"]
    code = ("import os\nos.environ['TF_CPP_MIN_LOG_LEVEL'] = '3'\n"
            "import numpy as np, tensorflow as tf\ng = tf.Graph()\nwith g.as_default():\n"
            "    ps = [tf.compat.v1.Print(tf.constant(0), [tf.constant(c)], message=f'C{i}:', "
            f"summarize=3) for i, c in enumerate([{', '.join(cases)}])]\n"
            "with tf.compat.v1.Session(graph=g) as s:\n    for p in ps:\n        s.run(p)\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=300)
    printed = [line for line in proc.stderr.splitlines() if line.startswith("C")]
    assert len(printed) == len(cases), proc.stderr[-2000:]
    for i, case in enumerate(cases):
        value = eval(case)
        assert printed[i] == f"C{i}:[{summarize_values(value)}]"


def test_the_likely_outputs_shape_is_shown_where_the_graph_records_none():
    """Regression: a frozen .meta's, a Keras file's and a plain .pb's likely output showed
    "float" and no shape: the summary read recorded shapes only, and freezing or Keras
    records none for an output. It is propagated from the inputs without TF, the open batch
    kept open (output_shapes)."""
    data = os.path.join(os.path.dirname(os.path.dirname(__file__)), "core", "data")
    for name in ("v1_training.meta", "tiny.h5", "v1_training.pb"):
        code, out, err = run_cli("summarize", "--json", os.path.join(data, name))
        first = json.loads(out)["outputs"][0]
        assert first["shape"] == "[?,10]", (name, first, err)


def _compact_consts_graph(copies: int):
    """Constants as TF writes them compacted (one value and a shape: TF repeats the last
    value; grappler's folding and make_tensor_proto(scalar, shape) make them), of several
    dtypes, `copies` times each, plus a string constant."""
    import tensorflow as tf

    gd = tf.compat.v1.GraphDef()
    for k in range(copies):
        for dtype, value, shape in ((tf.int32, 0, [3]), (tf.float32, 1.5, [4, 8]),
                                    (tf.int64, 7, [5]), (tf.bool, True, [6]),
                                    (tf.float16, 0.5, [2, 2]), (tf.double, 0.0, [9])):
            node = gd.node.add(name=f"c{k}_{dtype.name}", op="Const")
            node.attr["dtype"].type = dtype.as_datatype_enum
            node.attr["value"].tensor.CopyFrom(tf.make_tensor_proto(value, dtype, shape))
        node = gd.node.add(name=f"s{k}", op="Const")
        node.attr["dtype"].type = tf.string.as_datatype_enum
        node.attr["value"].tensor.CopyFrom(tf.make_tensor_proto([b"ab", b"cde"], tf.string))
    return gd


def test_constant_data_by_dtype_is_the_bytes_of_the_tensors_tensorflow_decodes(fx, tmp_path):
    """summarize's "Constant data by dtype" (and the "of constant data" beside the parameter
    count) is what numpy's nbytes says of every Const decoded by TensorFlow, per dtype. It
    was the bytes stored in the file: a compacted constant (one value, TF repeats it) counted
    its one value, the demo model's int32 12 bytes for TF's 16, basic-pitch's frozen model's
    2,364 for 3,256."""
    import tensorflow as tf
    from collections import Counter

    from inspector.core.model.dtypes import dtype_name
    from inspector.core.model.graph import Graph

    def expected(gd):
        out = Counter()
        for n in gd.node:
            if n.op == "Const":
                a = tf.make_ndarray(n.attr["value"].tensor)
                out[dtype_name(n.attr["value"].tensor.dtype)] += \
                    sum(len(x) for x in a.flat) if a.dtype == object else a.nbytes
        return dict(out)

    small, big = _compact_consts_graph(3), _compact_consts_graph(700)    # big: > NUMPY_FROM
    paths = []
    for name, gd in (("small.pb", small), ("big.pb", big)):
        paths.append(str(tmp_path / name))
        with open(paths[-1], "wb") as fh:
            fh.write(gd.SerializeToString())
    paths += [os.path.join(fx, "mobilenet_v2.pb"), os.path.join(
        os.path.dirname(__file__), "..", "..", "inspector", "core", "app", "demo_model",
        "demo_digits.pb")]
    for path in paths:
        gd = tf.compat.v1.GraphDef.FromString(open(path, "rb").read())
        want = expected(gd)
        assert summarize(load(path).graph).bytes_by_dtype == want, path   # opened from a file
        assert summarize(Graph(gd)).bytes_by_dtype == want, path          # as the window has it
    code, text, err = run_cli("summarize", "--json", paths[1])
    assert code == 0, err
    assert json.loads(text)["bytes_by_dtype"] == expected(big)


def test_a_saved_models_size_is_what_its_files_take_on_disk_as_the_diff_says(fx):
    """summarize's (and the Summary panel's) size of a SavedModel is its folder's files, what
    `du` counts and the diff's "file bytes" says; it was the frozen GraphDef's (basic-pitch's
    nmp: 277.4 KB for 1.2 MB on disk, and a .meta its own file without its checkpoint)."""
    from inspector.core.model.humanize import human_bytes

    path = os.path.join(fx, "two_signatures")
    files = [os.path.join(d, f) for d, _, names in os.walk(path) for f in names]
    on_disk = sum(os.path.getsize(f) for f in files)
    code, text, err = run_cli("summarize", "--json", "--signature", "embed", path)
    assert code == 0, err
    data = json.loads(text)
    assert data["bytes_on_disk"] == on_disk and data["file_size"] < on_disk
    code, text, err = run_cli("summarize", "--signature", "embed", path)
    assert f"(savedmodel, frozen, {human_bytes(on_disk)})" in text.splitlines()[0]
    code, text, err = run_cli("diff", "--json", "--signature", "embed", path, path)
    assert json.loads(text)["totals"]["file bytes"][0] == on_disk
