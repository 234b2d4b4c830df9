"""The pipeline's runs as use cases, where the model's engine lives (the worker, in the app):
the live preview (a row per step -> `state.set_rows`, partial rows while it computes) and
the numeric check (the original graph and the pipeline's last graph run in TensorFlow on
the same inputs, their marked outputs compared -> `state.output_check`); a step's graph
fetched from it to be shown (-> `state.put_step_view`); the last graph saved."""

from __future__ import annotations

import os
from dataclasses import dataclass

from inspector.core.app.cone import start_shapes
from inspector.core.app.inputs import input_shapes_and_types
from inspector.core.model.graph import Graph
from inspector.core.model.humanize import count


def start_preview(state, tasks) -> bool:
    """Recompute the pipeline's rows (cached prefixes: an edit redoes little) in a task;
    False when there is no engine. An answer for another model is dropped."""
    engine, bench = state.engine, state.workbench
    if engine is None:
        return False
    steps = list(bench.steps)        # values taken here, before the task
    ins, outs = list(bench.inputs), list(bench.outputs)
    shapes, _ = input_shapes_and_types(state)

    def rows_to_state(final):
        def put(rows):
            if state.engine is engine:
                state.set_rows(rows, final=final)
        return put

    tasks.submit("preview",
                 lambda job: engine.run(steps, ins, outs, shapes, with_flops=True, job=job),
                 rows_to_state(True), lambda exc: state.fail(f"Preview failed: {exc}"),
                 on_partial=rows_to_state(False), label="Previewing the pipeline")
    return True


def start_step_view(state, tasks, key: bytes, on_error) -> None:
    """The graph after the preview step `key`, from the engine, as a view (consumers indexed
    there, not at the first click) -> `state.put_step_view`; a newer request drops this."""
    engine, fold = state.engine, not state.show_constants

    def work(job):
        from inspector.core.view.view_graph import ViewModel

        graph_def = engine.graph(key)
        job.check()
        if graph_def is None:
            return None
        view = ViewModel(Graph(graph_def), fold_constants=fold)
        view.graph.consumer_index()
        return view

    def done(view):
        if view is not None:
            state.put_step_view(key, view)
            # its edges' shapes, as the model's: TF's inference of this graph (a step's
            # graph had none, so its edges read "float" where the model's read a shape)
            start_shapes(state, tasks, view, lambda exc: state.say(
                f"No tensor shapes for the step's graph: {exc}"), key)

    tasks.submit("step view", work, done, on_error, label="Fetching the step's graph")


@dataclass(frozen=True)
class OutputCheck:
    """The marked outputs of the original graph against the pipeline's last graph."""
    key: bytes          # the last row's key: the pipeline that was checked
    results: list       # analysis.numeric_check results, one per output


def start_check(state, tasks, on_error, allow_io: bool = False) -> bool:
    """Run the original graph and the pipeline's last graph in TensorFlow where the engine
    lives, in a task -> `state.set_output_check`; False (nothing started) without marked
    outputs, a step or an engine. A pipeline edited meanwhile drops the answer."""
    rows, bench, engine = state.rows, state.workbench, state.engine
    if len(rows) < 2 or not bench.outputs or engine is None:
        return False
    ins, outs, key = list(bench.inputs), list(bench.outputs), rows[-1].key
    shapes, _ = input_shapes_and_types(state)

    def done(results):
        if state.engine is engine and state.rows and state.rows[-1].key == key:
            state.set_output_check(OutputCheck(key, results))

    tasks.submit("check", lambda job: engine.check(key, ins, outs, shapes, allow_io), done,
                 on_error, label="Running both graphs in TensorFlow")
    return True


def start_save(state, tasks, path: str, on_error) -> bool:
    """Write the pipeline's last graph to `path` where the engine keeps it (atomically; text
    for .pbtxt), in a task; the status says how many nodes. False without a step or engine."""
    rows, engine = state.rows, state.engine
    if not rows or engine is None:
        return False
    key = rows[-1].key
    tasks.submit("save", lambda job: engine.save(key, path, path.endswith(".pbtxt")),
                 lambda nodes: state.say(f"Saved {count(nodes, 'node')} to {path}"),
                 on_error, label=f"Saving {os.path.basename(path)}")
    return True
