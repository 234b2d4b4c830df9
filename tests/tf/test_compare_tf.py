"""Compare a GraphDef with its own TFLite conversion (TensorFlow converts it)."""

import os

from inspector.core.compare import provenance
from inspector.core.compare.diff import diff_graphs
from inspector.core.loaders import load
from inspector.core.model import protos
from inspector.core.runtime.executor import tensorflow

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEMO = os.path.join(ROOT, "inspector/core/app/demo_model/demo_digits.pb")


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


def _conv_graph():
    """Conv2D, depthwise, MatMul with their own constant weights and biases, no batch norm: a
    float conversion keeps every weight's values, in TFLite's layouts."""
    import numpy as np
    import tensorflow as tf

    rng = np.random.default_rng(3)
    g = tf.Graph()
    with g.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [1, 8, 8, 3], name="x")
        w = tf.constant(rng.standard_normal((3, 3, 3, 4)).astype(np.float32), name="conv/w")
        y = tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(x, tf.identity(w, name="conv/w/read"),
                                                   [1, 1, 1, 1], "SAME", name="conv/Conv2D"),
                                      tf.constant(rng.standard_normal(4).astype(np.float32),
                                                  name="conv/b"), name="conv/BiasAdd"))
        d = tf.constant(rng.standard_normal((3, 3, 4, 2)).astype(np.float32), name="dw/w")
        y = tf.nn.depthwise_conv2d(y, d, [1, 1, 1, 1], "SAME", name="dw/depthwise")
        y = tf.reshape(y, [1, 8 * 8 * 8], name="flat")
        f = tf.constant(rng.standard_normal((512, 5)).astype(np.float32), name="fc/w")
        tf.identity(tf.matmul(y, f, name="fc/MatMul") +
                    tf.constant(rng.standard_normal(5).astype(np.float32), name="fc/b"),
                    name="out")
    return protos.GraphDef.FromString(g.as_graph_def().SerializeToString())


def test_tflite_weights_are_their_graphdef_constants_in_tflites_layout(tmp_path):
    """Regression: a .tflite's weight tensors were 'added' and the GraphDef's weight Consts
    'removed' (a Conv2D reads its weights through an Identity, CONV_2D directly, in OHWI)."""
    from inspector.core.model.graph import Graph

    ga = Graph(_conv_graph())
    gb = _converted(tmp_path, ga, ["x"], ["out"], "float")
    d = diff_graphs(ga, gb, provenance=provenance.for_tflite(ga, gb))
    m = d.matching
    for weights in ("conv/w", "conv/b", "dw/w", "fc/w", "fc/b"):
        b = m.b_of.get(weights)
        assert b and gb.node(b).op == "Const" and m.rule[weights] == "operand", weights
        pair = next((e for e in d.entries if e.a == weights), None)
        assert pair is None, pair.describe()           # same values, in TFLite's layout
    assert {m.layouts.get(w) for w in ("conv/w", "dw/w", "fc/w")} == \
        {"HWIO>OHWI", "HWCM>1HWC", "IO>OI"}
    assert m.merged.get("conv/w/read") == m.b_of["conv/w"]
    assert gb.node(m.merged["fc/MatMul"]).op == "FULLY_CONNECTED"   # fused, named after the Add
    import numpy as np

    from inspector.core.model import tensors

    added = [e.b for e in d.entries if e.status == "added"]     # the zero bias TFLite adds
    assert added and all(not np.any(tensors.to_numpy(gb.tensor(b))) for b in added)
    removed = [e.a for e in d.entries if e.status == "removed"]  # constants nothing read
    assert all(not ga.consumers(a) for a in removed), removed


def test_a_folded_batch_norm_gives_changed_weights_and_a_bias_split_out_of_it(tmp_path):
    ga = load(DEMO).graph
    for kind in ("float", "dynamic"):
        gb = _converted(tmp_path, ga, ["pixels"], ["output"], kind)
        d = diff_graphs(ga, gb, provenance=provenance.for_tflite(ga, gb))
        m = d.matching
        kernel = "digits_1/conv2_1/convolution/ReadVariableOp/resource"
        entry = next(e for e in d.entries if e.a == kernel)
        values = next(c for c in entry.changes if c.kind in ("values", "quantized"))
        assert "OHWI" in values.text and values.figures["cosine"] > 0.5   # scaled per channel
        assert gb.node(m.b_of[kernel]).op == "Const"
        splits = {b: a for b, a in m.split.items()}
        assert any(ga.node(a).op == "Sub" and "bn2_1" in a for a in splits.values())
        assert [e.a for e in d.entries if e.status == "removed"] == ["NoOp"]
        assert not [e.b for e in d.entries if e.status == "added"], kind
        if kind == "dynamic":
            assert any(c.kind == "dtype" and "int8" in c.text for c in entry.changes)


def _converted(tmp_path, ga, inputs, outputs, kind):
    result = tensorflow().convert_tflite(ga.graph_def, inputs, outputs, kind)
    path = tmp_path / f"model_{kind}.tflite"
    path.write_bytes(result["model"])
    return load(str(path)).graph


