"""Following the graph from the selected node, as use cases that write into the state: the
cone (everything upstream and downstream of it: `state.cone_nodes`, painted by the canvas) and
one FunctionDef of the library as a view of its own (`state.show_view`)."""

from __future__ import annotations

from inspector.core.model.reachability import downstream, upstream


def start_cone(state, tasks, on: bool) -> None:
    """The cone of the selected node in a task (off, or no node: cleared at once)."""
    view, name = state.view, state.selected
    if not on or view is None or not name or name.endswith("/") or name not in view.graph:
        state.set_cone(on)
        return
    graph = view.graph

    def work(job):
        return upstream(graph, [name]) | downstream(graph, [name])

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
