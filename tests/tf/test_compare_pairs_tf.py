"""The two-file diff on pairs made as users make them: TensorFlow's own graph transform engine
(TransformGraphWithStringInputs) and Keras-built models, never our `transform`."""

import html
import os

import pytest

from inspector.core.compare.diff import diff_graphs
from inspector.core.compare.document import from_dict, text_report, to_dict
from inspector.core.compare.html_report import diff_html
from inspector.core.loaders import load
from inspector.core.model.graph import Graph
from inspector.core.runtime.executor import tensorflow

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEMO = os.path.join(ROOT, "inspector/core/app/demo_model/demo_digits.pb")
FOLD = "strip_unused_nodes(type=float) fold_constants(ignore_errors=true) remove_nodes(op=Identity)"


def native(graph: Graph, inputs: list, outputs: list, transforms: str) -> Graph:
    """`graph` through TensorFlow's C++ graph transform engine."""
    return Graph(tensorflow().run_native_transform(graph.graph_def, inputs, outputs, transforms))


def keras_cnn(name: str = "small_cnn"):
    """A frozen Keras CNN built as Inception's blocks are: Conv2D without bias, batch norm,
    ReLU; then pooling and a Dense layer."""
    import tensorflow as tf

    from tests.fixtures.build import _freeze

    layers = tf.keras.layers
    tf.keras.utils.set_random_seed(5)
    x = inp = tf.keras.Input((16, 16, 3))
    for channels in (8, 16, 32):
        x = layers.Conv2D(channels, 3, padding="same", use_bias=False)(x)
        x = layers.ReLU()(layers.BatchNormalization()(x))
        x = layers.MaxPooling2D()(x)
    x = layers.Dense(10, activation="softmax")(layers.GlobalAveragePooling2D()(x))
    model = tf.keras.Model(inp, x, name=name)
    fn = tf.function(lambda t: model(t, training=False)).get_concrete_function(
        tf.TensorSpec([1, 16, 16, 3], tf.float32, name="input"))
    from inspector.core.model import protos

    return Graph(protos.GraphDef.FromString(_freeze(fn).SerializeToString()))


def test_constants_kept_by_control_inputs_are_paired_and_named_as_the_size_change():
    """Regression: the demo model folded by TF's engine: three weight constants present in
    both files with the same bytes were 'added', and nothing said why B is 79 % bigger (a
    NoOp's control inputs keep the original weights beside their folded copies)."""
    ga = load(DEMO).graph
    gb = native(ga, ["pixels"], ["output"], FOLD)
    d = diff_graphs(ga, gb)
    m = d.matching
    assert not [e.b for e in d.entries if e.status in ("added", "removed")]
    resources = [n.name for n in ga if n.name.endswith("ReadVariableOp/resource")]
    assert resources and all(m.b_of.get(r) == r and m.rule[r] == "same constant"
                             for r in resources)
    copies = [b for b, a in m.split.items() if a in resources]
    assert len(copies) == 4 and all("__cf__" in b for b in copies)   # the folded weights
    (note,) = d.notes
    kept = sorted(n.name for n in gb if n.op == "Const" and
                  all(e.control for e in gb.consumers(n.name)) and gb.consumers(n.name))
    assert note.side == "B" and sorted(note.nodes) == kept and len(kept) == 12
    a_bytes = len(ga.graph_def.SerializeToString())
    assert d.totals["file bytes"] == [a_bytes, len(gb.graph_def.SerializeToString())]
    own = sum(len(gb.node(n).proto.SerializeToString()) for n in kept)
    assert own < note.bytes < own + 8 * len(kept)            # each NodeDef with its framing
    assert note.share == pytest.approx(note.bytes / a_bytes)
    assert f"12 constants kept only by control inputs: +{note.share:.1%} size" in note.text
    # the advice is true: TF's own engine drops exactly them, and that much
    cleaned = native(gb, ["pixels"], ["output"],
                     "remove_control_dependencies strip_unused_nodes(type=float)")
    assert not set(kept) & set(cleaned.names()) and all(n in cleaned for n in copies)
    saved = len(gb.graph_def.SerializeToString()) - len(cleaned.graph_def.SerializeToString())
    assert note.bytes <= saved < note.bytes * 1.1
    text = text_report(d)
    assert note.text in text and "added" not in text
    assert html.escape(note.text) in diff_html(d, ga, gb)       # the window's Save report
    from inspector.core.app.comparing import compare

    rows = compare(ga, gb, "A", "B").change_rows()              # the window's change list
    assert ("• size: " + note.text, -1, "note") in rows
    assert from_dict(to_dict(d)).notes == d.notes


