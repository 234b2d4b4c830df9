"""`graphdef-inspector diff`: exit codes as TF's compare_graphs, the reports it writes."""

import json
import os
import re

from conftest import run_cli

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEMO = os.path.join(ROOT, "inspector/core/app/demo_model/demo_digits.pb")
INCEPTION = os.path.join(ROOT, "tests", "core", "data", "inception_jpeg.pb")


def test_equal_models_exit_0_and_different_ones_1_with_every_report(tmp_path):
    code, out, err = run_cli("diff", DEMO, DEMO)
    assert code == 0, err
    assert "Equal:" in out
    html = tmp_path / "d.html"         # (--me-mapping: test_model_explorer_cli.py)
    code, out, err = run_cli("diff", INCEPTION, "--pipeline", "fold_old_batch_norms",
                             "--inputs", "Mul", "--outputs", "softmax", "--json",
                             "--html", str(html))
    assert code == 1, err
    data = json.loads(out)
    assert data["format"] == "graphdef-inspector diff" and not data["equal"]
    assert data["counts"]["merged"] >= 5
    totals = data["totals"]                  # measured where TensorFlow is (the CLI process)
    assert totals["FLOPs"][0] > totals["FLOPs"][1] > 0 and totals["gzip bytes"][1] > 0
    assert any(k.startswith("latency ms") for k in totals)
    assert html.read_text().startswith("<!DOCTYPE html>")


def test_bad_input_exits_2_with_one_line(tmp_path):
    bad = tmp_path / "bad.pb"
    bad.write_bytes(b"\x0a\xff\xff\xff\xff garbage")
    code, out, err = run_cli("diff", DEMO, str(bad))
    assert code == 2 and "bad.pb" in err and len(err.strip().splitlines()) == 1
    code, out, err = run_cli("diff", DEMO)
    assert code == 2 and "second model" in err


def test_reports_never_overwrite_without_force(tmp_path):
    html = tmp_path / "d.html"
    html.write_text("mine")
    code, out, err = run_cli("diff", DEMO, INCEPTION, "--html", str(html))
    assert code == 2 and html.read_text() == "mine"


def test_numeric_divergence_on_the_command_line(tmp_path):
    html = tmp_path / "d.html"
    code, out, err = run_cli("diff", INCEPTION, "--pipeline",
                             "fold_old_batch_norms quantize_weights(minimum_size=100)",
                             "--inputs", "Mul", "--outputs", "softmax", "--numeric", "--json",
                             "--html", str(html))
    assert code == 1, err
    numeric = json.loads(out)["numeric"]
    assert numeric["first_divergent"] and len(numeric["per_node"]) >= 15
    assert all(m["cosine"] > 0.999 for m in numeric["per_node"].values())
    page = html.read_text()             # the report has the numeric run too (issue 45.17)
    assert "Both run on the same input" in page
    assert f"<code>{numeric['first_divergent']}</code>" in page


def test_names_and_limits_that_cannot_be_are_refused_and_strings_get_useful_advice(tmp_path):
    code, out, err = run_cli("diff", INCEPTION, "--pipeline", "strip_unused_nodes",
                             "--inputs", "Nope", "--outputs", "softmax")
    assert code == 2 and "'Nope'" in err
    code, out, err = run_cli("diff", DEMO, DEMO, "--limit", "-1")
    assert code == 2 and "--limit" in err
    # the likely input of this model is encoded JPEG bytes: the advice names diff's options
    code, out, err = run_cli("diff", INCEPTION, INCEPTION, "--numeric", "--outputs", "softmax")
    assert code == 2 and "--inputs" in err and "--npy" not in err


