"""DOT export: TF's graph_to_dot format exactly, and the styled one rendered by Graphviz.

This file holds the tests that drive the command line; the others are in
tests/core/test_dot.py."""

import os
import subprocess
import xml.etree.ElementTree as ET

import pytest
from conftest import run_cli

from inspector.core.formats.dot_export import render


@pytest.mark.parametrize("name", ["inception_jpeg.pb", "mobilenet_v2.pb", "v1_training.pb",
                                  "v1_training.meta", "while_v1.pb", "while_v2.pb",
                                  "two_signatures", "tiny.keras", "text_really.pb"])
@pytest.mark.parametrize("style", ["styled", "tf"])
def test_dot_cli_on_every_fixture_is_valid_dot(fx, tmp_path, name, style):
    """Graphviz's parser (`nop` parses without laying out: seconds, not minutes) accepts
    every fixture in both styles; one real render below."""
    out = tmp_path / "g.dot"
    code, stdout, err = run_cli("dot", f"--style={style}", os.path.join(fx, name), "-o", str(out))
    assert code == 0, err
    proc = subprocess.run(["nop", str(out)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.lstrip().startswith("digraph")


def test_one_fixture_renders_to_svg(fx, tmp_path):
    out = tmp_path / "g.dot"
    code, _, err = run_cli("dot", os.path.join(fx, "v1_training.pb"), "-o", str(out))
    assert code == 0, err
    svg = ET.fromstring(render(out.read_text(), "svg"))
    assert svg.tag.endswith("svg") and len(svg.findall(".//{*}g")) > 50


def test_svg_output_and_no_silent_overwrite(fx, tmp_path):
    out = tmp_path / "g.svg"
    code, _, err = run_cli("dot", os.path.join(fx, "while_v1.pb"), "-o", str(out))
    assert code == 0, err
    ET.fromstring(out.read_bytes())
    before = out.read_bytes()
    code, _, err = run_cli("dot", os.path.join(fx, "inception_jpeg.pb"), "-o", str(out))
    assert code == 2 and "output file exists" in err
    assert out.read_bytes() == before
    code, _, err = run_cli("dot", os.path.join(fx, "inception_jpeg.pb"), "-o", str(out), "--force")
    assert code == 0 and out.read_bytes() != before
    assert [p.name for p in tmp_path.iterdir()] == ["g.svg"]  # no temp files left behind
