"""Tours (Qt-free): stops kept in the session file, checked when read, and the auto-tour built
from the model itself in data-flow order.

This file holds the tests that need neither TensorFlow nor Qt; the others are in
tests/tf/test_tour_tf.py."""

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


def test_auto_tour_of_the_inception_fixture(data):
    view, stops = _tour_of(os.path.join(data, "inception_jpeg.pb"))
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

    runs = auto_tour._runs(auto_tour._units(
        [block("stem", "Conv2D"), *[block(f"b{k}", "Conv2D, Relu") for k in range(6)],
         block("head", "MatMul")]))
    assert [len(r) for r in runs] == [1, 6, 1]
    stop = auto_tour._block_stop(None, [unit[0] for unit in runs[1]], None, [""], 2)
    assert stop.title == "b0 … b5 (x 6)" and "repeated 6 times" in stop.caption
    assert "30 nodes" in stop.caption and len(stop.focus) == 6


def test_the_last_stop_of_a_long_model_names_its_first_and_last_block(tmp_path):
    """45 scopes of two alternating make-ups: 45 runs, more than MAX_BLOCK_STOPS, so the rest
    fold into the last block stop. Its scopes' names hold no block of layers (layer41, ...):
    that stop was titled None ('Stop 41: None.') since the Keras block grouping."""
    lines = ['node { name: "x" op: "Placeholder" attr { key: "dtype" value { type: DT_FLOAT } }'
             ' attr { key: "shape" value { shape { dim { size: 1 } dim { size: 8 } dim { size: 8'
             ' } dim { size: 3 } } } } }']
    prev = "x"
    for k in range(1, 46):
        s = f"layer{k}"
        lines.append(f'node {{ name: "{s}/kernel" op: "Const" attr {{ key: "dtype" value {{ '
                     'type: DT_FLOAT } } attr { key: "value" value { tensor { dtype: DT_FLOAT '
                     'tensor_shape { dim { size: 1 } dim { size: 1 } dim { size: 3 } dim { '
                     'size: 3 } } float_val: 0.5 } } } }')
        lines.append(f'node {{ name: "{s}/Conv2D" op: "Conv2D" input: "{prev}" input: '
                     f'"{s}/kernel" attr {{ key: "T" value {{ type: DT_FLOAT }} }} attr {{ key: '
                     '"strides" value { list { i: 1 i: 1 i: 1 i: 1 } } } attr { key: "padding" '
                     'value { s: "SAME" } } }')
        prev = f"{s}/Conv2D"
        for j in range(1 + k % 2):          # two make-ups, alternating: no run folds
            lines.append(f'node {{ name: "{s}/Relu{j}" op: "Relu" input: "{prev}" attr {{ '
                         'key: "T" value { type: DT_FLOAT } } }')
            prev = f"{s}/Relu{j}"
    lines.append(f'node {{ name: "out" op: "Identity" input: "{prev}" attr {{ key: "T" value '
                 '{ type: DT_FLOAT } } }')
    path = tmp_path / "long.pbtxt"
    path.write_text("\n".join(lines) + "\n")
    _, stops = _tour_of(str(path))
    blocks = [s for s in stops if s.kind == "graph"]
    assert len(blocks) == auto_tour.MAX_BLOCK_STOPS
    assert all(isinstance(s.title, str) and s.title for s in stops), [s.title for s in stops]
    assert blocks[-1].title == "layer40 … layer45 (x 6)", blocks[-1].title
    assert len(blocks[-1].focus) == 6


@pytest.mark.parametrize("links", [True, False], ids=["hard links", "no hard links"])
def test_a_session_kept_aside_never_goes_over_one_kept_aside_before(tmp_path, monkeypatch,
                                                                     links):
    """Hostile-input run (hostile2): the copy kept aside was named by the second
    (.partly-read-YYYYmmdd-HHMMSS) and moved there with os.replace, so a second damaged
    session kept aside within that second replaced the first copy: user work lost."""
    import time

    if not links:       # a file system without hard links: the name checked, then moved
        def no_link(*a, **k):
            raise PermissionError(1, "Operation not permitted")
        monkeypatch.setattr(os, "link", no_link)

    monkeypatch.setattr(time, "strftime", lambda *a: "20261129-203900")
    model = tmp_path / "m.pb"
    model.write_bytes(b"")
    texts = []
    for k in range(2):
        text = json.dumps({"version": 1, "outputs": [f"y{k}"], "tour": [{"kind": "nope"}]})
        texts.append(text)
        open(session_path(str(model)), "w").write(text)
        bench = Workbench()
        bench.restore(str(model))
        bench.tour.replace(_stops(1))
        bench.save(str(model))
    kept = sorted(f for f in os.listdir(tmp_path) if ".partly-read-" in f)
    assert len(kept) == 2, kept
    assert sorted(open(tmp_path / f).read() for f in kept) == sorted(texts)


