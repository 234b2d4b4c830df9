"""transform, flops and check on the command line, as a user runs them."""

import json
import os

import pytest
from conftest import DEMO, ROOT, run_cli

from inspector.core.analysis.metrics import compute_metrics
from inspector.core.loaders import load
from inspector.core.runtime.executor import tensorflow

SEED = ('strip_unused_nodes(type=float, shape="1,299,299,3") remove_nodes(op=Identity, '
        'op=CheckNumerics) fold_constants(ignore_errors=true) fold_batch_norms '
        'fold_old_batch_norms quantize_weights')


def test_transform_writes_output_and_prints_metrics_per_step(fx, tmp_path):
    src = os.path.join(fx, "inception_jpeg.pb")
    out = tmp_path / "opt.pb"
    code, stdout, err = run_cli("transform", "--in_graph", src, "--out_graph", str(out),
                                "--inputs", "Mul", "--outputs", "softmax", "--transforms", SEED,
                                "--gzip", "--flops")
    assert code == 0, err
    lines = stdout.splitlines()
    assert lines[0].split()[:6] == ["step", "nodes", "size", "gzip", "params", "FLOPs"]
    assert [ln.split()[0] for ln in lines[2:8]] == ["original", "strip_unused_nodes",
                                                    "remove_nodes", "fold_constants",
                                                    "fold_batch_norms", "fold_old_batch_norms"]
    final = load(str(out)).graph
    assert "quantize_weights" in lines[8] and f"{len(final)} (" in lines[8]
    assert "Applied quantize_weights" in err
    assert [p.name for p in tmp_path.iterdir()] == ["opt.pb"]
    # the batch norms are FusedBatchNorm ops: fold_batch_norms says it did nothing, and why
    said = next(ln for ln in err.splitlines() if ln.startswith("Applied fold_batch_norms"))
    assert "-0 +0 ~0 nodes" in said and "[changed nothing: " in said
    assert "fold_old_batch_norms folds into the weights; use it instead" in said
    assert "FusedBatchNormV3" in said
    applied = next(ln for ln in err.splitlines() if ln.startswith("Applied fold_old_batch"))
    assert "changed nothing" not in applied


PURE_STEPS = ('strip_unused_nodes(type=float, shape="1,299,299,3") remove_nodes(op=Identity, '
              'op=CheckNumerics) fold_batch_norms fold_old_batch_norms quantize_weights '
              'round_weights(num_steps=16) sort_by_execution_order remove_device')
HEAVY = ("tensorflow", "keras", "tf_keras", "sklearn")


def test_pure_python_pipeline_never_imports_tensorflow_and_prints_cheap_metrics(fx, tmp_path):
    """Issue 38.16: strip_unused_nodes + remove_nodes imported TensorFlow (4 s) for the FLOPs
    column and gzipped every step's graph; pure-Python steps now import neither TensorFlow nor
    Keras, and gzip and FLOPs come only when asked for (--gzip, --flops)."""
    import subprocess
    import sys

    out = tmp_path / "opt.pb"
    args = ["transform", "--in_graph", os.path.join(fx, "inception_jpeg.pb"), "--out_graph",
            str(out), "--inputs", "Mul", "--outputs", "softmax", "--transforms", PURE_STEPS]
    code = ("import sys\nfrom inspector.cli.main import main\n"
            f"rc = main({args!r})\n"
            f"print('loaded:', sorted(m for m in {HEAVY!r} if m in sys.modules), rc)\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, env=dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3"))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[-1] == "loaded: [] 0", proc.stdout
    lines = proc.stdout.splitlines()
    assert lines[0].split() == ["step", "nodes", "size", "params"]
    assert [ln.split()[0] for ln in lines[2:11]] == [
        "original", "strip_unused_nodes", "remove_nodes", "fold_batch_norms",
        "fold_old_batch_norms", "quantize_weights", "round_weights", "sort_by_execution_order",
        "remove_device"]
    assert "--gzip" in lines[11] and "--flops" in lines[11]
    final = load(str(out)).graph.graph_def
    assert f"{len(final.node)} (" in lines[10]
    assert "Applied remove_device" in proc.stderr


