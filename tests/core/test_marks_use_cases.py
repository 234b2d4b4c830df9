"""The marks' use cases (core/app/marks.py) write into the state: the strip preview after a
change of the marks, the summary after the first picture (Qt-free: tasks run at once)."""

from __future__ import annotations

from conftest import DEMO

from inspector.core.app.marks import start_strip, start_summary
from inspector.core.app.state import AppState
from inspector.core.loaders import load
from inspector.core.runtime.job import NO_JOB
from inspector.core.view.view_graph import ViewModel


class AtOnce:
    """Tasks run on the spot (what the window's runner does on its thread, then the GUI)."""

    def __init__(self):
        self.cancelled = []

    def submit(self, kind, work, done, failed=None, **_):
        try:
            result = work(NO_JOB)
        except Exception as exc:  # noqa: BLE001 - the runner hands it to `failed`
            failed(exc)
            return
        done(result)

    def cancel(self, kind=None, quiet=False):
        self.cancelled.append(kind)


def _opened():
    model = load(DEMO)
    state = AppState()
    state.set_model(model, ViewModel(model.graph, fold_constants=True))
    return model, state


def test_the_strip_preview_goes_to_the_state_and_none_without_an_output():
    model, state = _opened()
    seen = []
    state.strip_changed.connect(seen.append)
    start_strip(state, AtOnce())
    assert seen == [None] and state.strip is None
    state.workbench.set_marks(["pixels"], ["output"])
    start_strip(state, AtOnce())
    assert state.strip is seen[-1] and "output" in state.strip.kept
    first = next(n.name for n in model.graph.nodes if n.op == "Relu")
    state.workbench.set_marks(["pixels"], [first])         # up to the first block only
    start_strip(state, AtOnce())
    assert first in state.strip.kept and "output" in state.strip.dropped


def test_the_summary_goes_to_the_state_with_the_signature_first():
    model, state = _opened()
    start_summary(state, AtOnce(), model, on_error=None)
    assert state.summary is not None
    assert [c.name for c in state.summary.outputs][:1] == ["output"]


def test_the_cone_and_a_function_view_go_to_the_state():
    from inspector.core.app.cone import start_cone, start_function_view

    model, state = _opened()
    relu = next(n.name for n in model.graph.nodes if n.op == "Relu")
    state.select(relu)
    start_cone(state, AtOnce(), True)
    assert state.cone and relu in state.cone_nodes and "output" in state.cone_nodes
    assert "pixels" in state.cone_nodes
    start_cone(state, AtOnce(), False)
    assert not state.cone and state.cone_nodes == frozenset()
    said = []
    state.message.connect(said.append)
    assert start_function_view(state, AtOnce(), "no_such_function", None) is False
    assert said == ["This graph has no such function"]


def test_a_search_goes_to_the_state():
    from inspector.core.app.search import start_search

    model, state = _opened()
    start_search(state, AtOnce(), "Relu", False)
    assert state.search.searched and state.search.names
    assert all("Relu" in n or model.graph.get(n).op == "Relu" for n in state.search.names)
    start_search(state, AtOnce(), "", False)
    assert not state.search.searched and state.search.words == "Type to search the graph"
    start_search(state, AtOnce(), "(", True)          # a bad pattern says why
    assert state.search.names == [] and state.search.words


def test_a_constants_values_are_described_into_the_state():
    from inspector.core.app.properties import start_describe

    model, state = _opened()
    const = next(n.name for n in model.graph.nodes if n.op == "Const" and
                 n.name.endswith("kernel") or n.op == "Const")
    start_describe(state, AtOnce(), const, shown=const)
    assert state.described.const == const and state.described.values is not None
    said = []
    state.message.connect(said.append)
    start_describe(state, AtOnce(), "no/such/constant", shown="x")
    assert state.described.values is None and state.described.why and said


def test_sizes_and_duplicates_go_to_the_state_and_match_the_command_line():
    from inspector.core.app import sizing

    model, state = _opened()
    assert sizing.start_sizes(state, AtOnce(), "op")
    result = state.sizes
    assert result.model is model and result.after is None and result.by == "op"
    alone = sizing.measure(model.graph, "op", result.file_size)   # what `sizes` prints
    assert result.before.total == alone.total == alone.sizes.total > 0
    assert result.before.biggest == alone.biggest and "Conv2D" in result.before.biggest
    sizing.start_duplicates(state, AtOnce())
    assert state.duplicates is not None and state.duplicates.groups == []


def test_feed_points_traced_from_an_output_go_to_the_state():
    from inspector.core.app.marks import start_trace

    model, state = _opened()
    start_trace(state, AtOnce(), "output")
    assert state.proposals and any("pixels" in str(p) for p in state.proposals)


def test_the_auto_tour_is_the_command_lines_and_goes_to_the_workbench():
    from inspector.core.app.auto_tour import start_auto_tour, stops_for

    model, state = _opened()
    start_auto_tour(state, AtOnce(), "", None)
    cli = stops_for(model, state.original_view, None, (model.known_inputs,
                                                       model.known_outputs))
    tour = state.workbench.tour.stops
    assert tour and [s.title for s in tour] == [s.title for s in cli]


def test_edge_label_shapes_go_to_the_state_from_the_models_engine():
    from inspector.core.app.cone import start_shapes

    model, state = _opened()

    class Engine:
        def infer_shapes(self):
            return {"output": [[1, 10]]}

    state.engine = Engine()
    seen = []
    state.shapes_changed.connect(seen.append)
    start_shapes(state, AtOnce(), state.original_view, None)
    assert state.original_view.shapes == {"output": [[1, 10]]} and seen == [state.view]


def test_edge_shapes_that_give_no_output_a_shape_put_no_summary():
    """The edge shapes' task puts the summary again only when they give a likely output a
    shape (the review of a0f7560: every open redrew the Summary panel on the GUI thread
    for nothing)."""
    from dataclasses import make_dataclass
    from types import SimpleNamespace

    from inspector.core.analysis.summary import Candidate
    from inspector.core.app.marks import put_summary

    put = []
    graph = object()
    view = SimpleNamespace(graph=graph, shapes={"out": [(1, 10)]})
    model = SimpleNamespace(graph=graph)
    state = SimpleNamespace(original_view=view, set_summary=lambda m, s: put.append(s))
    summary_of = make_dataclass("Summary", [("outputs", list)])
    shaped = summary_of([Candidate("out", "Softmax", "float", "[1,10]")])
    put_summary(state, model, shaped, only_if_shaped=True)
    assert put == []
    shapeless = summary_of([Candidate("out", "Softmax", "float", "")])
    put_summary(state, model, shapeless, only_if_shaped=True)
    assert len(put) == 1 and put[0].outputs[0].shape == "[1,10]"