def test_a_copy_made_at_the_backup_name_during_the_move_is_not_gone_over(tmp_path, monkeypatch):
    """The review's item on bb70e08: the backup name was checked free, then os.replace moved
    the session onto it; a file written there between the two was replaced. Now a hard link
    takes the name or fails: the later copy and the session both survive."""
    import time

    from inspector.core.app import workbench

    monkeypatch.setattr(time, "strftime", lambda *a: "20261129-210000")
    model = tmp_path / "m.pb"
    model.write_bytes(b"")
    text = json.dumps({"version": 1, "outputs": ["y"], "tour": [{"kind": "nope"}]})
    open(session_path(str(model)), "w").write(text)
    backup = session_path(str(model)) + ".partly-read-20261129-210000"
    lexists = os.path.lexists
    open(backup, "w").write("someone else's copy")   # written just after a look found it free
    monkeypatch.setattr(workbench.os.path, "lexists", lambda p: p != backup and lexists(p))
    bench = Workbench()
    bench.restore(str(model))
    bench.tour.replace(_stops(1))
    bench.save(str(model))
    monkeypatch.undo()
    assert open(backup).read() == "someone else's copy"
    assert open(backup + "-2").read() == text


def _const(name: str, dtype: str, dims: list, value: str) -> str:
    shape = " ".join(f"dim {{ size: {d} }}" for d in dims)
    return (f'node {{ name: "{name}" op: "Const" attr {{ key: "dtype" value {{ type: {dtype} }}'
            f' }} attr {{ key: "value" value {{ tensor {{ dtype: {dtype} tensor_shape {{ {shape}'
            f' }} {value} }} }} }} }}')


def _op(name: str, op: str, *inputs: str, extra: str = "") -> str:
    ins = " ".join(f'input: "{i}"' for i in inputs)
    return (f'node {{ name: "{name}" op: "{op}" {ins} attr {{ key: "T" value {{ type: DT_FLOAT }}'
            f' }} {extra} }}')


def test_a_blocks_learned_numbers_are_counted_as_the_card_counts_them(tmp_path):
    """Review (44255e4's leftover): the card counts learned numbers as Keras's count_params()
    (no single numbers, no integer axes), but the auto-tour's blocks said the boxes' count,
    every constant's elements: a batch norm of 4 channels read 9 learned numbers (its
    epsilon too; Keras: 8) and a global pooling 2 (its axes; Keras: 0), MobileNet v2's
    bn_Conv1 129 and global_average_pooling2d 2 against the card's rule. Now each block's
    count is a part of the card's."""
    lines = [
        'node { name: "x" op: "Placeholder" attr { key: "dtype" value { type: DT_FLOAT } }'
        ' attr { key: "shape" value { shape { dim { size: 1 } dim { size: 8 } dim { size: 8 }'
        ' dim { size: 3 } } } } }',
        _const("conv/kernel", "DT_FLOAT", [3, 3, 3, 4], "float_val: 0.5"),
        _op("conv/Conv2D", "Conv2D", "x", "conv/kernel",
            extra='attr { key: "strides" value { list { i: 1 i: 1 i: 1 i: 1 } } } '
                  'attr { key: "padding" value { s: "SAME" } }'),
        _const("bn/scale", "DT_FLOAT", [4], "float_val: 1.0"),
        _const("bn/offset", "DT_FLOAT", [4], "float_val: 0.0"),
        _const("bn/add/y", "DT_FLOAT", [], "float_val: 0.001"),
        _op("bn/add", "AddV2", "bn/scale", "bn/add/y"),
        _op("bn/mul", "Mul", "conv/Conv2D", "bn/add"),
        _op("bn/add_1", "AddV2", "bn/mul", "bn/offset"),
        _const("pool/Mean/reduction_indices", "DT_INT32", [2], "int_val: 1 int_val: 2"),
        _op("pool/Mean", "Mean", "bn/add_1", "pool/Mean/reduction_indices",
            extra='attr { key: "Tidx" value { type: DT_INT32 } }'),
        _op("out", "Identity", "pool/Mean"),
    ]
    path = tmp_path / "blocks.pbtxt"
    path.write_text("\n".join(lines) + "\n")
    view, stops = _tour_of(str(path))
    said = {s.title: s.caption for s in stops if s.kind == "graph"}
    assert "108 learned numbers" in said["conv"], said
    assert "8 learned numbers" in said["bn"], said
    assert "learned numbers" not in said["pool"], said
    from inspector.core.model.parameters import learned_elements, weight_homes

    card = stops[-1].caption
    assert learned_elements(view.graph) == 116 and "116 learned numbers" in card, card
    assert sum(weight_homes(view.graph, learned=True).values()) == 116
