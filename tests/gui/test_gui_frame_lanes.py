"""An edge to or from a node inside an open scope enters and leaves each open scope through
its border by lanes where no box is (gui/canvas/frame_lanes.py): drawn straight from the
outer route to the node, it ran over the scope's other nodes, forward edges and back edges
alike (note15; on v1_training with gradients open, 24 of 42 such edges crossed a box)."""

import os

import pytest

from inspector.core.view.view_graph import ViewModel
from inspector.gui.canvas.frame_lanes import frames_of
from test_gui_back_edges import CYCLES, _drawn, _on_border, _rect, drawn_line, inside_a_box

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
DATA = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "core",
                    "data")


def _v1_training():
    from inspector.core.app.opening import open_model

    return open_model(os.path.join(DATA, "v1_training.pb")).graph


@pytest.mark.parametrize("direction", ["TB", "LR"])
@pytest.mark.parametrize("graph, opened", [
    (lambda: CYCLES, {"a", "b", "c", "d"}),
    (_v1_training, {"gradients"}),
    (_v1_training, {"gradients", "bn1", "fc", "train", "gradients/bn1"}),
])
def test_an_edge_into_or_out_of_an_open_scope_runs_over_none_of_its_boxes(direction, graph,
                                                                           opened):
    scene = ViewModel(graph()).scene(expanded={""} | opened, direction=direction)
    items, crossing = scene.items, 0
    for edge in scene.edges:
        if edge.control:
            continue
        fa, fb = frames_of(edge.src, items), frames_of(edge.dst, items)
        frames = {f.id for f in fa} ^ {f.id for f in fb}
        if not frames:
            continue
        crossing += 1
        inside = {k: v for k, v in items.items() if k not in (edge.src, edge.dst) and
                  v.kind != "frame" and {f.id for f in frames_of(k, items)} & frames}
        line, head = drawn_line(edge, items, direction)
        a, b = items[edge.src], items[edge.dst]
        assert not inside_a_box(line, inside), (edge.src, edge.dst)
        assert _on_border(line[0], _rect(a)), (edge.src, line[0])
        assert _on_border(line[-1], _drawn(b)), (edge.dst, line[-1])
        assert not inside_a_box(line, {a.id: a, b.id: b}), (edge.src, edge.dst)
        assert not inside_a_box(head, {b.id: b}, rect=_drawn), (edge.dst, head)
    assert crossing >= 5


@pytest.mark.parametrize("direction", ["TB", "LR"])
def test_an_edge_with_a_clear_way_into_an_open_scope_is_drawn_as_any_other(direction):
    """walk16 (f014fbf): the edge from MobileNet's input into the open scope's first node,
    right below it, ran out to the scope's right border and back along its title row. An
    edge whose usual drawing crosses no box of the scopes it enters or leaves keeps it; the
    lanes are for the others. Fails on f014fbf: routed by the right border."""
    from test_gui_back_edges import _graph

    from inspector.gui.canvas.frame_lanes import Lanes

    graph = _graph([("input", "Placeholder", []), ("s/conv", "Relu", ["input"]),
                    ("s/bn", "Relu", ["s/conv"]), ("s/out", "Relu", ["s/bn"]),
                    ("s/side", "Relu", ["s/conv"]), ("output", "Identity", ["s/out"])])
    scene = ViewModel(graph).scene(expanded={"", "s"}, direction=direction)
    items, lanes = scene.items, Lanes(scene.items, direction == "LR")
    into = next(e for e in scene.edges if (e.src, e.dst) == ("input", "s/conv"))
    assert lanes.route(into, 0.0) is None
    line, _ = drawn_line(into, items, direction)
    assert _on_border(line[0], _rect(items["input"]))
    assert _on_border(line[-1], _rect(items["s/conv"]))
    frame = items["s/"]
    far = (lambda p: p.y()) if direction == "LR" else (lambda p: p.x())
    edge_of_frame = frame.y + frame.h if direction == "LR" else frame.x + frame.w
    assert max(far(p) for p in line) < edge_of_frame - 2 * 2.0, "went by the frame's border"
    assert not inside_a_box(line, {k: v for k, v in items.items()
                                   if k not in ("input", "s/conv")})


def test_the_lanes_count_on_the_bend_the_edges_are_drawn_with():
    """frame_lanes._crosses counts on how far edges._smooth's curve may bend past its ends:
    each wrote its own 20 (and frame_lanes named its box margin CLEAR, the name edges.py
    gives its labels' margin: note16). One named constant now, style.MIN_BEND; a short
    edge's curve, drawn, reaches no farther than the lanes reckon, and a box at its far
    point is one it crosses. Fails on the old code: no shared constant."""
    from PySide6.QtGui import QPainterPath

    from inspector.gui.canvas import edges, frame_lanes, style

    assert edges.MIN_BEND is frame_lanes.MIN_BEND is style.MIN_BEND
    Box = type("Box", (), {})            # (the lanes turn a left-to-right graph's points)
    p, q = (0.0, 0.0), (0.0, 4.0)
    path = QPainterPath()
    edges._smooth(path, [p, q])
    drawn = [path.pointAtPercent(k / 200).y() for k in range(201)]
    low, high = min(drawn), max(drawn)
    assert -style.MIN_BEND <= low < 0.0 and 4.0 < high <= 4.0 + style.MIN_BEND
    for at, hit in ((low - 1.0, True), (high, True),
                    (4.0 + style.MIN_BEND + frame_lanes.KEEP_OFF, False),
                    (-style.MIN_BEND - frame_lanes.KEEP_OFF - 1.0, False)):
        box = Box()
        box.x, box.y, box.w, box.h = -0.5, at, 1.0, 1.0
        assert frame_lanes._crosses(p, q, box) is hit, at
