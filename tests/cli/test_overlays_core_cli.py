"""Timings and ranges against real TensorFlow: StatSummarizer tables, imports, calibration.

This file holds the tests that drive the command line; the others are in
tests/tf/test_overlays_core_tf.py, tests/core/test_overlays_core.py."""

import os
import re

from conftest import ROOT, run_cli

from inspector.core.loaders import load


def test_profile_cli_prints_benchmark_tables(fx):
    code, out, err = run_cli("profile", os.path.join(fx, "inception_jpeg.pb"), "--inputs", "Mul",
                             "--outputs", "softmax", "--input_shape", "Mul=1,299,299,3",
                             "--runs", "3", "--warmup", "1")
    assert code == 0, err
    for title in ("Run Order", "Top by Computation Time", "Top by Memory Use",
                  "Summary by node type"):
        assert f"============================== {title} ==============================" in out
    assert "Timings (microseconds): count=3" in out and "Average inference timings in us" in out
    plain, traced = map(int, re.search(r"no stats: (\d+), with stats: (\d+)", out).groups())
    assert plain > 0 and traced > 0          # Profile.average_us, as the model card reads it


def test_ranges_cli_reads_tf1_and_tf2_lines(tmp_path):
    log = tmp_path / "r.log"
    log.write_text(
        "I0108 21:45:42.261883    1972 logging_ops.cc:79] ;conv/Conv2D/eightbit/requant_range"
        "__print__;__requant_min_max:[-20.887871][22.274715]\n"
        ";conv/Conv2D/eightbit/requant_range__print__;__requant_min_max:[-6.24283457][17.8844051]\n"
        ";a/eightbit/requant_range__print__;__requant_min_max:[0.5][3]\n"
        "unrelated\n")
    code, out, err = run_cli("ranges", str(log))
    assert code == 0, err
    row = next(l for l in out.splitlines() if l.startswith("conv/"))
    assert row.split()[1:4] == ["2", "-20.8879", "22.2747"]
    assert "does not contain zero" in out
    code, _, err = run_cli("ranges", str(tmp_path / "missing.log"))
    assert code == 2 and "no such file" in err


def test_calibrate_cli_freezes_compares_and_judges(fx, tmp_path):
    log, frozen = tmp_path / "r.log", tmp_path / "q.pb"
    code, out, err = run_cli("calibrate", os.path.join(fx, "inception_jpeg.pb"), "--inputs",
                             "Mul", "--outputs", "softmax", "--input_shape", "Mul=1,299,299,3",
                             "--data", "random", "--count", "2", "--log", str(log),
                             "--freeze", str(frozen))
    assert code == 0, err
    assert "comparing: eight-bit graph on input 2/2" in err
    verdict = out.splitlines()[-2]  # after the error line, before "Wrote ..."
    assert verdict.split(".")[0] in ("softmax: good", "softmax: acceptable, check it",
                                     "softmax: poor")
    ops = {n.op for n in load(str(frozen)).graph.graph_def.node}
    assert "QuantizedConv2D" in ops and "RequantizationRange" not in ops


def test_profile_says_which_names_tf_made_while_running(fx):
    """A profile of the Keras MobileNet v2 times ~35 '.../convolution/merged_input' Consts
    that grappler's arithmetic optimizer makes at run time (a Mul folded into the conv's
    weights). They were listed as 'Runtime names matching no graph node' with no reason."""
    code, out, err = run_cli("profile", os.path.join(fx, "mobilenet_v2.pb"), "--inputs",
                             "input", "--outputs", "Identity", "--runs", "2", "--warmup", "1")
    assert code == 0, err
    line = next(ln for ln in out.splitlines() if "timed nodes matched the graph" in ln)
    assert "are of nodes TensorFlow's graph optimizer (grappler) made while it ran, so they " \
           "are not in the file (…/merged_input: a multiplication folded into a " \
           "convolution's weights); their time counts in the op-type totals only: " in line
    assert "/convolution/merged_input" in line and "match no node" not in line, line
    assert "Runtime names matching no graph node" not in out


