"""The Qt-free view model: what is drawn for which expanded scopes, and the layout.

This file holds the tests that need neither TensorFlow nor Qt; the others are in
tests/tf/test_view_graph_tf.py."""

import os

from inspector.core.loaders import load
from inspector.core.view.view_graph import ViewModel


def test_scopes_start_collapsed_and_expand_in_place(data):
    vm = ViewModel(load(os.path.join(data, "inception_jpeg.pb")).graph)
    scene = vm.scene()
    assert scene.items["mixed/"].kind == "scope" and scene.items["mixed/"].child_count == 33
    assert "mixed/join" not in scene.items
    inner = vm.scene(expanded={"mixed"})
    assert inner.items["mixed/"].kind == "frame" and "mixed/join" in inner.items
    frame = inner.items["mixed/"]
    for item_id in ("mixed/join", "mixed/tower_0/", "mixed/tower_2/"):
        child = inner.items[item_id]
        assert frame.x <= child.x and child.x + child.w <= frame.x + frame.w + 1e-6
        assert frame.y <= child.y and child.y + child.h <= frame.y + frame.h + 1e-6
    ids = [i for i in inner.items.values() if i.kind != "frame"]
    for a in ids:  # nothing overlaps at the same level
        for b in ids:
            if a is not b and a.id.rsplit("/", 1)[0] == b.id.rsplit("/", 1)[0]:
                assert (a.x + a.w <= b.x or b.x + b.w <= a.x or a.y + a.h <= b.y or
                        b.y + b.h <= a.y), (a.id, b.id)


def test_constants_become_badges_and_edges_aggregate(data):
    graph = load(os.path.join(data, "inception_jpeg.pb")).graph
    vm = ViewModel(graph)
    scene = vm.scene(expanded={s.path for s in graph.scope_tree().walk()})
    assert "conv/weights" not in scene.items
    assert [b.shape for b in scene.items["conv/Conv2D"].badges] == ["[3,3,3,16]"]
    collapsed = vm.scene()
    edge = next(e for e in collapsed.edges if e.src == "pool" and e.dst == "mixed/")
    assert edge.count == 3 and edge.label == "3x"
    shown = ViewModel(graph, fold_constants=False).scene(expanded={"conv"})
    assert "conv/weights" in shown.items


def test_scope_parameters_are_counted_where_they_are_consumed():
    """slim: weights under variable scopes (InceptionV3/Mixed_6b/...), the ops that read them
    under name scopes (InceptionV3/InceptionV3/...): the ops' scope gets the parameters."""
    from inspector.core.model import protos
    from inspector.core.model.graph import Graph
    from inspector.core.view.view_graph import ViewModel

    gd = protos.GraphDef()
    x = gd.node.add(name="net/input", op="Placeholder")
    x.attr["dtype"].type = 1
    w = gd.node.add(name="vars/block/weights", op="Const")
    w.attr["dtype"].type = 1
    t = w.attr["value"].tensor
    t.dtype = 1
    for d in (3, 3, 4, 8):
        t.tensor_shape.dim.add(size=d)
    t.float_val.append(0.5)
    gd.node.add(name="vars/block/weights/read", op="Identity", input=["vars/block/weights"])
    gd.node.add(name="net/ops/block/conv", op="Conv2D",
                input=["net/input", "vars/block/weights/read"])
    gd.node.add(name="net/ops/block/relu", op="Relu", input=["net/ops/block/conv"])
    gd.node.add(name="net/ops/other/relu", op="Relu", input=["net/ops/block/relu"])
    view = ViewModel(Graph(gd))
    assert view.scope_stats("net/ops/block")[1] == 288
    assert view.scope_stats("net")[1] == 288      # once, however many readers
    assert view.scope_stats("net/ops/other")[1] == 0
    assert view.scope_stats("vars")[1] == 0       # nothing inside reads them


def test_small_constants_show_their_values(data):
    """The normalisation numbers of an image model are on the badges, not '◆ []'."""
    vm = ViewModel(load(os.path.join(data, "inception_jpeg.pb")).graph)
    scene = vm.scene()
    text = {i: [b.text() for b in scene.items[i].badges] for i in ("Sub", "Mul",
                                                                    "ResizeBilinear")}
    assert text == {"Sub": ["128"], "Mul": ["0.007812"], "ResizeBilinear": ["[2] 299, 299"]}


