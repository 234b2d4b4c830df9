"""Following the graph, as use cases that write into the state: the cone of the selected node
(everything upstream and downstream of it: `state.cone_nodes`, painted by the canvas), one
FunctionDef of the library as a view of its own (`state.show_view`) and the tensor shapes of
the edge labels (`state.set_shapes`)."""

from __future__ import annotations

from inspector.core.model.reachability import cone


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
        body.graph.consumer_index()
        return body

    def done(body):
        if state.original_view is view:
            state.show_view(body)
            state.say(f"Function {name} (View > Main graph to go back)")

    tasks.submit("step view", work, done, on_error, label="Opening the function")
    return True


def start_shapes(state, tasks, view, on_error) -> None:
    """Tensor shapes for edge labels, from TF's shape inference where the model's engine
    lives (the worker, in the app), in a task -> `state.set_shapes`. Not for a model TF cannot
    infer (a TFLite model: TF knows none of its ops, and its tensors carry their shapes)."""
    engine, model = state.engine, state.model
    if view is None or engine is None or (model is not None and
                                          "shapes" not in model.capabilities):
        return

    def work(job):
        shapes = engine.infer_shapes()
        if shapes is None:
            return None
        # keyed by the graph's own name strings: the answer's are copies (20 MB on 300k)
        node = view.graph.get
        return {(n.name if (n := node(k)) is not None else k): v for k, v in shapes.items()}

    def done(shapes):
        if shapes is not None:
            state.set_shapes(view, shapes)

    tasks.submit("shapes", work, done, on_error, label="Inferring tensor shapes")
