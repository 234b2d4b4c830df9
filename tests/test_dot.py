"""DOT export: TF's graph_to_dot format exactly, and the styled one rendered by Graphviz."""

import os
import subprocess
import xml.etree.ElementTree as ET

import pytest
from conftest import run_cli
from test_summary import reference_graph

from inspector.core.formats.dot_export import render, styled_dot, tf_dot
from inspector.core.loaders import load
from inspector.core.model.graph import Graph


def test_tf_style_is_exactly_graph_to_dot():
    g = reference_graph()
    g.node[6].input.append("^mm:0")  # control edges are drawn like data edges, port dropped
    expected = "\n".join([
        "digraph graphname {",
        '  "input" [label="Placeholder"];', '  "w" [label="Const"];', '  "w2" [label="Const"];',
        '  "mm" [label="MatMul"];', '  "input" -> "mm";', '  "w" -> "mm";',
        '  "mm2" [label="MatMul"];', '  "input" -> "mm2";', '  "w2" -> "mm2";',
        '  "add" [label="AddV2"];', '  "mm" -> "add";', '  "mm2" -> "add";',
        '  "ident" [label="Identity"];', '  "add" -> "ident";', '  "mm" -> "ident";',
        '  "output" [label="Relu"];', '  "ident" -> "output";', "}", ""])
    assert tf_dot(Graph(g)) == expected


def test_styled_folds_constants_clusters_scopes_and_renders(fx):
    g = load(os.path.join(fx, "inception_jpeg.pb")).graph
    text = styled_dot(g)
    assert '"conv/weights"' not in text  # folded into its consumer as a badge
    assert "weights: float [3,3,3,16]" in text
    assert 'subgraph "cluster_mixed"' in text and 'subgraph "cluster_mixed/tower_1"' in text
    svg = ET.fromstring(render(text, "svg"))
    titles = {t.text for t in svg.iter("{http://www.w3.org/2000/svg}title")}
    assert "conv/Conv2D" in titles and "softmax" in titles and "conv/weights" not in titles
    shown = styled_dot(g, fold_constants=False)
    assert '"conv/weights"' in shown


def test_styled_restricted_to_subgraph(fx):
    g = load(os.path.join(fx, "inception_jpeg.pb")).graph
    text = styled_dot(g, inputs=["Mul"], outputs=["softmax"])
    assert '"DecodeJpeg"' not in text and '"Cast"' not in text
    assert '"Mul"' in text and '"softmax"' in text
    assert "->" in text


def test_control_edges_are_dashed(fx):
    text = styled_dot(load(os.path.join(fx, "v1_training.pb")).graph)
    assert "style=dashed" in text


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
