"""The marks' use cases: what stripping to the marked inputs and outputs keeps (after every
change of the marks, in a task; the result goes to the state, `state.strip`, which the canvas
and the marks panel show), the feed points traced from an output (`state.proposals`) and the
summary of an opened model after its first picture (`state.summary`)."""

from __future__ import annotations

from inspector.core.analysis import output_shapes
from inspector.core.app.opening import summary_of


def start_summary(state, tasks, model, on_error) -> None:
    """The summary (likely inputs and outputs, counts) after the first picture: on a big
    graph it takes as long as everything before that picture. Its outputs' shapes the graph
    does not record follow in a task of their own once the first picture is up (summary_of's:
    the walk imports numpy, which the demo's summary, done before its first paint, would
    have put before it)."""
    def work(job):
        found = summary_of(model)
        model.graph.consumer_index()  # here, not on the GUI thread at the first click
        return found

    def done(summary) -> None:
        put_summary(state, model, summary)
        if model is state.model and output_shapes.wanted(model.graph, summary):
            _when_framed(state, model, lambda: tasks.submit(
                "output shapes", lambda job: output_shapes.with_output_shapes(model.graph,
                                                                              summary),
                lambda s: put_summary(state, model, s), on_error, label="Summarizing"))

    tasks.submit("summary", work, done, on_error, label="Summarizing")


def put_summary(state, model, summary, only_if_shaped: bool = False) -> None:
    """The summary of `model` into the state, its likely outputs that show no shape given
    TensorFlow's shapes of the model's graph where they are in (a graph too big for the
    summary's own walk, output_shapes.LIMIT, showed 'output float' and no shape, while its
    edges read the shape). The edge shapes' task calls it again when they come later
    (only_if_shaped: and nothing is put, nor the panels redrawn, when they give no output a
    shape)."""
    view = state.original_view
    shaped = None
    if summary is not None and view is not None and view.graph is model.graph and \
            view.shapes is not None:
        shaped = output_shapes.with_inferred(summary, view.shapes)
    if shaped is not None or not only_if_shaped:
        state.set_summary(model, shaped or summary)


def _when_framed(state, model, then) -> None:
    """`then()` once the first picture of `model` is on screen (now if it is)."""
    if state.framed is model:
        then()
    else:
        state.first_frame.connect(_OnFirstFrame(state, model, then))


class _OnFirstFrame:
    """A first_frame listener that runs `then` for its model's first picture, once, and lets
    go of everything when it is done (or another model opened). Not a closure naming itself
    for its disconnect: that cycle, frozen by gc_policy before a collection, kept the model
    (its graph and scenes) after the next one opened."""

    def __init__(self, state, model, then):
        self.state, self.model, self.then = state, model, then

    def __call__(self, shown) -> None:
        state, model, then = self.state, self.model, self.then
        if state is None or (shown is not model and state.model is model):
            return
        state.first_frame.disconnect(self)
        self.state = self.model = self.then = None
        if shown is model:
            then()


def start_strip(state, tasks) -> None:
    """What stripping to the marks keeps, in a task, into `state.strip` (None without an
    output marked: nothing to keep, nothing to show, no walk over the graph)."""
    view = state.original_view
    if view is None:
        return
    bench = state.workbench
    ins, outs = list(bench.inputs), list(bench.outputs)
    if not outs:     # at an open it would compete with the first layout
        tasks.cancel("strip")
        state.set_strip(None)
        return

    def work(job):
        # imported here, on the task's thread: ~10 ms the GUI thread spent as a model opened
        from inspector.core.analysis.marks import strip_preview

        preview = strip_preview(view.graph, ins, outs)
        preview.kept_scopes = view.scopes_holding(preview.kept)
        return preview

    def done(strip):
        if view is state.original_view:
            state.set_strip(strip)

    tasks.submit("strip", work, done, label="Finding what stripping keeps")


def start_trace(state, tasks, name: str) -> None:
    """Follow an output back to the places a mobile app would feed (a walk over a big
    graph's producers, in a task) -> `state.proposals`."""
    view = state.original_view
    if not name or name.endswith("/") or view is None:
        return

    def work(job):
        from inspector.core.analysis.marks import trace_to_inputs

        return trace_to_inputs(view.graph, name)

    def done(proposals):
        if view is state.original_view:      # not another model opened meanwhile
            state.set_proposals(proposals)

    tasks.submit("trace", work, done, label="Tracing to the feed points")
