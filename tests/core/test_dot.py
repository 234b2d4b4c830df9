"""DOT export: TF's graph_to_dot format exactly, and the styled one rendered by Graphviz.

This file holds the tests that need neither TensorFlow nor Qt; the others are in
tests/cli/test_dot_cli.py."""

import os
import xml.etree.ElementTree as ET

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


def test_styled_folds_constants_clusters_scopes_and_renders(data):
    g = load(os.path.join(data, "inception_jpeg.pb")).graph
    text = styled_dot(g)
    assert '"conv/weights"' not in text  # folded into its consumer as a badge
    assert "weights: float [3,3,3,16]" in text
    assert 'subgraph "cluster_mixed"' in text and 'subgraph "cluster_mixed/tower_1"' in text
    svg = ET.fromstring(render(text, "svg"))
    titles = {t.text for t in svg.iter("{http://www.w3.org/2000/svg}title")}
    assert "conv/Conv2D" in titles and "softmax" in titles and "conv/weights" not in titles
    shown = styled_dot(g, fold_constants=False)
    assert '"conv/weights"' in shown


def test_styled_restricted_to_subgraph(data):
    g = load(os.path.join(data, "inception_jpeg.pb")).graph
    text = styled_dot(g, inputs=["Mul"], outputs=["softmax"])
    assert '"DecodeJpeg"' not in text and '"Cast"' not in text
    assert '"Mul"' in text and '"softmax"' in text
    assert "->" in text


def test_control_edges_are_dashed(data):
    text = styled_dot(load(os.path.join(data, "v1_training.pb")).graph)
    assert "style=dashed" in text
