"""Following the graph, as use cases that write into the state: the cone of the selected node
(everything upstream and downstream of it: `state.cone_nodes`, painted by the canvas), one
FunctionDef of the library as a view of its own (`state.show_view`) and the tensor shapes of
the edge labels (`state.set_shapes`)."""

from __future__ import annotations

from collections.abc import Mapping

from inspector.core.app.marks import put_summary
from inspector.core.model.reachability import cone

PIECE = 8192        # nodes a dict of PiecedShapes holds


def start_cone(state, tasks, on: bool) -> None:
    """The cone of the selected node in a task (off, or no node: cleared at once)."""
    view, name = state.view, state.selected
    if not on or view is None or not name or name.endswith("/") or name not in view.graph:
        state.set_cone(on)
        return
    graph = view.graph

    def work(job):
        return cone(graph, [name])

    tasks.submit("cone", work, lambda nodes: state.set_cone(state.selected == name, nodes),
                 label="Following the graph")


def start_function_view(state, tasks, name: str, on_error) -> bool:
    """The library's function `name` as a graph of its own (_Arg/_Retval ends), shown once
    laid out; False when the open graph has no such function."""
    view = state.original_view
    if view is None or name not in view.graph.functions:
        state.say("This graph has no such function")
        return False
    main = view.graph

    def work(job):    # a SavedModel's function can hold as many nodes as a big graph
        from inspector.core.model.function_bodies import function_graph
        from inspector.core.view.view_graph import ViewModel

        body = ViewModel(function_graph(main, name))
        body.caption = f"Function {name} (View > Main graph to go back)"
        body.graph.consumer_index()
        return body

    def done(body):
        if state.original_view is view:
            state.show_view(body)
            state.say(body.caption)

    tasks.submit("step view", work, done, on_error, label="Opening the function")
    return True


def start_shapes(state, tasks, view, on_error, key: bytes | None = None) -> None:
    """Tensor shapes for edge labels, from TF's shape inference where the model's engine
    lives (the worker, in the app), in a task -> `state.set_shapes`: of the model's graph, or
    (key) of a previewed step's graph, whose view is `view`. Not for a model TF cannot
    infer (a TFLite model: TF knows none of its ops, and its tensors carry their shapes)."""
    engine, model = state.engine, state.model
    if view is None or engine is None or (model is not None and
                                          "shapes" not in model.capabilities):
        return

    def work(job):
        shapes = engine.infer_shapes() if key is None else engine.infer_shapes(key)
        if shapes is None:
            return None
        # keyed by the graph's own name strings: the answer's are copies (20 MB on 300k)
        if len(shapes) > PIECE:
            return PiecedShapes(view.graph, shapes)
        node = view.graph.get
        return {(n.name if (n := node(k)) is not None else k): v for k, v in shapes.items()}

    def done(shapes):
        if shapes is not None:
            state.set_shapes(view, shapes)
            model, summary = getattr(state, "model", None), getattr(state, "summary", None)
            if view is getattr(state, "original_view", None) and None not in (model, summary):
                put_summary(state, model, summary, only_if_shaped=True)

    tasks.submit("shapes" if key is None else "step shapes", work, done, on_error,
                 label="Inferring tensor shapes")


class PiecedShapes(Mapping):
    """node name -> its output shapes, for a big graph: a dict a PIECE of node indexes, keyed
    by the graph's own name strings. One dict of a 1M-node graph's shapes grows by C calls
    that rehash it all (the last held the GIL ~65 ms at normal speed); these stay small. It
    keeps the graph's name -> index dict, never the Graph (no reference cycle)."""

    def __init__(self, graph, shapes: dict):
        self._index, names = graph._index, graph.name_list
        self._pieces = [{} for _ in range(len(names) // PIECE + 1)]
        self._extra: dict = {}            # names no node has
        index, pieces = self._index.get, self._pieces
        for k, v in shapes.items():
            i = index(k)
            if i is None:
                self._extra[k] = v
            else:
                pieces[i // PIECE][names[i]] = v
        self._count = len(shapes)

    def _piece(self, name) -> dict:
        i = self._index.get(name)
        return self._extra if i is None else self._pieces[i // PIECE]

    def __getitem__(self, name):
        return self._piece(name)[name]

    def get(self, name, default=None):
        return self._piece(name).get(name, default)

    def __contains__(self, name) -> bool:
        return name in self._piece(name)

    def __iter__(self):
        for piece in self._pieces:
            yield from piece
        yield from self._extra

    def __len__(self) -> int:
        return self._count