@pytest.mark.parametrize("before, transforms", [
    ("", "quantize_weights(minimum_size=100)"),
    ("", "quantize_weights(minimum_size=100) obfuscate_names"),
    ("remove_nodes(op=Identity)", "quantize_weights(minimum_size=100) obfuscate_names")])
def test_quantize_weights_by_tfs_engine_is_recognised_in_two_files(before, transforms):
    """Regression: a quantize_weights output compared as a file (no provenance) with other
    names: every weight was 'merged into' its reader and its Dequantize and three constants
    'added'; the scope badge said 'weights changed 0.0 %'."""
    from inspector.core.app.comparing import CompareSession

    ga = keras_cnn()
    if before:
        ga = native(ga, ["input"], ["Identity"], before)
    gb = native(ga, ["input"], ["Identity"], transforms)
    dequantize = [n.name for n in gb if n.op == "Dequantize"]
    assert len(dequantize) == 4                 # 3x3x8x16, 3x3x16x32, the Dense; not 3x3x3x8
    d = diff_graphs(ga, gb)
    m = d.matching
    quantized = {b: m.a_of.get(b) for b in dequantize}
    assert all(a and ga.node(a).op == "Const" and m.rule[a] == "quantized"
               for a in quantized.values()), quantized
    for b, a in quantized.items():                         # its three parts came out of it
        parts = {r.node for r in gb.node(b).inputs}
        assert {p for p, src in m.split.items() if src == a} == parts
        entry = next(e for e in d.entries if e.a == a)
        (change,) = [c for c in entry.changes if c.kind == "quantized"]
        assert change.figures["cosine"] > 0.999 and change.figures["changed_share"] > 0.9
    assert not [e for e in d.entries if e.status in ("added", "removed", "merged")]
    assert {e.status for e in d.entries} <= {"changed", "split"}
    assert d.quality["matched"] == 1.0
    session = CompareSession(d, ga, gb)
    session.changed_only(False)
    expanded = session.expanded["A"]           # A keeps its scopes (B's may be obfuscated)
    badges = session.paint("A", session.views["A"].scene(expanded).items, expanded)[1]
    assert any("weights changed" in t and "weights changed 0.0 %" not in t
               for t in badges.values()), badges


def test_weights_folded_then_quantized_by_tfs_engine_go_into_their_dequantize():
    """fold_constants then quantize_weights (TF's engine; a NoOp's control inputs keep the
    original weights, quantized too): a batch norm's scale A computes from constants is one
    8-bit constant behind a Dequantize, each weight a quantized copy beside its original.
    Nothing is "added" or "removed" (8 Dequantize and 25 constants were added, 8 nodes
    removed) and no op "rewired" for reading the folded copy (9 were)."""
    ga = keras_cnn()
    gb = native(ga, ["input"], ["Identity"],
                "fold_constants(ignore_errors=true) quantize_weights(minimum_size=16)")
    d = diff_graphs(ga, gb)
    m = d.matching
    assert not [e.describe() for e in d.entries if e.status in ("added", "removed")]
    assert not [e.describe() for e in d.entries if any(c.kind == "rewired" for c in e.changes)]
    merged_into = {}
    for a, b in m.merged.items():
        merged_into.setdefault(b, []).append(a)
    kinds = set()
    for b in (n.name for n in gb if n.op == "Dequantize"):
        origin = m.a_of.get(b) or m.split.get(b)
        went_in = merged_into.get(b, [])
        assert origin or went_in, b
        kinds.add("paired" if b in m.a_of else "copy" if origin else "folded")
        parts = {r.node for r in gb.node(b).inputs}
        assert all(m.split.get(p) in [origin] + went_in for p in parts), b
        if not origin:
            ops = {ga.node(a).op for a in went_in}          # a batch norm's arithmetic
            assert "Mul" in ops and ops <= {"Mul", "Rsqrt", "AddV2", "Sub", "Const"}, went_in
    assert kinds == {"paired", "copy", "folded"}
    assert d.quality["matched"] == 1.0
    (note,) = d.notes                    # the originals only control inputs keep
    assert len(note.nodes) > 12 and any(n.endswith("_quantized_const") for n in note.nodes)


