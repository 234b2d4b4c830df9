"""Compare a GraphDef with its own TFLite conversion (TensorFlow converts it)."""

import os

from inspector.core.compare import provenance
from inspector.core.compare.diff import diff_graphs
from inspector.core.loaders import load
from inspector.core.runtime.executor import tensorflow

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEMO = os.path.join(ROOT, "resources", "demo_digits.pb")


def test_every_tflite_op_maps_to_the_graphdef_it_came_from(tmp_path):
    ga = load(DEMO).graph
    result = tensorflow().convert_tflite(ga.graph_def, ["pixels"], ["output"], "float")
    path = tmp_path / "demo.tflite"
    path.write_bytes(result["model"])
    gb = load(str(path)).graph
    d = diff_graphs(ga, gb, provenance=provenance.for_tflite(ga, gb))
    m = d.matching
    ops = [n for n in gb if n.op not in ("Const", "Placeholder", "VarHandleOp")]
    assert ops
    unmapped = [n.name for n in ops if not m.counterparts_in_a(n.name)]
    assert not unmapped
    assert any(m.rule.get(a) == "provenance" for a in m.b_of)
    conv = next(n for n in ops if n.op == "CONV_2D")
    assert any(ga.node(a).op == "Conv2D" for a in m.counterparts_in_a(conv.name))