def test_numeric_against_an_int8_tflite_equals_direct_tensorflow_and_litert_runs():
    """The GraphDef in TensorFlow, its full-int8 .tflite in LiteRT (reference kernels, every
    tensor kept), each matched layer's int8 tensor dequantized by its own scale and zero
    point: the figures equal those of both runs done here by hand."""
    import numpy as np
    import tensorflow as tf
    from ai_edge_litert.interpreter import Interpreter, OpResolverType

    from inspector.core.analysis.summary import summarize
    from inspector.core.app.comparing import numeric_between
    from inspector.core.compare.numeric import metrics

    path = os.path.join(ROOT, "tests", "core", "data", "digits_int8.tflite")
    ga, gb = load(DEMO).graph, load(path).graph
    d = diff_graphs(ga, gb, provenance=provenance.for_tflite(ga, gb))
    x = np.random.default_rng(5).uniform(0, 1, (1, 8, 8, 1)).astype(np.float32)
    result = numeric_between(d, ga, gb, summarize(ga), ["pixels"], ["output"],
                             arrays={"pixels": x}, paths=(DEMO, path))
    assert len(result.pairs) == 6 and result.engines[1].startswith("LiteRT")
    theirs = tf.compat.v1.GraphDef.FromString(ga.graph_def.SerializeToString())
    with tf.Graph().as_default() as g:
        tf.compat.v1.import_graph_def(theirs, name="")
        with tf.compat.v1.Session(graph=g) as sess:
            direct_a = sess.run([a + ":0" for a, _ in result.pairs], {"pixels:0": x})
    interp = Interpreter(model_path=path, experimental_preserve_all_tensors=True,
                         experimental_op_resolver_type=OpResolverType.
                         BUILTIN_WITHOUT_DEFAULT_DELEGATES)
    interp.allocate_tensors()
    inp = interp.get_input_details()[0]
    scale, zero = inp["quantization"]
    interp.set_tensor(inp["index"], np.clip(np.round(x / scale + zero), -128, 127)
                      .astype(np.int8))
    interp.invoke()
    by_name = {t["name"]: t for t in interp.get_tensor_details()}
    for (a, b), va in zip(result.pairs, direct_a):
        t = by_name[gb.node(b).proto.attr["tflite_tensor"].s.decode()]
        s, z = t["quantization"]
        vb = (interp.get_tensor(t["index"]).astype(np.float32) - z) * s
        want, got = metrics(va, vb), result.per_node[a]
        for key in want:
            assert np.isclose(got[key], want[key], rtol=1e-6, atol=1e-12), (a, key)
    assert result.first == "digits_1/relu1_1/Relu"
    assert all(m["snr_db"] > 25 for m in result.per_node.values())


def test_a_keras_model_and_its_tflite_are_related_and_compare_layer_by_layer(fx, tmp_path):
    """MobileNetV2 frozen from Keras against TF's float .tflite of it: few of A's constants and
    reads find a counterpart, yet B is A converted (the converter named its ops after A's
    nodes): not 'unrelated' (which dropped every merge and paired each Conv2D before its batch
    norm with the fused op after it: SNR 3 dB). Each fused op is compared with the last node
    fused into it (Relu6), once; a float conversion then agrees everywhere."""
    from inspector.core.analysis.summary import summarize
    from inspector.core.app.comparing import numeric_between

    ga = load(os.path.join(fx, "mobilenet_v2.pb")).graph
    result = tensorflow().convert_tflite(ga.graph_def, ["input"], ["Identity"], "float")
    path = tmp_path / "mobilenet_v2.tflite"
    path.write_bytes(result["model"])
    gb = load(str(path)).graph
    d = diff_graphs(ga, gb, provenance=provenance.for_tflite(ga, gb))
    assert not d.matching.unrelated
    relu = "mobilenetv2_1.00_224_1/expanded_conv_depthwise_relu_1/Relu6"
    assert gb.node(d.matching.merged[relu]).op == "DEPTHWISE_CONV_2D"
    found = numeric_between(d, ga, gb, summarize(ga), ["input"], ["Identity"],
                            paths=(os.path.join(fx, "mobilenet_v2.pb"), str(path)))
    bs = [b for _, b in found.pairs]
    assert len(found.pairs) > 50 and len(bs) == len(set(bs))
    assert (relu, d.matching.merged[relu]) in found.pairs
    assert not found.first and all(m["snr_db"] > 50 for m in found.per_node.values())


def test_an_output_s_shape_change_names_the_shape_tensorflow_gives_the_output(tmp_path):
    """A's output records no shape (a frozen graph's outputs rarely do), B's does: the
    interface line gives A's output the shape TensorFlow infers for it when imported, as
    `summarize` shows it ("[?,3] -> [1,3]"), not "? -> [1,3]" (fer's Keras model against its
    .tflite said "output 'Identity': shape ? -> [1,7]" while summarize said [?,7])."""
    import numpy as np
    import tensorflow as tf

    from inspector.core.model.graph import Graph

    def frozen(batch, add_shapes):
        g = tf.Graph()
        with g.as_default():
            x = tf.compat.v1.placeholder(tf.float32, [batch, 4], name="x")
            w = tf.constant(np.arange(12, dtype=np.float32).reshape(4, 3), name="w")
            tf.identity(tf.nn.softmax(tf.matmul(x, w)), name="out")
        return g, g.as_graph_def(add_shapes=add_shapes)

    graph_a, a = frozen(None, False)
    _, b = frozen(1, True)
    assert not any("_output_shapes" in n.attr for n in a.node)
    told = tf.TensorShape(graph_a.get_tensor_by_name("out:0").shape).as_list()   # [None, 3]
    want_a = "[" + ",".join("?" if d is None else str(d) for d in told) + "]"
    d = diff_graphs(Graph(protos.GraphDef.FromString(a.SerializeToString())),
                    Graph(protos.GraphDef.FromString(b.SerializeToString())))
    lines = [c.text for c in d.interface if c.kind == "output"]
    assert lines == [f"output 'out': shape {want_a} -> [1,3]"], lines