def test_unrelated_keras_models_get_a_verdict_and_no_guessed_renamed_scope(fx):
    """Regression: MobileNetV2 against a small CNN (both Keras): 5 % matched, 'look like
    different models', and then six guessed 'Renamed scopes'; no verdict in the JSON."""
    ga = load(os.path.join(fx, "mobilenet_v2.pb")).graph
    gb = keras_cnn()
    d = diff_graphs(ga, gb)
    assert d.unrelated and d.verdict == "unrelated" and not d.matching.scopes
    assert all(a == b for a, b in d.matching.b_of.items()) and not d.matching.merged
    data = to_dict(d)
    assert data["unrelated"] is True and data["verdict"] == "unrelated"
    assert data["renamed_scopes"] == {}
    text = text_report(d)
    assert "Unrelated" in text and "Renamed scopes" not in text and "renamed '" not in text
    same = diff_graphs(gb, native(gb, ["input"], ["Identity"], "obfuscate_names"))
    assert not same.unrelated and same.verdict == "different"      # renamed, not unrelated


@pytest.mark.parametrize("model, ends, transforms, weights", [
    (DEMO, (["pixels"], ["output"]), "quantize_weights", 2),
    (os.path.join(ROOT, "tests/core/data/inception_jpeg.pb"), (["Mul"], ["softmax"]),
     "quantize_weights(minimum_size=16)", 14)], ids=["demo", "inception"])
def test_weights_stored_in_8_bits_lead_the_repeated_changes_with_their_parts(model, ends,
                                                                             transforms,
                                                                             weights):
    """Issue 45, item 6 (seen on a walk): the window's change list and the CLI's repeated
    changes led with "Const split out of Const: 42 times" (each weight's 8-bit Const, min and
    max), the "stored in 8 bits" pattern after it. Now that pattern leads and holds its parts."""
    from inspector.core.app.comparing import CompareSession

    ga = load(model).graph
    gb = native(ga, *ends, transforms)
    d = diff_graphs(ga, gb)
    first = d.groups[0]
    assert first.title.startswith(f"float weights stored in 8 bits (+ Dequantize): {weights} "
                                  "constants")
    assert not [g.title for g in d.groups if "split out of" in g.title]
    members = [d.entries[k] for k in first.members]
    quantized = [e for e in members if e.status == "changed"]
    assert len(quantized) == weights and all(
        any(c.kind == "quantized" for c in e.changes) for e in quantized)
    parts = [e for e in members if e.status == "split"]
    assert len(parts) == 3 * weights and {e.a for e in parts} == {e.a for e in quantized}
    assert members[:weights] == quantized          # the weights first, then their parts
    report = text_report(d)
    assert report.split("Repeated changes:\n")[1].splitlines()[0].strip() == first.title
    assert "split out of Const:" not in report
    rows = CompareSession(d, ga, gb).change_rows()     # the window's change list
    assert next(r for r in rows if r[2] == "group")[0] == "▸ " + first.title
    assert from_dict(to_dict(d)).groups[0].title == first.title