def test_transform_never_overwrites_silently(fx, tmp_path):
    src = tmp_path / "model.pb"
    src.write_bytes(open(os.path.join(fx, "inception_jpeg.pb"), "rb").read())
    before = src.read_bytes()
    code, _, err = run_cli("transform", "--in_graph", str(src), "--out_graph", str(src),
                           "--transforms", "remove_device")
    assert code == 2 and "refusing to write over the input file" in err
    assert src.read_bytes() == before
    out = tmp_path / "out.pbtxt"
    out.write_text("keep me")
    code, _, err = run_cli("transform", "--in_graph", str(src), "--out_graph", str(out),
                           "--transforms", "remove_device", "--output_as_text")
    assert code == 2 and out.read_text() == "keep me"
    code, _, err = run_cli("transform", "--in_graph", str(src), "--out_graph", str(out),
                           "--transforms", "remove_device", "--output_as_text", "--force",
                           "--no_metrics")
    assert code == 0 and load(str(out)).is_text


@pytest.mark.parametrize("transforms,words", [
    ("fold_constants(ignore_errors=true", "column 34: missing ')'"),
    ("nope", "Transform 'nope' not recognized"),
    ("strip_unused_nodes", "Input node ghost not found"),
])
def test_transform_errors_are_one_line(fx, tmp_path, transforms, words):
    code, out, err = run_cli("transform", "--in_graph", os.path.join(fx, "inception_jpeg.pb"),
                             "--out_graph", str(tmp_path / "o.pb"), "--inputs", "ghost",
                             "--outputs", "softmax", "--transforms", transforms)
    assert code == 2 and words in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "o.pb").exists()


@pytest.mark.parametrize("name,shape", [("mobilenet_v2.pb", None),
                                        ("inception_jpeg.pb", None),
                                        ("v1_training.pb", "input=4,8,8,1")])
def test_flops_equal_tensorflow_profiler(fx, name, shape):
    path = os.path.join(fx, name)
    shapes = {"input": (4, 8, 8, 1)} if shape else {}
    gd = load(path).graph.graph_def
    expected = tensorflow().profiler_float_ops(gd, shapes)
    m = compute_metrics(gd, shapes)
    assert m.flops.tf_total == expected
    assert m.flops.total >= expected
    args = ["flops", path] + (["--input_shape", shape] if shape else [])
    code, out, err = run_cli(*args)
    assert code == 0, err
    assert f"TF's flops registry counts {expected:,}" in out
    assert "raspberry-pi-3 (5 GFLOP/s)" in out


def test_flops_say_what_they_assume_and_what_they_cannot_count(fx):
    code, out, err = run_cli("flops", os.path.join(fx, "v1_training.pb"))
    assert code == 0, err
    assert "batch 1 assumed for input 'input'" in out  # not 0 FLOPs for an open batch
    code, out, err = run_cli("flops", os.path.join(fx, "v1_training.pb"), "--input_shape",
                             "input=?,8,8,1")  # the batch left open on purpose
    assert code == 0, err
    assert "not counted (unknown shapes; give --input_shape)" in out
    code, out, err = run_cli("flops", os.path.join(fx, "while_v1.pb"))
    assert code == 2 and "FLOPs cannot be counted" in err  # never a silent 0


def test_check_reports_errors_and_refuses_file_ops(fx, tmp_path):
    src = os.path.join(fx, "inception_jpeg.pb")
    out = tmp_path / "q.pb"
    run_cli("transform", "--in_graph", src, "--out_graph", str(out), "--inputs", "Mul",
            "--outputs", "softmax", "--transforms", SEED, "--no_metrics")
    code, stdout, err = run_cli("check", src, str(out), "--inputs", "Mul", "--outputs", "softmax")
    assert code == 0, err
    row = stdout.splitlines()[1].split()
    assert row[0] == "softmax" and float(row[-3]) < 0.05 and row[-1] == "100.0%"
    train = os.path.join(fx, "v1_training.pb")
    code, _, err = run_cli("check", train, train, "--inputs", "save/Const",
                           "--outputs", "save/control_dependency")
    assert code == 2 and "not pure computation" in err and "--allow_io" in err


