"""The application state without Qt: every change emits, the history walks back and forth,
steps show their graphs and diffs, and decorations(state) says what each item shows."""

from __future__ import annotations

import os

import pytest

from inspector.core.analysis.marks import strip_preview
from inspector.core.analysis.summary import summarize
from inspector.core.app.decorations import decorations
from inspector.core.app.results import OverlayState
from inspector.core.app.state import AppState
from inspector.core.loaders import load
from inspector.core.view.view_graph import ViewModel


@pytest.fixture
def state(data):
    model = load(os.path.join(data, "inception_jpeg.pb"))
    s = AppState()
    s.set_model(model, ViewModel(model.graph), summarize(model.graph))
    return s


def _recorder(state, *names):
    seen = []
    for name in names:
        getattr(state, name).connect(lambda *a, n=name: seen.append(n))
    return seen


def _lay_out(state):
    state.set_scene(state.view.scene(state.expanded))


def test_every_change_emits_what_listeners_need(state):
    seen = _recorder(state, "expansion_changed", "selection_changed", "decorations_changed",
                     "view_changed")
    state.set_expanded("mixed/tower_0", True)
    assert {"mixed", "mixed/tower_0"} <= state.expanded and seen == ["expansion_changed"]
    seen.clear()
    state.select("softmax")
    assert seen == ["selection_changed", "decorations_changed"]
    seen.clear()
    state.workbench.toggle_output("softmax")
    assert seen == ["decorations_changed"]
    seen.clear()
    state.set_layout_options(direction="LR")
    assert seen == ["view_changed"] and state.view.direction == "LR"


def test_constants_option_asks_for_a_view_and_takes_only_a_current_one(state):
    from inspector.core.model.graph import Graph

    wanted = []
    state.original_view_wanted.connect(lambda graph, fold: wanted.append((graph, fold)))
    shown = _recorder(state, "view_changed")
    old = state.original_view
    state.set_layout_options(show_constants=True)
    assert wanted == [(old.graph, False)] and state.view is old and shown == []
    state.put_original_view(ViewModel(old.graph, fold_constants=True))   # the old option
    assert state.original_view is old and shown == []
    built = ViewModel(old.graph, fold_constants=False)
    state.put_original_view(built)
    assert state.original_view is built and state.view is built and shown == ["view_changed"]
    assert "conv/weights" in built.scene({s.path for s in built.root.walk()}).items
    state.set_layout_options(show_constants=False)
    assert wanted[-1] == (old.graph, True)
    state.put_original_view(ViewModel(Graph(old.graph.structure), fold_constants=True))
    assert state.original_view is built      # a view of another graph is dropped


def test_history_and_reveal(state):
    for name in ("Mul", "pool", "softmax"):
        state.select(name)
    state.back()
    assert state.selected == "pool"
    state.back()
    state.forward()
    assert state.selected == "pool"
    assert state.visible_id("mixed/tower_1/conv/Conv2D") == "mixed/"
    assert state.reveal("mixed/tower_1/conv/Conv2D")
    assert state.visible_id("mixed/tower_1/conv/Conv2D") == "mixed/tower_1/conv/Conv2D"
    assert not state.reveal("mixed/tower_1/conv/Conv2D")


def test_decorations_tags_dimming_and_cone(state):
    state.workbench.set_marks(["Mul"], ["softmax"])
    state.set_strip(strip_preview(state.original_view.graph, ["Mul"], ["softmax"]))
    _lay_out(state)
    d = decorations(state)
    assert d.tags == {"Mul": "IN", "softmax": "OUT"}
    assert "DecodeJpeg" in d.dimmed and "softmax" not in d.dimmed  # stripping drops it
    state.select("pool")
    state.set_cone(True, {"pool", "softmax", "mixed/join"})
    d = decorations(state)
    assert d.selected == "pool" and {"softmax", "mixed/"} <= d.cone and "pool" not in d.cone
    assert "Sub" in d.dimmed


def _view_of(graph_def):
    from inspector.core.model.graph import Graph
    from inspector.core.view.view_graph import ViewModel

    return ViewModel(Graph(graph_def), fold_constants=True)


def test_a_step_shows_its_graph_and_diff(state, data):
    from inspector.core.app.preview import PreviewEngine
    from inspector.core.transforms import parse_transforms

    engine = PreviewEngine(state.model.graph.graph_def)
    rows = engine.run(parse_transforms("remove_nodes(op=Identity, op=CheckNumerics)"),
                      ["Mul"], ["softmax"], with_flops=False)
    assert all(r.report is None or r.report.graph_def is None for r in rows)  # no graphs
    state.set_rows(rows)
    seen = _recorder(state, "view_changed", "step_changed", "step_view_wanted")
    state.show_step(1)  # the step's graph is asked for; the canvas keeps the original
    assert state.view is state.original_view and seen == ["step_changed", "step_view_wanted"]
    seen.clear()
    state.put_step_view(b"not a row", _view_of(engine.graph(rows[1].key)))  # ignored
    state.put_step_view(rows[1].key, _view_of(engine.graph(rows[1].key)))
    assert state.view is not state.original_view and seen == ["step_changed", "view_changed"]
    assert set(state.diff.values()) <= {"added", "changed"} and state.diff
    state.show_step(1, after=False)
    assert state.view is state.original_view and set(state.diff.values()) == {"removed"}
    _lay_out(state)
    assert "removed" in decorations(state).diff.values()
    state.set_rows(rows[:1])  # the pipeline shrank: back to the original
    assert state.step == 0 and state.diff == {}



