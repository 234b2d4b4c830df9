"""The marks' use cases: what stripping to the marked inputs and outputs keeps (after every
change of the marks, in a task; the result goes to the state, `state.strip`, which the canvas
and the marks panel show), the feed points traced from an output (`state.proposals`) and the
summary of an opened model after its first picture (`state.summary`)."""

from __future__ import annotations

from inspector.core.app.opening import summary_of


def start_summary(state, tasks, model, on_error) -> None:
    """The summary (likely inputs and outputs, counts) after the first picture: on a big
    graph it takes as long as everything before that picture."""
    def work(job):
        found = summary_of(model)
        model.graph.consumer_index()  # here, not on the GUI thread at the first click
        return found

    tasks.submit("summary", work, lambda s: state.set_summary(model, s), on_error,
                 label="Summarizing")


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