def test_check_uses_the_graphs_known_shapes_without_input_shape(fx, tmp_path):
    """Mul has no declared shape; TF infers [1,299,299,3] for it in the original, while a
    plain strip_unused_nodes declares the new Placeholder a scalar: the original's wins."""
    src = os.path.join(fx, "inception_jpeg.pb")
    out = tmp_path / "stripped.pb"
    code, _, err = run_cli("transform", "--in_graph", src, "--out_graph", str(out), "--inputs",
                           "Mul", "--outputs", "softmax", "--transforms",
                           "strip_unused_nodes quantize_weights", "--no_metrics")
    assert code == 0, err
    code, stdout, err = run_cli("check", src, str(out), "--inputs", "Mul", "--outputs",
                                "softmax")
    assert code == 0, err
    assert stdout.splitlines()[1].split()[:3] == ["softmax", "(1,", "10)"]
    code, _, err = run_cli("check", src, src, "--inputs", "DecodeJpeg/contents", "--outputs",
                           "softmax")
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert "takes strings" in err and "--npy" in err and "Traceback" not in err


def test_stripping_without_outputs_is_refused_not_an_empty_graph(fx, tmp_path):
    """Without outputs nothing is reachable: TF writes a 0-node graph and exits 0."""
    from inspector.core.errors import InspectorError
    from inspector.core.transforms import run_pipeline

    src = os.path.join(fx, "inception_jpeg.pb")
    out = tmp_path / "o.pb"
    code, _, err = run_cli("transform", "--in_graph", src, "--out_graph", str(out),
                           "--inputs", "Mul", "--transforms", "strip_unused_nodes")
    assert code == 2 and "needs outputs" in err and len(err.strip().splitlines()) == 1, err
    assert not out.exists()
    with pytest.raises(InspectorError, match="needs outputs"):
        run_pipeline(load(src).graph.graph_def, "strip_unused_nodes", ["Mul"], [])


def test_fold_batch_norms_says_when_other_readers_keep_the_batch_norms(fx, tmp_path):
    """A Keras export (MobileNet v2) has its batch norms as Mul-by-constant after each conv
    once the Identity reads are gone and constants folded, but a NoOp reads every weight as a
    control input, so TF's engine leaves them all: the step says so (it used to say there was
    no such Mul) and names the reader; its advice, followed, folds them."""
    src = os.path.join(fx, "mobilenet_v2.pb")
    steps = "remove_nodes(op=Identity) fold_constants(ignore_errors=true) fold_batch_norms"
    code, _, err = run_cli("transform", "--in_graph", src, "--out_graph",
                           str(tmp_path / "kept.pb"), "--inputs", "input", "--outputs",
                           "Identity", "--transforms", steps)
    assert code == 0, err
    said = next(ln for ln in err.splitlines() if ln.startswith("Applied fold_batch_norms"))
    assert "-0 +0 ~0 nodes" in said and "no Mul by a constant" not in said, said
    assert "52 batch norms (a Mul by a constant after a Conv2D" in said
    assert "'NoOp' reads 'mobilenetv2_1.00_224_1/" in said and "as a control input" in said
    assert "run remove_control_dependencies and strip_unused_nodes before this step" in said
    native = tensorflow().run_native_transform(load(src).graph.graph_def, ["input"],
                                               ["Identity"], steps)
    assert len(native.node) == len(load(str(tmp_path / "kept.pb")).graph)   # TF keeps them too
    code, _, err = run_cli("transform", "--in_graph", src, "--out_graph",
                           str(tmp_path / "folded.pb"), "--inputs", "input", "--outputs",
                           "Identity", "--transforms",
                           "remove_control_dependencies strip_unused_nodes " + steps)
    assert code == 0, err
    said = next(ln for ln in err.splitlines() if ln.startswith("Applied fold_batch_norms"))
    assert "-104 +0 ~104 nodes" in said and "changed nothing" not in said, said