def test_the_canvas_never_shows_a_step_that_is_gone_or_changed(state):
    """Stale state: deleting the shown (quantize) step, or recomputing it with other
    parameters, used to leave its old graph on the canvas."""
    from inspector.core.app.preview import PreviewEngine
    from inspector.core.model.graph import Graph
    from inspector.core.transforms import parse_transforms

    engine = PreviewEngine(state.model.graph.graph_def)
    state.step_view_wanted.connect(  # as the preview controller does, but at once
        lambda key: state.put_step_view(key, _view_of(engine.graph(key))))

    def rows_of(text):
        return engine.run(parse_transforms(text), ["Mul"], ["softmax"], with_flops=False)

    def shown_ops():
        return {n.op for n in state.view.graph}

    state.set_rows(rows_of("remove_nodes(op=Identity) quantize_weights(minimum_size=8)"))
    state.show_step(2)
    assert "Dequantize" in shown_ops()
    # partial rows of a recompute keep the step shown (no flicker back to the original) ...
    shorter = rows_of("remove_nodes(op=Identity)")
    state.set_rows(shorter[:1], final=False)
    assert state.step == 2 and "Dequantize" in shown_ops()
    # ... the final rows without the step go back to the original
    state.set_rows(shorter)
    assert state.step == 0 and "Dequantize" not in shown_ops()
    # the same step recomputed with other parameters shows the new graph
    state.set_rows(rows_of("remove_nodes(op=Identity) quantize_weights(minimum_size=8)"))
    state.show_step(2)
    state.set_rows(rows_of("remove_nodes(op=Identity) round_weights"))
    assert state.step == 2 and "Dequantize" not in shown_ops()
    assert Graph(engine.graph(state.rows[2].key)).nodes[0].name in {n.name for n in
                                                                    state.view.graph}


def test_overlay_heat_and_badges_sum_into_collapsed_scopes(state):
    from inspector.core.overlays.profiling import NodeTime, Profile

    times = {"mixed/tower_0/conv/Conv2D": 2.0, "mixed/tower_1/conv/Conv2D": 1.0, "pool": 4.0}
    profile = Profile({n: NodeTime(n, "Conv2D", ms) for n, ms in times.items()}, "test")
    state.set_overlay(OverlayState(mode="timings", profiles=(profile,), current=0))
    _lay_out(state)
    d = decorations(state)
    assert d.badges["mixed/"] == "3.000 ms" and d.badges["pool"] == "4.000 ms"
    assert d.heat["pool"] != d.heat["mixed/"]


def test_set_model_resets_everything_but_layout_options(state, data):
    state.select("softmax")
    state.set_layout_options(direction="LR")
    model = load(os.path.join(data, "while_v1.pb"))
    state.set_model(model, ViewModel(model.graph), summarize(model.graph))
    assert state.selected is None and state.expanded == {""} and state.rows == ()
    assert state.direction == "LR" and state.view.direction == "LR"


def test_an_event_forgets_a_bound_method_given_again():
    """`obj.method` is a new object at each access: disconnect compares by equality."""
    from inspector.core.runtime.events import Event

    class Listener:
        def __init__(self):
            self.calls = 0

        def heard(self, *_):
            self.calls += 1

    event, listener = Event(), Listener()
    event.connect(listener.heard)
    event.emit(1)
    event.disconnect(listener.heard)
    event.emit(2)
    assert listener.calls == 1


def test_each_result_setter_stores_emits_and_repaints_as_before(state):
    """The use cases' results (results.RESULTS, setters made from the table): each setter stores
    its value and emits `<field>_changed(value)`; the overlay, a demo run and a recipe run
    also repaint the canvas; a new model empties them all."""
    fields = {"overlay": OverlayState(), "demo": None, "quant": None, "tflite_check": None,
              "card": None, "search": None, "described": None, "sizes": None,
              "duplicates": None, "proposals": [], "output_check": None, "ops_header": None}
    repaints = []
    state.decorations_changed.connect(lambda: repaints.append(1))
    for name, empty in fields.items():
        assert getattr(state, name) == empty
        got = []
        repaints.clear()
        getattr(state, f"{name}_changed").connect(got.append)
        value = object()
        getattr(state, f"set_{name}")(value)
        assert getattr(state, name) is value and got == [value]
        assert len(repaints) == (name in ("overlay", "demo", "quant")), name
    state.set_model(state.model, ViewModel(state.model.graph))
    assert all(getattr(state, name) == empty for name, empty in fields.items())
    assert state.proposals is not AppState().proposals