def test_profile_of_a_frozen_meta_says_a_constant_folded_switch_is_grappler_made(fx):
    """v1_training.meta (frozen with its checkpoint) has a PlaceholderWithDefault training
    switch; grappler folds it into 'is_training/_0__cf__0' at run time. The profile said that
    name 'matches no node (a profile of another graph, or renamed nodes?)' (the TF.js SSD hand
    detector had two such: '…/TensorArrayV2_1/_0__cf__0'), and the grappler sentence named
    '…/merged_input' whatever kind of name it listed."""
    code, out, err = run_cli("profile", os.path.join(fx, "v1_training.meta"), "--inputs",
                             "input", "--outputs", "output", "--runs", "2", "--warmup", "1")
    assert code == 0, err
    line = next(ln for ln in out.splitlines() if "timed nodes matched the graph" in ln)
    assert "1 name is of a node TensorFlow's graph optimizer (grappler) made while it ran, " \
           "so it is not in the file (…/_N__cf__N, ConstantFolding/…: values it computed " \
           "once, before the run); its time counts in the op-type totals only: " \
           "is_training/_0__cf__0" in line, line
    assert "match no node" not in line and "merged_input" not in line


def test_profile_and_calibrate_take_the_likely_ports_and_shape_by_default(tmp_path):
    """Regression: both required --inputs and --outputs (calibrate also --input_shape and
    --data) where compat and tflite find them from the graph (tflite_args.ports, the shared
    helper: said on stderr). A model with no input to find is one line naming the flag."""
    demo = os.path.join(ROOT, "inspector", "core", "app", "demo_model", "demo_digits.pb")
    meta = os.path.join(ROOT, "tests", "core", "data", "v1_training.meta")
    code, out, err = run_cli("profile", demo, "--runs", "1", "--warmup", "0")
    assert code == 0, err
    assert "using inputs pixels and outputs output" in err and "Run Order" in out
    log = tmp_path / "r.log"
    code, out, err = run_cli("calibrate", meta, "--count", "1", "--log", str(log))
    assert code == 0, err
    assert "using inputs input" in err and "RequantizationRange nodes" in out and log.exists()
    consts = tmp_path / "consts.pbtxt"       # no Placeholder: nothing to feed
    consts.write_text('node { name: "c" op: "Const" attr { key: "dtype" value { type: DT_FLOAT '
                      '} } attr { key: "value" value { tensor { dtype: DT_FLOAT tensor_shape '
                      '{ } float_val: 1 } } } }\n')
    for command in (["profile"], ["calibrate", "--log", str(tmp_path / "c.log")]):
        code, out, err = run_cli(command[0], str(consts), *command[1:])
        lines = [l for l in err.splitlines() if l.startswith("graphdef-inspector")]
        assert code == 2 and len(lines) == 1 and "give --inputs" in lines[0], err


ANY_SIZE = """
node { name: "image" op: "Placeholder" attr { key: "dtype" value { type: DT_FLOAT } }
  attr { key: "shape" value { shape { dim { size: 1 } dim { size: -1 } dim { size: -1 }
  dim { size: 3 } } } } }
node { name: "w" op: "Const" attr { key: "dtype" value { type: DT_FLOAT } }
  attr { key: "value" value { tensor { dtype: DT_FLOAT tensor_shape { dim { size: 1 }
  dim { size: 1 } dim { size: 3 } dim { size: 2 } } float_val: 0.5 } } } }
node { name: "conv" op: "Conv2D" input: "image" input: "w"
  attr { key: "T" value { type: DT_FLOAT } } attr { key: "padding" value { s: "SAME" } }
  attr { key: "strides" value { list { i: 1 i: 1 i: 1 i: 1 } } } }
node { name: "out" op: "Relu" input: "conv" attr { key: "T" value { type: DT_FLOAT } } }
"""


def test_profile_calibrate_and_check_say_an_open_size_is_taken_as_1(tmp_path):
    """Regression: profile, calibrate and check of an input declared [1,?,?,3] ran at
    [1,1,1,3] and said nothing (tflite, flops and the window's Conversion preview say it):
    the timings, ranges and errors were of a 1x1 image. Each says it on stderr, naming
    --input-shape (inputs.open_size_notes); a given size is not said."""
    model = tmp_path / "fcn.pbtxt"
    model.write_text(ANY_SIZE)
    for given in ([], ["--input_shape", "image=1,8,8,3"]):
        for command in (["profile", "--runs", "1", "--warmup", "0"],
                        ["calibrate", "--count", "1", "--log",
                         str(tmp_path / f"{len(given)}.log")], ["check", str(model)]):
            code, out, err = run_cli(command[0], str(model), *command[1:], *given)
            assert code == 0, err
            said = "note: input image leaves sizes open ([1,?,?,3]): using 1 for each; give " \
                   "--input-shape image=D,D,..." in err
            assert said != bool(given), err