def test_check_says_when_the_transformed_graph_answers_nan(fx, tmp_path):
    """quantize_weights on the Keras MobileNet v2 (TF's own engine does the same) makes a graph
    whose answers are all NaN: check printed 'nan' errors and a top-1 agreement of 100% (the
    argmax of NaNs is the first class, as the untrained original's flat answer's is). The
    rows with a NaN never agree now, and a line says how many values are NaN or infinite;
    the transform itself warns of the constants that cause it, and how to keep them."""
    src, out = os.path.join(fx, "mobilenet_v2.pb"), str(tmp_path / "q.pb")
    code, _, err = run_cli("transform", "--in_graph", src, "--out_graph", out, "--inputs",
                           "input", "--outputs", "Identity", "--transforms", "quantize_weights")
    assert code == 0, err
    # the step says why: constants of zeros (fresh batch norms) stored in [0, FLT_MIN]
    said = next(ln for ln in err.splitlines() if ln.startswith("Applied quantize_weights"))
    assert "[WARNING: 2 constants hold only zeros ('mobilenetv2_1.00_224_1/Conv_1_bn_1/" in said
    assert "which Dequantize turns into NaN, as TF's quantize_weights does; " \
           "minimum_size=1281 keeps them float]" in said, said
    code, stdout, err = run_cli("check", src, out, "--inputs", "input", "--outputs",
                                "Identity")
    row = next(ln for ln in stdout.splitlines() if ln.startswith("Identity"))
    assert row.split()[-3:] == ["nan", "nan", "0.0%"], row
    assert "WARNING: Identity: 1,000 of 1,000 values NaN or infinite in the transformed " \
           "graph's output (0 in the original's)" in stdout
    # a check that found NaN answers failed: exit 1 (as diff's "different"; 2 is bad input)
    assert code == 1, err
    assert err.strip().splitlines()[-1] == "graphdef-inspector: check failed: Identity " \
        "answered NaN or infinite values (counts above)", err
    # diff --pipeline --numeric shows the step's warning too (it only showed -inf dB)
    code, stdout, err = run_cli("diff", src, "--pipeline", "quantize_weights", "--numeric",
                                "--inputs", "input", "--outputs", "Identity", "--limit", "3")
    assert code == 1 and "Numeric divergence" in stdout, err
    warned = [ln for ln in err.splitlines() if ln.startswith("WARNING: quantize_weights: ")]
    assert len(warned) == 1 and "2 constants hold only zeros" in warned[0] and \
        "minimum_size=1281 keeps them float" in warned[0], err


def test_the_advice_of_the_zeros_warning_keeps_the_answers(fx, tmp_path):
    src, out = os.path.join(fx, "mobilenet_v2.pb"), str(tmp_path / "q.pb")
    code, _, err = run_cli("transform", "--in_graph", src, "--out_graph", out, "--inputs",
                           "input", "--outputs", "Identity", "--transforms",
                           "quantize_weights(minimum_size=1281)")
    assert code == 0 and "WARNING" not in err, err
    code, stdout, err = run_cli("check", src, out, "--inputs", "input", "--outputs",
                                "Identity")
    # the fixture's MobileNet is untrained: its output is flat, so no top-1 is given and the
    # one warning says why (7917497); none says an answer changed
    warnings = [line for line in stdout.splitlines() if "WARNING" in line]
    assert code == 0 and all("top-1 not counted" in w and "NaN" not in w
                             for w in warnings), stdout
    assert "Identity                         (1, 1000)                   0            0" \
        in stdout, stdout


def test_quantize_nodes_after_fold_constants_writes_a_graph_tensorflow_imports(tmp_path):
    """fold_constants writes the inputs' readers as 'pixels:0' (as TF does); quantize_nodes
    then gave its reshape_dims and reduction_dims Consts the control input '^pixels:0', which
    no GraphDef may hold: the file was written, and `check` and `calibrate` failed with
    "Unknown input node '^pixels:0'" (fer's emotion model, quantized for calibration). TF's
    quantize_nodes writes '^' + the node's name."""
    out = str(tmp_path / "q.pb")
    code, _, err = run_cli("transform", "--in_graph", DEMO, "--out_graph", out,
                           "--inputs", "pixels", "--outputs", "output",
                           "--transforms", "fold_constants quantize_nodes")
    assert code == 0, err
    from inspector.core.model import protos
    graph = protos.GraphDef.FromString(open(out, "rb").read())
    controls = [t for n in graph.node for t in n.input if t.startswith("^")]
    assert controls and not [t for t in controls if ":" in t], controls
    code, out_text, err = run_cli("check", DEMO, out, "--inputs", "pixels", "--outputs",
                                  "output")
    assert code == 0, err
    assert "output" in out_text


