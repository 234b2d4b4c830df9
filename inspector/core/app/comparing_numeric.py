"""Comparing two models numerically, the use case behind "Run both on the same input" and
`diff --numeric`: the ports both are fed at, the inputs, and each side run where it runs (a
GraphDef in TensorFlow, a .tflite in LiteRT, both in the worker in the app)."""

from __future__ import annotations

from inspector.core.analysis.summary import summarize
from inspector.core.app.ports import ports_to_use
from inspector.core.compare.diff import Diff
from inspector.core.errors import InspectorError
from inspector.core.loaders import files
from inspector.core.model.graph import Graph
from inspector.core.model.origin import is_tflite
from inspector.core.runtime.job import NO_JOB, Job


def numeric_ports(summary, inputs=(), outputs=(), every_candidate: bool = False) -> tuple:
    """(inputs, outputs) both models are fed and compared at: those given (A's marks, the
    diff command's --inputs/--outputs), each side else from A's summary: the suggested ports
    (ports_to_use: past an image decoder, not its encoded bytes), or with every_candidate
    every candidate it lists (the diff command's rule, which then asks for --inputs)."""
    if every_candidate:
        return (list(inputs) or [c.name for c in summary.inputs],
                list(outputs) or [c.name for c in summary.outputs])
    return ports_to_use(inputs, outputs, summary)


def numeric_between(d: Diff, ga: Graph, gb: Graph, summary, inputs=(), outputs=(),
                    first_input=None, arrays: dict | None = None, threshold: float | None = None,
                    allow_io: bool = False, every_candidate: bool = False, job: Job = NO_JOB,
                    paths: tuple = ("", ""), sizes: dict | None = None):
    """Both models on the same input at numeric_ports(...): `arrays` by input name, or
    `first_input` for the first of the ports, else seeded random values; every matched
    tensor compared (the window's run_numeric and `diff --numeric`). A .tflite side (read
    from its path) runs in LiteRT, a GraphDef in TensorFlow."""
    from inspector.core.compare.numeric import (
        THRESHOLD,
        numeric_divergence,
        prepare_feeds,
    )

    inputs, outputs = numeric_ports(summary, inputs, outputs, every_candidate)
    if first_input is not None:
        arrays = {**(arrays or {}), inputs[0].split(":")[0]: first_input}
    try:            # A's inputs are what both are fed: an input of no known size is A's
        feeds_a, feeds_b, notes = prepare_feeds(d, ga, gb, inputs, arrays, sizes=sizes)
    except InspectorError as exc:
        if exc.hint == "input_size":    # no size is given to a comparison: only values are
            exc.hint = "input_values"
            Exception.__init__(exc, exc.one_line())
        raise exc.naming(paths[0]) from None
    models = tuple(_tflite_bytes(g, path, side) for g, path, side in
                   ((ga, paths[0], "A"), (gb, paths[1], "B")))
    result = numeric_divergence(d, ga, gb, feeds_a, feeds_b, outputs,
                                THRESHOLD if threshold is None else threshold,
                                allow_io=allow_io, job=job, models=models, paths=paths)
    result.inputs = notes
    return result


def _tflite_bytes(graph: Graph, path: str, side: str) -> bytes | None:
    """The file of a .tflite side (what LiteRT runs); None for a GraphDef."""
    if not is_tflite(graph):
        return None

    if not path:
        raise InspectorError(f"{side} is a .tflite with no file to run")
    return files.read_file(path, what="the TensorFlow Lite file")


def run_numeric(session, job: Job = NO_JOB, arrays: dict | None = None,
                allow_io: bool = False, sizes: dict | None = None):
    """Both models on the same input (A's marked inputs, else the suggested ones: past an
    image decoder, not its encoded bytes; seeded random values unless arrays are given),
    every matched tensor compared; TensorFlow and LiteRT run in the worker. `sizes`
    ({input: dims}): the sizes of A's inputs given in the window (it asks for those of an
    input of no known size)."""
    ga, gb = session.graphs["A"], session.graphs["B"]
    return numeric_between(session.diff, ga, gb, summarize(ga), session.ports[0],
                           session.ports[1], arrays=arrays, allow_io=allow_io, job=job,
                           paths=session.paths, sizes=sizes)


def start_numeric(session, tasks, then, on_error, allow_io: bool = False,
                  sizes: dict | None = None) -> None:
    """`run_numeric` as a task (the comparison window's own runner) -> `session.numeric` (the
    comparison's state, saved with its report), the first divergent node of A selected;
    `then(divergence)` lets its window repaint."""
    def done(divergence):
        session.numeric = divergence
        if divergence.first:
            session.select("A", divergence.first)
        then(divergence)

    tasks.submit("compare-numeric", lambda job: run_numeric(session, job, allow_io=allow_io,
                                                            sizes=sizes),
                 done, on_error, label="Running A and B on the same input")
