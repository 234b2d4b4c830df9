"""The Qt-free view model: what is drawn for which expanded scopes, and the layout."""

import os

from inspector.core.loaders import load
from inspector.core.view.view_graph import ViewModel


def test_scopes_start_collapsed_and_expand_in_place(fx):
    vm = ViewModel(load(os.path.join(fx, "inception_jpeg.pb")).graph)
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


def test_constants_become_badges_and_edges_aggregate(fx):
    graph = load(os.path.join(fx, "inception_jpeg.pb")).graph
    vm = ViewModel(graph)
    scene = vm.scene(expanded={s.path for s in graph.scope_tree().walk()})
    assert "conv/weights" not in scene.items
    assert [b.shape for b in scene.items["conv/Conv2D"].badges] == ["[3,3,3,16]"]
    collapsed = vm.scene()
    edge = next(e for e in collapsed.edges if e.src == "pool" and e.dst == "mixed/")
    assert edge.count == 3 and edge.label == "3x"
    shown = ViewModel(graph, fold_constants=False).scene(expanded={"conv"})
    assert "conv/weights" in shown.items


def test_left_to_right_and_repeated_blocks(fx):
    graph = load(os.path.join(fx, "mobilenet_v2.pb")).graph
    vm = ViewModel(graph)
    top = "mobilenetv2_1.00_224_1"
    scene = vm.scene(expanded={top})
    expand = scene.items[f"{top}/block_1_expand_1/"]
    assert expand.alike >= 16  # every expand conv of MobileNetV2 has the same ops
    vm.direction = "LR"
    lr = vm.scene(expanded={top})
    assert lr.width > lr.height and scene.height > scene.width