def test_check_takes_the_originals_likely_ports_when_not_given(fx, tmp_path):
    """As compat, tflite, profile and calibrate (core.app.ports.model_ports): without
    --inputs/--outputs `check` runs from the original's likely ports and names them on
    stderr; a model with none is one line naming the flag, exit 2 (both flags were
    required)."""
    src = os.path.join(fx, "mobilenet_v2.pb")
    code, stdout, err = run_cli("check", src, src)
    assert code == 0, err
    assert "note: using inputs input and outputs Identity (give --inputs/--outputs to " \
           "choose)" in err
    assert stdout.splitlines()[1].split()[:3] == ["Identity", "(1,", "1000)"]
    from inspector.core.model import protos
    graph = protos.GraphDef()
    for name in ("a", "b"):           # two constants: no likely input, no likely output
        node = graph.node.add(name=name, op="Const")
        node.attr["dtype"].type = 1
        node.attr["value"].tensor.dtype = 1
        node.attr["value"].tensor.float_val.append(1.0)
    bare = tmp_path / "bare.pb"
    bare.write_bytes(graph.SerializeToString())
    code, _, err = run_cli("check", str(bare), str(bare))
    assert code == 2 and err.strip().splitlines() == [
        f"graphdef-inspector: error: {bare}: no likely input found in the model: give "
        "--inputs NAME[,NAME]"], err
    code, _, err = run_cli("check", str(bare), str(bare), "--inputs", "")   # none, as before
    assert code == 2 and len(err.strip().splitlines()) == 1 and "--outputs NAME" in err, err
    code, stdout, err = run_cli("check", str(bare), str(bare), "--inputs", "", "--outputs", "a")
    assert code == 0 and stdout.splitlines()[1].split()[0] == "a", err


def test_flops_and_explain_of_a_graph_with_its_own_shapes_never_import_tensorflow(fx):
    """MobileNet v2 records every shape but the batch: `flops` and `explain` count from the
    graph's own shapes in a process that never imports TensorFlow (its shape inference took
    75 s and 6.2 GB for `explain` of a 1M-node graph, 3.4 GB for `flops` of 300k), and their
    figures are the profiler's and TF's inference's."""
    import subprocess
    import sys

    path = os.path.join(fx, "mobilenet_v2.pb")
    gd = load(path).graph.graph_def
    expected, tf_count = tensorflow().profiler_float_ops(gd, {}), compute_metrics(gd).flops
    for args in (["flops", path], ["explain", path, "--json"]):
        code = ("import sys\nfrom inspector.cli.main import main\n"
                f"rc = main({args!r})\n"
                "print('tensorflow' in sys.modules, rc, file=sys.stderr)\n")
        proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              timeout=300, cwd=ROOT)
        assert proc.stderr.strip().splitlines()[-1] == "False 0", proc.stderr[-2000:]
        if args[0] == "flops":
            assert f"Total FLOPs: {tf_count.total:,} " in proc.stdout
            assert f"TF's flops registry counts {expected:,}" in proc.stdout
            assert "(counted from the graph's own shapes, without TensorFlow)" in proc.stdout
        else:
            facts = {f["label"]: f for f in json.loads(proc.stdout)["facts"]}
            assert facts["arithmetic"]["value"] == tf_count.total
            assert "own shapes, without TensorFlow" in facts["arithmetic"]["definition"]


def test_check_gives_no_top1_for_an_untrained_classifiers_flat_answer(fx):
    """walk16: the window's Check outputs in TensorFlow and `check` read 'top-1 agreement
    100%' for the untrained MobileNet v2 against its optimized graph: its answer is the same
    for every class, so the top class is always the first whatever the other graph says. No
    top-1 is given for such an output ('-'), and a line says why; the check still passes."""
    src = os.path.join(fx, "mobilenet_v2.pb")
    code, stdout, err = run_cli("check", src, src, "--inputs", "input", "--outputs", "Identity")
    assert code == 0, err
    row = next(ln for ln in stdout.splitlines() if ln.startswith("Identity"))
    assert row.split()[-1] == "-", row
    assert "WARNING: Identity: top-1 not counted: the original graph's output is constant " \
           "(every class scores the same, so its top class is always the first)" in stdout