def test_a_rename_is_said_once_and_unrelated_models_are_called_so():
    code, out, err = run_cli("diff", INCEPTION, "--pipeline", "obfuscate_names", "--inputs",
                             "Mul", "--outputs", "softmax", "--limit", "200")
    assert code == 1
    assert "of them renamed" in out
    line = next(x for x in out.splitlines() if "renamed '" in x)
    assert line.count("renamed") == 1
    code, out, err = run_cli("diff", DEMO, INCEPTION)
    assert code == 1 and "Unrelated: these look like different models" in out
    assert "Renamed scopes" not in out and "renamed '" not in out
    code, out, err = run_cli("diff", DEMO, INCEPTION, "--json", "--no-flops")
    data = json.loads(out)
    assert code == 1 and data["unrelated"] is True and data["verdict"] == "unrelated"


def test_int8_constants_are_compared_by_their_real_values():
    data = os.path.join(ROOT, "tests", "core", "data")
    code, out, err = run_cli("diff", os.path.join(data, "digits_float.tflite"),
                             os.path.join(data, "digits_int8.tflite"), "--json")
    assert code == 1, err
    entries = json.loads(out)["entries"]
    values = [c["figures"] for e in entries for c in e["changes"]
              if c["kind"] == "values" and c.get("figures")]
    assert values and all(f["max_abs_diff"] < 0.05 and f["cosine"] > 0.99 for f in values)
    assert not any("tflite_" in c["text"] or "quant_" in c["text"]
                   for e in entries for c in e["changes"])


def test_numeric_runs_a_tflite_side_in_litert_and_names_the_first_divergent_layer():
    """GraphDef vs its full-int8 .tflite (issue 45: refused as "not .tflite"): B runs in
    LiteRT on inputs in its calibrated range, int8 tensors dequantized, compared per layer."""
    int8 = os.path.join(ROOT, "tests", "core", "data", "digits_int8.tflite")
    code, out, err = run_cli("diff", DEMO, int8, "--numeric", "--json", "--no-flops")
    assert code == 1, err
    numeric = json.loads(out)["numeric"]
    assert numeric["engines"]["A"].startswith("TensorFlow")
    assert numeric["engines"]["B"].startswith("LiteRT")
    per = numeric["per_node"]
    assert [m["b_op"] for m in per.values()] == ["CONV_2D", "CONV_2D", "MAX_POOL_2D",
                                                 "RESHAPE", "FULLY_CONNECTED", "SOFTMAX"]
    assert numeric["first_divergent"] == "digits_1/relu1_1/Relu"
    assert all(25 < m["snr_db"] < 60 and m["cosine"] > 0.999 for m in per.values())
    assert "calibrated input range" in numeric["inputs"][0]
    code, out, err = run_cli("diff", DEMO, int8, "--numeric", "--no-flops")
    assert "first activation past it: digits_1/relu1_1/Relu -> CONV_2D" in out
    assert "B: LiteRT" in out and "<- worst" in out
    # both sides .tflite: both run in LiteRT, the same figures as against the GraphDef
    code, out2, err = run_cli("diff", os.path.join(ROOT, "tests", "core", "data",
                                                   "digits_float.tflite"), int8, "--numeric",
                              "--json", "--no-flops")
    both = json.loads(out2)["numeric"]
    assert both["engines"]["A"].startswith("LiteRT")
    assert [round(m["snr_db"], 1) for m in both["per_node"].values()] == \
        [round(m["snr_db"], 1) for m in per.values()]


def test_numeric_with_the_int8_tflite_as_a_gives_the_figures_of_the_other_order():
    """The .tflite as A (File > Compare with... from the .tflite): its int8 input was fed raw
    random integers that LiteRT quantized again (output SNR 9.7 dB), and each fused op was
    compared with the Conv2D before its batch norm and Relu (-5.2 dB): now it is fed the
    same real values in its calibrated range, compared with the last node fused into it,
    and every layer's figures equal the other order's; the model's output is one row."""
    int8 = os.path.join(ROOT, "tests", "core", "data", "digits_int8.tflite")
    runs = []
    for a, b in ((DEMO, int8), (int8, DEMO)):
        code, out, err = run_cli("diff", a, b, "--numeric", "--json", "--no-flops")
        assert code == 1, err
        runs.append(json.loads(out)["numeric"])
    forward, backward = runs
    assert backward["engines"]["A"].startswith("LiteRT")
    assert "calibrated input range" in backward["inputs"][0]
    assert [m["b_op"] for m in backward["per_node"].values()] == \
        ["Relu", "Relu", "MaxPool", "Reshape", "BiasAdd", "Identity"]
    assert [round(m["snr_db"]) for m in backward["per_node"].values()] == \
        [round(m["snr_db"]) for m in forward["per_node"].values()]
    assert backward["first_divergent"] == "digits_1/relu1_1/Relu_1"


