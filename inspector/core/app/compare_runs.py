"""The comparisons the window opens, as use cases: the open model against another file
(`start_compare_with`), against the graph after a pipeline step (`start_compare_step`), a
saved comparison read and opened again (`start_open_document`, `start_reopen`) and the pipeline's stages as synced lanes
(`start_stages`). Each runs in one task, with `lay_out(session, job)` (the window's pictures,
made there too) when given, and hands what it made to the state (`state.open_comparison`),
whose listener opens the window. (The analysis is imported in the task: none of it is on
the first picture's path.)"""

from __future__ import annotations

import os
from dataclasses import dataclass

from inspector.core.errors import InspectorError
from inspector.core.model.graph import Graph


@dataclass(frozen=True)
class Opened:
    session: object            # comparing.CompareSession, or lanes.LanesSession (lanes)
    first: object = None       # lay_out's answer: both sides laid out
    lanes: bool = False        # the pipeline's stages as synced lanes
    note: str = ""             # said once it is open


def _ports(state) -> tuple:
    return list(state.workbench.inputs), list(state.workbench.outputs)


def _start(state, tasks, work, lay_out, on_error, label: str, lanes: bool = False) -> None:
    def run(job):
        session, note = work(job)
        first = None
        if lay_out is not None:
            job.progress(96, 100, "laying out both sides")
            first = lay_out(session, job)
        return Opened(session, first, lanes, note)

    tasks.submit("compare", run, state.open_comparison, on_error, label=label)


def side_names(a_path: str, b_path: str) -> tuple[str, str]:
    """The two models' file names, with as many of their folders as tell them apart: a TF.js
    pair reads base/model.json and int8/model.json, not model.json twice (the window's
    title and panes said "model.json" on both sides)."""
    a = os.path.abspath(a_path.rstrip("/\\")).split(os.sep)
    b = os.path.abspath(b_path.rstrip("/\\")).split(os.sep)
    k = 1
    if a != b:
        while k < min(len(a), len(b)) and a[-k:] == b[-k:]:
            k += 1
    return "/".join(a[-k:]) or "A", "/".join(b[-k:]) or "B"


def start_compare_with(state, tasks, path: str, lay_out, on_error) -> None:
    """The open model (A) against the model at `path` (B; not parsed again when it is A)."""
    model, ports = state.model, _ports(state)
    graph = model.graph
    a_label, b_label = side_names(model.path, path)

    def work(job):
        from inspector.core.app.comparing import compare
        from inspector.core.app.identical import same_as_opened
        from inspector.core.app.opening import open_model

        job.progress(2, 100, f"Opening {b_label}")
        same = same_as_opened(model, path) is not None
        gb = graph if same else open_model(path).graph
        session = compare(graph, gb, a_label, b_label, job=job, paths=(model.path, path),
                          totals=True)
        session.ports = ports
        return session, ""

    _start(state, tasks, work, lay_out, on_error, f"Comparing with {b_label}")


def step_graphs(state):
    """key -> the Graph after that preview step: the one the canvas already fetched, else
    from the preview engine (the worker, in the app; call it in a task)."""
    engine = state.engine
    known = {row.key: state.step_graph(row.key) for row in state.rows}   # taken here

    def step_graph(key):
        graph = known.get(key)
        if graph is None:
            graph_def = engine.graph(key)
            graph = Graph(graph_def) if graph_def is not None else None
        return graph

    return step_graph


def start_compare_step(state, tasks, row: int, lay_out, on_error) -> bool:
    """The graph after pipeline step `row` against the original, with the pipeline's own
    provenance (renames, merges, splits of each step up to it); False (said) without it."""
    rows, model = state.rows, state.model
    if model is None or state.engine is None or not 0 < row < len(rows) or \
            rows[row].report is None:
        state.say("Preview a pipeline first: there is no step to compare")
        return False
    reports = [r.report for r in rows[1:row + 1]]
    key, label, ports = rows[row].key, rows[row].label, _ports(state)
    a_label = os.path.basename(model.path.rstrip("/")) or "original"
    step_graph = step_graphs(state)

    def work(job):
        from inspector.core.app.comparing import compare

        job.progress(1, 100, f"Fetching the graph after {label}")
        gb = step_graph(key)
        if gb is None:
            raise InspectorError("that step is no longer previewed; try again")
        session = compare(model.graph, gb, a_label, f"after {label}", steps=reports, job=job,
                          paths=(model.path, ""), totals=True)
        session.ports = ports
        return session, ""

    _start(state, tasks, work, lay_out, on_error,
           f"Comparing the original with the graph after {label}")
    return True


def start_open_document(state, tasks, path: str, trusted, lay_out, on_error,
                        on_unreadable) -> None:
    """File > Open comparison: the saved comparison at `path` read in a task (it may be
    512 MB of JSON; a deep 1 MB one held the GUI thread 155 ms when read there), then, back
    on the front end's thread, `trusted(paths)` asked when it names models outside its
    folder (the session files' trust rule: False stops here), then its models opened again
    (start_reopen). A file that is no readable comparison: on_unreadable(InspectorError)
    (its one line names the file); any other failure: on_error(exc)."""
    def read(job):
        from inspector.core.app.comparison_files import read_document

        return read_document(path, job=job)

    def done(found) -> None:
        document, a_path, b_path, outside = found
        if not outside or trusted(outside):
            start_reopen(state, tasks, document, a_path, b_path, lay_out, on_error)

    def failed(exc) -> None:
        (on_unreadable if isinstance(exc, InspectorError) else on_error)(exc)

    tasks.submit("compare", read, done, failed, label="Reading the comparison")


def start_reopen(state, tasks, document, a_path: str, b_path: str, lay_out, on_error) -> None:
    """A saved comparison (comparison_files.read_document's) with its models opened again."""
    def work(job):
        from inspector.core.app.comparison_files import reopen
        from inspector.core.app.opening import open_model

        a, b = open_model(a_path), open_model(b_path)
        return reopen(document, a.graph, b.graph, (a_path, b_path), job=job)

    _start(state, tasks, work, lay_out, on_error, "Opening the comparison")


def start_stages(state, tasks, on_error) -> bool:
    """The original and the graph after every previewed step as synced lanes; False (said)
    without a previewed pipeline."""
    rows, model = state.rows, state.model
    if state.engine is None or model is None or len(rows) < 2:
        state.say("Preview a pipeline first: there are no stages")
        return False
    step_graph = step_graphs(state)

    def work(job):
        from inspector.core.app.lanes import pipeline_lanes

        return pipeline_lanes(model.graph, step_graph, rows, job), ""

    _start(state, tasks, work, None, on_error, "Matching the stages", lanes=True)
    return True
