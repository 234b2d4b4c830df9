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
    # the output keeps its name; the batch norms' arithmetic folded away counts as merged
    assert not any("removed" in c.text for c in d.interface)
    softmax = next(n.name for n in ga if n.op == "Softmax")
    assert gb.node(m.counterparts_in_b(softmax)[0]).op == "SOFTMAX"
    removed = [e for e in d.entries if e.status == "removed"]
    assert len(removed) <= 10, [e.a for e in removed]


SEED_PIPELINE = ('strip_unused_nodes(type=float, shape="1,299,299,3") remove_nodes(op=Identity, '
                 'op=CheckNumerics) fold_constants(ignore_errors=true) fold_batch_norms '
                 'fold_old_batch_norms quantize_weights(minimum_size=100)')


def test_numeric_divergence_equals_a_direct_tensorflow_run_of_both_graphs():
    import numpy as np
    import tensorflow as tf

    from inspector.core.compare.numeric import metrics, numeric_divergence
    from inspector.core.model.graph import Graph
    from inspector.core.transforms.pipeline import run_pipeline

    ga = load(os.path.join(ROOT, "tests", "core", "data", "inception_jpeg.pb")).graph
    steps = run_pipeline(ga.graph_def, SEED_PIPELINE, ["Mul"], ["softmax"])
    gb = Graph(steps[-1].graph_def)
    d = diff_graphs(ga, gb, provenance=provenance.from_steps(ga.names(), steps))
    x = np.random.default_rng(1).standard_normal((1, 299, 299, 3)).astype(np.float32)
    result = numeric_divergence(d, ga, gb, {"Mul:0": x}, {"Mul:0": x}, ["softmax"])
    assert len(result.pairs) >= 15 and result.first == "conv/BatchNorm"   # weights in 8 bits
    # a batch norm folded away is compared where its value now comes out (the BiasAdd)
    assert ("conv/BatchNorm", "conv/BatchNorm") in result.pairs
    assert gb.node("conv/BatchNorm").op == "BiasAdd"

    def run(graph_def, names):
        theirs = tf.compat.v1.GraphDef.FromString(graph_def.SerializeToString())
        with tf.Graph().as_default() as g:
            tf.compat.v1.import_graph_def(theirs, name="")
            with tf.compat.v1.Session(graph=g) as sess:
                return sess.run([n + ":0" for n in names], {"Mul:0": x})

    direct_a = run(ga.graph_def, [a for a, _ in result.pairs])
    direct_b = run(gb.graph_def, [b for _, b in result.pairs])
    for (a, _), va, vb in zip(result.pairs, direct_a, direct_b):
        want, got = metrics(va, vb), result.per_node[a]
        for key in want:
            assert np.isclose(got[key], want[key], rtol=1e-6, atol=1e-12), (a, key)
    assert all(m["cosine"] > 0.999 for m in result.per_node.values())
