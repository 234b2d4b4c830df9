"""The command line as a user runs it."""

import os

from conftest import DEMO, run_cli

from inspector.core.loaders import load


def test_summarize_without_a_model_uses_the_demo_model():
    code, out, err = run_cli("summarize")
    assert code == 0, err
    assert DEMO in out and "1. pixels" in out and "1. output" in out


def test_convert_freezes_and_refuses_to_overwrite_its_input(fx, tmp_path):
    out = tmp_path / "frozen.pb"
    code, stdout, err = run_cli("convert", os.path.join(fx, "two_signatures"), "--signature",
                                "embed", "-o", str(out))
    assert code == 0, err
    m = load(str(out))
    assert not any(n.op == "StatefulPartitionedCall" for n in m.graph)
    text = tmp_path / "frozen.pbtxt"
    code, _, err = run_cli("convert", str(out), "-o", str(text), "--output_as_text")
    assert code == 0 and load(str(text)).is_text
    code, _, err = run_cli("convert", str(out), "-o", str(out))
    assert code == 2 and "refusing to write over the input file" in err


def test_signatures_command(fx):
    code, out, err = run_cli("signatures", os.path.join(fx, "two_signatures"))
    assert code == 0, err
    assert "signature 'embed'" in out and "features: embed_features:0 float [?,4]" in out
    assert "__saved_model_init_op" not in out


def test_python_m_and_help():
    code, out, _ = run_cli("--help")
    assert code == 0 and "summarize" in out and "screenshot" in out
    code, out, _ = run_cli("summarize", "--help")
    assert code == 0 and "--format" in out
