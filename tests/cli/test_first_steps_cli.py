"""The command line as a new user meets it: the top-level --help lists every subcommand and
the diagnostics, `diff --help` names the kinds of model it takes, and `tflite` makes its -o
folder, reads a folder of .npy files as --data and finds an input's shape as the window does
(or names the option that gives it)."""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys

import numpy as np

from tests.conftest import DEMO, ROOT, run_cli

UNSHAPED = """
node { name: "x" op: "Placeholder" attr { key: "dtype" value { type: DT_FLOAT } } }
node { name: "y" op: "Relu" input: "x" attr { key: "T" value { type: DT_FLOAT } } }
"""


def registered_subcommands() -> list:
    """Every subcommand the CLI's parser knows (its registry, not a list copied here)."""
    from inspector.cli.main import build_parser

    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    return list(sub.choices)


def test_help_lists_every_subcommand_and_the_diagnostics():
    names = registered_subcommands()
    assert len(names) >= 21
    for argv in (["--help"], ["-h"], [DEMO, "--help"]):
        code, out, err = run_cli(*argv)
        assert code == 0, err
        listed = re.findall(r"^  ([a-z][a-z-]*) ", out.split("subcommands (")[1], re.M)
        assert listed == names, (set(names) - set(listed))
        for option in ("--version", "--info", "--smoke-test OUT.png", "--screenshot",
                       "--compare B"):
            assert option in out
    code, out, _ = run_cli("--version")
    assert code == 0 and out.strip()
    # the help needs neither Qt nor TensorFlow (a machine without the GUI's packages reads it)
    probe = ("import contextlib, io, sys; from inspector.launcher import main\n"
             "with contextlib.redirect_stdout(io.StringIO()): code = main(['--help'])\n"
             "print(code, sorted(m for m in ('PySide6', 'tensorflow') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          cwd=ROOT)
    assert done.stdout.split() == ["0", "[]"], done.stderr


def test_the_help_says_what_version_prints():
    """--help said '--version: the app's version and those of Python, Qt and TensorFlow';
    --version prints the app's version line only (it stays quick: no Qt, no TF)."""
    code, out, err = run_cli("--help")
    assert code == 0, err
    said = " ".join(out.split()).split("-V, --version ")[1].split(" --info ")[0]
    code, version, err = run_cli("--version")
    assert code == 0, err
    for part in ("Python", "Qt", "TensorFlow"):
        if part in said.split(";")[0]:
            assert part in version, (said, version)


def test_the_model_argument_names_every_kind_it_opens():
    """The model argument's help (shared by the commands that read a model) left out .tflite
    and TF.js, though `targets` is mostly run on a .tflite and summarize, flops, diff and
    explain read one."""
    for command in ("targets", "summarize", "flops", "explain"):
        code, out, err = run_cli(command, "--help")
        assert code == 0, err
        said = " ".join(out.split()).split("positional arguments: model ")[1]
        said = said.split(" options:")[0]
        assert ".tflite" in said, (command, said)
        assert command == "flops" or "model.json" in said, (command, said)


def test_diff_help_says_a_tflite_file_is_accepted():
    code, out, err = run_cli("diff", "--help")
    assert code == 0, err
    assert ".tflite" in " ".join(out.split())


def test_tflite_makes_its_output_folder_and_reads_a_folder_of_npy_files(tmp_path):
    data = tmp_path / "arrays"
    data.mkdir()
    rng = np.random.default_rng(1)
    for k in range(3):
        np.save(data / f"sample_{k}.npy", rng.uniform(0, 1, (1, 8, 8, 1)).astype(np.float32))
    (data / "README.txt").write_text("where the arrays came from\n")
    out_dir = tmp_path / "made" / "here"
    code, out, err = run_cli("tflite", DEMO, "--inputs", "pixels", "--outputs", "output",
                             "--variants", "float", "--data", str(data), "--samples", "2",
                             "--compare", "2", "-o", str(out_dir))
    assert code == 0, err
    assert "Representative data: 2 samples from 2 .npy file(s)" in out
    assert "RANDOM DATA" not in err and "the 3 .npy files" in err
    assert (out_dir / "demo_digits_float.tflite").read_bytes()[4:8] == b"TFL3"
    code, _, err = run_cli("tflite", DEMO, "--variants", "float",
                           "-o", str(out_dir / "demo_digits_float.tflite"))
    assert code == 2 and "takes a folder" in err and len(err.strip().splitlines()) == 1


def test_an_input_without_a_shape_is_read_as_the_window_does(fx):
    # Mul, the end of a JPEG decoding chain, declares no shape: the window's 1,299,299,3
    code, out, err = run_cli("tflite", os.path.join(fx, "inception_jpeg.pb"), "--inputs",
                             "Mul", "--outputs", "softmax", "--variants", "float",
                             "--samples", "2", "--compare", "2")
    assert code == 0, err
    assert "note: input Mul has no declared shape: using 1,299,299,3" in err
    assert "in  Mul: float32 [1, 299, 299, 3]" in out


def test_an_input_with_no_shape_anywhere_names_the_option(tmp_path):
    path = tmp_path / "unshaped.pbtxt"
    path.write_text(UNSHAPED)
    code, out, err = run_cli("tflite", str(path), "--inputs", "x", "--outputs", "y",
                             "--variants", "float")
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert "--input-shape x=D,D,..." in err and "node 'x'" in err
    code, out, err = run_cli("tflite", str(path), "--inputs", "x", "--outputs", "y",
                             "--variants", "float", "--input-shape", "x=1,4", "--samples", "2",
                             "--compare", "2")
    assert code == 0, err
    assert "in  x: float32 [1, 4]" in out


def test_explain_runs_an_unshaped_input_given_its_shape(tmp_path):
    path = tmp_path / "unshaped.pbtxt"
    path.write_text(UNSHAPED)
    np.save(tmp_path / "x.npy", np.ones((1, 4), np.float32))
    code, out, err = run_cli("explain", str(path), "--input", str(tmp_path / "x.npy"),
                             "--input_shape", "x=1,4")
    assert code == 0, err           # was a TypeError traceback in front-end detection
    assert "1.0, 1.0, 1.0, 1.0" in out