def test_a_huge_input_size_is_refused_before_anything_is_allocated(tmp_path):
    """Regression: --input-shape image=1,100000,100000,3 on an any-size input reached numpy
    (tflite: 100 samples at once, made as float64 first) and failed with its raw "Unable to
    allocate ... GiB ... float64". Every command that makes up inputs sizes them first
    (runtime/feed_budget): one line naming the input, what it would take and the limit,
    exit 2."""
    model = tmp_path / "fcn.pbtxt"
    model.write_text(ANY_SIZE)
    huge = ["--input_shape", "image=1,100000,100000,3"]
    for command in (["tflite", "--variants", "float", "-o", str(tmp_path / "out")],
                    ["profile", "--runs", "1", "--warmup", "0"],
                    ["calibrate", "--count", "1", "--log", str(tmp_path / "c.log")],
                    ["check", str(model)]):
        code, out, err = run_cli(command[0], str(model), *command[1:], *huge)
        assert code == 2, (command, err)
        line = err.strip().splitlines()[-1]
        assert "node 'image': input sized [1,100000,100000,3] (float32)" in line, line
        assert "111.8 GB" in line and "that made-up inputs may take" in line, line
        assert "Unable to allocate" not in err and "Traceback" not in err
    code, out, err = run_cli("tflite", str(model), "--variants", "float", "-o",
                             str(tmp_path / "out"), *huge[:1], "image=1,8,8,3")
    assert code == 0, err


TWO_INPUTS = """
node { name: "a" op: "Placeholder" attr { key: "dtype" value { type: DT_FLOAT } }
  attr { key: "shape" value { shape { dim { size: 1 } dim { size: -1 } } } } }
node { name: "b" op: "Placeholder" attr { key: "dtype" value { type: DT_FLOAT } }
  attr { key: "shape" value { shape { dim { size: 1 } dim { size: -1 } } } } }
node { name: "out" op: "AddV2" input: "a" input: "b"
  attr { key: "T" value { type: DT_FLOAT } } }
"""


def test_inputs_that_fit_one_by_one_but_not_together_are_refused_first(tmp_path,
                                                                        monkeypatch):
    """Regression: made-up inputs were sized one by one (179b53f): with a limit of 6 MB,
    two inputs of 3.8 MB each both passed, were allocated and the run went on with 7.6 MB
    of made-up inputs. Their total is sized before any is allocated (feed_budget.check_all):
    one line naming each input's share, exit 2, for check, profile and tflite alike."""
    model = tmp_path / "two.pbtxt"
    model.write_text(TWO_INPUTS)
    monkeypatch.setenv("INSPECTOR_FEED_MEMORY_GB", "0.006")   # 6.1 MB
    sizes = ["--input_shape", "a=1,1000000", "--input_shape", "b=1,1000000"]
    ports = ["--inputs", "a,b", "--outputs", "out"]
    for command in (["check", str(model)], ["profile", "--runs", "1", "--warmup", "0"],
                    ["tflite", "--variants", "float", "--samples", "1", "-o",
                     str(tmp_path / "out")]):
        code, out, err = run_cli(command[0], str(model), *command[1:], *ports, *sizes)
        assert code == 2, (command, err)
        line = err.strip().splitlines()[-1]
        # of one model: named; check's two: the original's, whose inputs are made (c6c3368)
        model_of = f"the original graph ({model}): " if command[0] == "check" else \
            f"{model}: "
        assert line == ("graphdef-inspector: error: " + model_of + "made-up inputs need 7.6 "
                        "MB together, past the 6.1 MB that made-up inputs may take "
                        "($INSPECTOR_FEED_MEMORY_GB): 'a' [1,1000000] (float32) 3.8 MB, "
                        "'b' [1,1000000] (float32) 3.8 MB; give smaller sizes"), (command, line)
    code, out, err = run_cli("check", str(model), str(model), *ports, "--input_shape",
                             "a=1,500000", "--input_shape", "b=1,500000")
    assert code == 0, err                                  # 3.8 MB together: made and run