def test_numeric_first_divergence_is_an_activation_not_a_quantized_weight_read():
    """quantize_weights: every 8-bit weight differs by construction; the first node past the
    threshold is the first activation (it named 'digits_1/logits_1/Cast/ReadVariableOp')."""
    code, out, err = run_cli("diff", DEMO, "--pipeline", "quantize_weights(minimum_size=100)",
                             "--numeric", "--json", "--no-flops")
    assert code == 1, err
    numeric = json.loads(out)["numeric"]
    per = numeric["per_node"]
    assert numeric["first_divergent"] == "digits_1/conv1_1/convolution"
    read = per["digits_1/logits_1/Cast/ReadVariableOp"]      # compared, but a weight
    assert read["peak_rel_error"] > numeric["threshold"] and not read["activation"]
    assert per["digits_1/conv1_1/convolution"]["activation"]


def test_a_graphdef_against_its_tflite_costs_both_sides_without_importing_tensorflow():
    """Issue 45.7: FLOPs and latency of a .tflite side were "not counted"; now both sides are
    counted from their own shapes, and the diff's process never imports TensorFlow."""
    import subprocess
    import sys

    lite = os.path.join(ROOT, "tests", "core", "data", "digits_float.tflite")
    env = {k: v for k, v in os.environ.items() if k != "TF_CPP_MIN_LOG_LEVEL"}
    code = ("import sys\nfrom inspector.cli.main import main\n"
            f"rc = main({['diff', DEMO, lite, '--json']!r})\n"
            "print('tensorflow' in sys.modules, rc, file=sys.stderr)\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, env=env, cwd=ROOT)
    assert proc.stderr.strip().splitlines()[-1] == "False 1", proc.stderr
    assert "E0000" not in proc.stderr
    totals = json.loads(proc.stdout)["totals"]
    a, b = totals["FLOPs"]
    assert isinstance(a, int) and isinstance(b, int) and abs(b - a) / a < 0.01
    assert totals["FLOPs counted from"] == [
        "the graph's own shapes; batch 1 assumed for input 'pixels'",
        "the .tflite's tensor shapes"]
    for device in ("phone-2016", "phone", "raspberry-pi-3"):
        assert all(isinstance(v, float) and v > 0 for v in totals[f"latency ms ({device})"])
    assert totals["gzip bytes"][1] > 0


def test_file_bytes_of_a_tflite_side_are_its_files():
    """Regression: 14,385 bytes for a 14,488-byte .tflite (its GraphDef view's size)."""
    data = os.path.join(ROOT, "tests", "core", "data")
    a, b = os.path.join(data, "digits_float.tflite"), os.path.join(data, "digits_int8.tflite")
    for first, second in ((a, b), (DEMO, b)):
        code, out, err = run_cli("diff", first, second, "--json")
        sizes = [os.path.getsize(first), os.path.getsize(second)]
        assert code == 1 and json.loads(out)["totals"]["file bytes"] == sizes, err
        code, out, err = run_cli("diff", first, second)
        assert re.search(rf"\n  file bytes +{sizes[0]:,} -> {sizes[1]:,}  ", out), out


def test_pairs_made_by_tfs_own_engine_read_as_what_happened(tmp_path):
    """The demo model through TF's transform engine, saved and compared as files: folded
    with its NoOp's control inputs left (no constant 'added', the size change said), and
    quantize_weights then obfuscate_names (each weight a Dequantize, nothing added)."""
    from inspector.core.loaders import load
    from inspector.core.runtime.executor import tensorflow

    gd = load(DEMO).graph.graph_def
    made = {}
    for name, steps in (("folded", "strip_unused_nodes(type=float) fold_constants("
                                    "ignore_errors=true) remove_nodes(op=Identity)"),
                        ("quantized", "quantize_weights(minimum_size=100) obfuscate_names")):
        made[name] = tmp_path / f"{name}.pb"
        out = tensorflow().run_native_transform(gd, ["pixels"], ["output"], steps)
        made[name].write_bytes(out.SerializeToString())
    code, out, err = run_cli("diff", DEMO, str(made["folded"]), "--no-flops")
    assert code == 1 and "why: 12 constants kept only by control inputs: +" in out, err
    assert "remove_control_dependencies then strip_unused_nodes drops them" in out
    assert "added" not in out.split("Matching:")[0]
    code, out, err = run_cli("diff", DEMO, str(made["folded"]), "--no-flops", "--json")
    (note,) = json.loads(out)["notes"]
    assert note["side"] == "B" and len(note["nodes"]) == 12 and note["bytes"] > 30000
    code, out, err = run_cli("diff", DEMO, str(made["quantized"]), "--no-flops", "--json")
    data = json.loads(out)
    assert code == 1 and not data["counts"].get("added") and not data["counts"].get("removed")
    rules = {rule for _, _, rule in data["matching"]["pairs"]}
    assert "quantized" in rules and data["quality"]["matched"] == 1.0


def test_names_for_a_pipeline_or_a_run_are_refused_without_one_even_for_identical_files():
    # `diff A A --inputs nope` used to answer "Equal" from the bytes and never read the name
    for extra, needs in ((("--inputs", "nope"), "--pipeline or --numeric"),
                         (("--outputs", "softmax"), "--pipeline or --numeric"),
                         (("--input", "x.npy"), "--numeric")):
        code, out, err = run_cli("diff", DEMO, DEMO, *extra)
        assert code == 2 and out == "", (extra, out)
        assert f"{extra[0]} is used only with {needs}" in err and err.count("\n") == 1
    code, out, err = run_cli("diff", DEMO, INCEPTION, "--inputs", "Mul")
    assert code == 2 and "--inputs is used only with" in err
    code, out, err = run_cli("diff", DEMO, DEMO, "--outputs=")       # given, though empty
    assert code == 2 and "--outputs is used only with" in err


def test_two_equal_constants_merged_into_one_are_said_so(tmp_path):
    """A graph whose two equal Consts (and the two Muls reading them) merge_duplicate_nodes
    made one each, compared as two files: the diff said 'Const c2 merged into AddV2 a' (a
    constant folded into its reader) with 'a: input 1: c2 -> c1', or, for the chain, that
    c2 and b were removed and y rewired. Each is merged into its twin now, as the
    pipeline's own diff says."""
    from inspector.core.formats.writer import write_graph
    from inspector.core.model import protos

    def graph(chain: bool):
        gd = protos.GraphDef()
        gd.node.add(name="x", op="Placeholder").attr["dtype"].type = 1
        for n in ("c1", "c2"):
            c = gd.node.add(name=n, op="Const")
            c.attr["dtype"].type = 1
            t = c.attr["value"].tensor
            t.dtype = 1
            t.tensor_shape.dim.add(size=2)
            t.float_val.extend([1.0, 2.0])
        if chain:
            gd.node.add(name="a", op="Mul", input=["x", "c1"]).attr["T"].type = 1
            gd.node.add(name="b", op="Mul", input=["x", "c2"]).attr["T"].type = 1
            gd.node.add(name="y", op="AddV2", input=["a", "b"]).attr["T"].type = 1
        else:
            gd.node.add(name="a", op="AddV2", input=["c1", "c2"]).attr["T"].type = 1
            gd.node.add(name="y", op="Mul", input=["x", "a"]).attr["T"].type = 1
        return gd

    for chain, said in ((False, ["Const 'c2' merged into Const 'c1'"]),
                        (True, ["Const 'c2' merged into Const 'c1'",
                                "Mul 'b' merged into Mul 'a'"])):
        a, b = str(tmp_path / f"a{chain}.pb"), str(tmp_path / f"b{chain}.pb")
        write_graph(graph(chain), a)
        code, _, err = run_cli("transform", "--in_graph", a, "--out_graph", b, "--inputs", "x",
                               "--outputs", "y", "--transforms", "merge_duplicate_nodes",
                               "--no_metrics")
        assert code == 0, err
        code, out, err = run_cli("diff", a, b, "--no-flops")
        assert code == 1, err
        other = out.split("Other changes:\n")[1].split("\n\n")[0].splitlines()
        assert [ln.strip() for ln in other] == said, out
        assert "100.0% of A's nodes matched" in out
    # two Consts of different values: the reader was rewired, nothing merged
    gd = graph(False)
    gd.node[2].attr["value"].tensor.float_val[1] = 3.0
    a, b = str(tmp_path / "a_diff.pb"), str(tmp_path / "b_diff.pb")
    write_graph(gd, a)
    gd.node[3].input[1] = "c1"
    del gd.node[2]
    write_graph(gd, b)
    code, out, err = run_cli("diff", a, b, "--no-flops")
    assert "merged into Const" not in out and "input 1: c2 -> c1" in out, out


def test_two_alike_towers_are_compared_once_a_pair_of_nodes(tmp_path, monkeypatch, capsys):
    """A's two towers of AddN, each level reading the one below 4 times, B with one tower:
    each pair of nodes is compared once (merges._alike answered 4**8 calls for the pair of
    tops on the old code, 8**8 - minutes for a 20-node file - when they read theirs 8
    times), and the second tower is still said merged into the first."""
    from inspector.cli.main import main
    from inspector.core.compare import merges
    from inspector.core.formats.writer import write_graph
    from inspector.core.model import protos

    def graph(one_tower: bool):
        gd = protos.GraphDef()
        for side in ("u",) if one_tower else ("u", "v"):
            gd.node.add(name=f"{side}0", op="Placeholder").attr["dtype"].type = 1
            for k in range(1, 9):
                n = gd.node.add(name=f"{side}{k}", op="AddN", input=[f"{side}{k - 1}"] * 4)
                n.attr["T"].type, n.attr["N"].i = 1, 4
        gd.node.add(name="out", op="AddV2",
                    input=["u8", "u8" if one_tower else "v8"]).attr["T"].type = 1
        return gd

    a, b = str(tmp_path / "a.pb"), str(tmp_path / "b.pb")
    write_graph(graph(False), a)
    write_graph(graph(True), b)
    calls, alike = [], merges._alike
    monkeypatch.setattr(merges, "_alike", lambda *args: calls.append(1) or alike(*args))
    assert main(["diff", a, b, "--no-flops"]) == 1
    out = capsys.readouterr().out
    assert "Placeholder 'v0' merged into Placeholder 'u0'" in out
    assert "100.0% of A's nodes matched" in out
    assert len(calls) < 500, len(calls)


def test_file_bytes_of_tfjs_models_are_their_json_and_shards(tmp_path):
    """Regression: base against uint8 of a TF.js model read 12,215,788 -> 12,215,788 (the
    GraphDef's size, weights dequantized) for files of 12.4 and 3.6 MB."""
    from tests.core.test_tfjs import write_tfjs

    sides = []
    for name, quantize in (("base", None), ("uint8", "uint8")):
        (tmp_path / name).mkdir()
        sides.append(write_tfjs(str(tmp_path / name), quantize=quantize))
    sizes = [os.path.getsize(p) + os.path.getsize(os.path.join(os.path.dirname(p),
                                                                "group1-shard1of1.bin"))
             for p in sides]
    code, out, err = run_cli("diff", *sides, "--json", "--no-flops")
    assert json.loads(out)["totals"]["file bytes"] == sizes and sizes[0] != sizes[1], err