def test_a_big_or_undecodable_constant_shows_its_shape_only():
    from inspector.core.model import protos
    from inspector.core.view.badges import Badge, small_value

    t = protos.tensor_pb2.TensorProto(dtype=1)
    t.tensor_shape.dim.add(size=5)
    t.float_val.extend([1, 2, 3, 4, 5])
    assert small_value(t) == ""
    bad = protos.tensor_pb2.TensorProto(dtype=1, tensor_content=b"\x00\x01")  # 2 bytes for a float
    assert small_value(bad) == ""
    s = protos.tensor_pb2.TensorProto(dtype=7)
    s.string_val.append(b"hello world, a long string")
    assert small_value(s) == "'hello world,'"
    assert Badge("w", "float", "[5]", 5).text() == "[5]"


def test_scopes_holding_names_equals_walking_each_scope(data):
    """The strip preview's dimming: a scope (or group of a flat scope) holds a kept node
    exactly when one of the nodes under it is kept."""
    import random

    from tests.fixtures import scale_models

    groups = 0
    for path in (os.path.join(data, "inception_jpeg.pb"), scale_models.flat_graph(1000)):
        vm = ViewModel(load(path).graph)
        names = [n.name for n in vm.graph]
        rng = random.Random(3)
        for k in (0, 1, 5, len(names) // 2):
            kept = set(rng.sample(names, k))
            holding = vm.scopes_holding(kept)
            for scope_path in vm.hierarchy.scopes:
                under = vm.nodes_under(scope_path)
                assert (scope_path in holding) == any(n in kept for n in under), scope_path
        groups += sum(p.split("/")[-1].startswith("#") for p in vm.hierarchy.scopes)
    assert groups    # the flat graph's groups were tried


def test_badges_follow_the_graph_order_of_their_constants():
    """A node reading several constants lists them in graph order, whatever its input order;
    a constant read twice shows twice; a control dependency on one folds it but adds no
    badge; the parameters of a scope count each constant it reads once."""
    import numpy as np

    from inspector.core.model import protos
    from inspector.core.model.graph import Graph

    g = protos.GraphDef()

    def const(name, n):
        nd = g.node.add(name=name, op="Const")
        nd.attr["dtype"].type = 1
        t = nd.attr["value"].tensor
        t.dtype = 1
        t.tensor_shape.dim.add(size=n)
        t.tensor_content = np.zeros(n, "<f4").tobytes()

    g.node.add(name="x", op="Placeholder").attr["dtype"].type = 1
    const("s/b", 3)
    const("s/a", 5)
    g.node.add(name="s/a_read", op="Identity", input=["s/a"])
    const("s/c", 7)
    g.node.add(name="s/mul", op="Mul", input=["x", "s/a_read", "s/b", "s/b", "^s/c"])
    vm = ViewModel(Graph(g))
    assert [b.name for b in vm.badges("s/mul")] == ["b", "b", "a"]
    scene = vm.scene(expanded={"s"})
    assert not {"s/a", "s/b", "s/c", "s/a_read"} & set(scene.items)
    assert vm.scope_stats("s")[1] == 15    # every constant once: s/c, read by no data, too


def test_big_graphs_count_scope_parameters_after_the_first_scene(data, monkeypatch):
    """A scene asked with defer_params leaves a big graph's parameter counts out (params
    None, the box sized for them); once the constants are read the same view counts them,
    equal to what a view counting at once says, and positions do not move."""
    import inspector.core.view.view_graph as vg

    path = os.path.join(data, "inception_jpeg.pb")
    expected = ViewModel(load(path).graph).scene(expanded={"mixed"})
    graph = load(path).graph
    vm = ViewModel(graph)
    monkeypatch.setattr(vg, "DEFER_PARAMS_ABOVE", 3)       # this graph counts as big
    assert vm.params_deferred()
    first = vm.scene(expanded={"mixed"}, defer_params=True)
    scopes = [i for i in first.items.values() if i.kind in ("scope", "frame")]
    assert scopes and all(i.params is None for i in scopes)
    assert not graph.const_facts_ready
    graph.const_facts()
    assert not vm.params_deferred()
    second = vm.scene(expanded={"mixed"}, defer_params=True)
    counted = {i.id: i.params for i in second.items.values()}
    assert counted == {i.id: i.params for i in expected.items.values()}
    assert counted["mixed/"] > 0 and counted["mixed/tower_0/"] > 0
    assert {i.id: (i.x, i.y) for i in second.items.values()} == \
        {i.id: (i.x, i.y) for i in first.items.values()}
    monkeypatch.setattr(vg, "DEFER_PARAMS_ABOVE", 10 ** 9)
    small = ViewModel(load(path).graph)
    assert not small.params_deferred()
    assert all(i.params is not None for i in small.scene(defer_params=True).items.values())


def test_a_weight_counts_once_in_its_scope_and_variables_count(data):
    """A training graph reads each weight in the model, its gradients and the optimizer:
    the weight counts once, in the model's scope; an unfrozen graph's variables count where
    they sit, and the scopes add up to the summary's parameters."""
    import numpy as np

    from inspector.core.analysis.summary import summarize
    from inspector.core.model import protos
    from inspector.core.model.graph import Graph

    gd = protos.GraphDef()

    def node(name, op, inputs=(), value=None, shape=None):
        n = gd.node.add(name=name, op=op, input=list(inputs))
        if value is not None:
            n.attr["dtype"].type = 1
            t = n.attr["value"].tensor
            t.dtype = 1
            t.tensor_shape.dim.add(size=value.size)
            t.tensor_content = value.astype(np.float32).tobytes()
        if shape is not None:
            n.attr["dtype"].type = 1
            for d in shape:
                n.attr["shape"].shape.dim.add(size=d)

    node("x", "Placeholder")
    node("InceptionV3/w", "Const", value=np.ones(1000))
    node("InceptionV3/w/read", "Identity", ["InceptionV3/w"])
    node("InceptionV3/InceptionV3/conv", "Conv2D", ["x", "InceptionV3/w/read"])
    node("gradients/conv_grad", "Conv2DBackpropFilter", ["x", "InceptionV3/w/read"])
    node("GradientDescent/update_w", "ApplyGradientDescent", ["InceptionV3/w", "x"])
    node("dense/kernel", "VariableV2", shape=[30, 40])
    node("dense/kernel/read", "Identity", ["dense/kernel"])
    node("dense/MatMul", "MatMul", ["x", "dense/kernel/read"])
    node("gradients/dense_grad", "MatMul", ["x", "dense/kernel/read"])
    graph = Graph(gd)
    scene = ViewModel(graph).scene()
    params = {i: it.params for i, it in scene.items.items() if it.kind == "scope"}
    assert params == {"InceptionV3/": 1000, "dense/": 1200, "gradients/": 0,
                      "GradientDescent/": 0}
    summary = summarize(graph)
    assert sum(params.values()) == summary.const_parameters + summary.variable_parameters
    # slim: the weights' scope holds no op, the scope of the ops reading them counts them
    inner = ViewModel(graph).scene(expanded={"InceptionV3"}).items
    assert inner["InceptionV3/InceptionV3/"].params == 1000


# -- the split: an immutable hierarchy, a pure projection, an explicit cache ----------------
def test_the_hierarchy_is_frozen_and_its_statistics_equal_walking_each_scope(data):
    """Counted once bottom-up, a scope's statistics equal a walk of the nodes under it: node
    count, op signature, and "alike" (siblings with the same signature); nothing is set on a
    hierarchy after it is built."""
    import dataclasses
    from collections import Counter

    import pytest

    from inspector.core.view.hierarchy import build_hierarchy
    from tests.fixtures import scale_models

    for path in (os.path.join(data, "inception_jpeg.pb"), scale_models.flat_graph(1000)):
        graph = load(path).graph
        h = build_hierarchy(graph)
        for scope_path, scope in h.scopes.items():
            ops = Counter(graph.node(n).op for n in h.nodes_under(scope_path))
            stats = h.stats[scope_path]
            assert stats.count == sum(ops.values())
            assert stats.signature == tuple(sorted(ops.items()))
            if scope_path:
                siblings = h.scopes[scope_path.rpartition("/")[0]].children.values()
                assert stats.alike == sum(h.stats[s.path].signature == stats.signature
                                          for s in siblings)
        with pytest.raises(dataclasses.FrozenInstanceError):
            h.stats = {}
        assert not hasattr(ViewModel(graph), "expanded")      # what is open: the caller's


def test_project_is_pure_and_reuses_the_layouts_of_its_cache(data, monkeypatch):
    """The same inputs give the same scene; a cache that holds a scope's layout is not laid
    out again; a frozen cache, or one of another hierarchy, is refused."""
    import dataclasses

    import pytest

    import inspector.core.view.projection as projection
    from inspector.core.view.hierarchy import build_hierarchy

    graph = load(os.path.join(data, "inception_jpeg.pb")).graph
    h = build_hierarchy(graph)
    cache = projection.LayoutCache(h)
    first = projection.project(h, {"", "mixed"}, "TB", None, cache)
    calls = []
    layered = projection.layered_layout
    monkeypatch.setattr(projection, "layered_layout",
                        lambda *a: calls.append(a[0]) or layered(*a))
    again = projection.project(h, {"", "mixed"}, "TB", None, cache)
    assert calls == [] and dataclasses.asdict(again) == dataclasses.asdict(first)
    fresh = projection.project(h, {"", "mixed"}, "TB", None, projection.LayoutCache(h))
    assert calls and dataclasses.asdict(fresh) == dataclasses.asdict(first)
    lr = projection.project(h, {"", "mixed"}, "LR", None, cache.copy())
    assert lr.width > lr.height and lr.direction == "LR"
    with pytest.raises(ValueError, match="frozen"):
        projection.project(h, {""}, "TB", None, cache.freeze())
    with pytest.raises(ValueError, match="another hierarchy"):
        projection.project(build_hierarchy(graph), {""}, "TB", None, cache.copy())


def test_threads_project_one_hierarchy_each_into_its_own_cache(data):
    """No lock and nothing shared but the frozen hierarchy and a frozen cache: scenes made
    on four threads at once equal the same scenes made one after the other."""
    import dataclasses
    import threading

    from inspector.core.view.hierarchy import build_hierarchy
    from inspector.core.view.projection import LayoutCache, project

    h = build_hierarchy(load(os.path.join(data, "inception_jpeg.pb")).graph)
    top = "mixed"
    opened = [{""}, {"", top}, {p for p in h.scopes}, {"", top}]
    shared = LayoutCache(h).freeze()
    expected = [dataclasses.asdict(project(h, e, "TB", None, LayoutCache(h))) for e in opened]
    got = [None] * len(opened)

    def work(k):
        got[k] = dataclasses.asdict(project(h, opened[k], "TB", None, shared.copy()))

    threads = [threading.Thread(target=work, args=(k,)) for k in range(len(opened))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert got == expected
    assert not shared.layouts       # the frozen one was only copied


def test_nothing_is_attached_to_a_scene_and_the_view_keeps_no_lock():
    """Issue 34.4: a Scene is slotted (the GUI's edge geometry and minimap groups travel
    beside it), and the view's modules hold no lock."""
    import pytest

    import inspector.core.view as view_pkg
    from inspector.core.view.scene import Scene

    scene = Scene({}, [], 0.0, 0.0)
    with pytest.raises(AttributeError):
        scene.geometry = []
    folder = os.path.dirname(view_pkg.__file__)
    for name in os.listdir(folder):
        if name.endswith(".py"):
            text = open(os.path.join(folder, name)).read()
            assert "threading" not in text and "Lock(" not in text, name


def test_a_scene_asked_of_the_facade_changes_nothing_in_it(data):
    """ViewModel.scene() projects into a copy of the view's frozen cache: any thread may ask;
    only adopt() (the canvas, on the GUI thread) replaces the view's cache."""
    vm = ViewModel(load(os.path.join(data, "inception_jpeg.pb")).graph)
    kept = vm.cache
    vm.scene({"", "mixed"})
    assert vm.cache is kept and kept.frozen and not kept.layouts
    mine = kept.copy()
    vm.scene({"", "mixed"}, cache=mine)
    vm.adopt(mine)
    assert vm.cache is mine and mine.frozen and mine.layouts


def test_scope_parameters_are_counted_once_per_hierarchy(data, monkeypatch):
    """Regression: every scene projected into a copy of the layout cache, and every
    scope_stats(), counted each weight's home again (seconds per comparison step at 50k)."""
    import inspector.core.view.hierarchy as hierarchy

    calls = []
    real = hierarchy.weight_homes
    monkeypatch.setattr(hierarchy, "weight_homes", lambda g: calls.append(1) or real(g))
    vm = ViewModel(load(os.path.join(data, "inception_jpeg.pb")).graph)
    first = vm.scene()
    vm.scene({"", "mixed"})
    stats = vm.scope_stats("mixed")
    assert len(calls) == 1 and stats[1] > 0
    assert [i.params for i in first.items.values() if i.kind == "scope"]
