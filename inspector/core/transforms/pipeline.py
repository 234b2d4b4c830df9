"""Run a list of transforms in order, each on the previous result, with a report per step."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from inspector.core.errors import InspectorError
from inspector.core.runtime.job import NO_JOB, Job
from inspector.core.transforms.base import (
    NOTHING_CHANGED,
    REGISTRY,
    Context,
    TransformError,
    check_params,
)
from inspector.core.transforms.syntax import TransformSpec, parse_transforms
from inspector.core.transforms.validation import validate  # noqa: F401  (also used here)


@dataclass
class StepReport:
    spec: TransformSpec
    graph_def: object
    removed: list = field(default_factory=list)
    added: list = field(default_factory=list)
    changed: list = field(default_factory=list)
    reasons: dict = field(default_factory=dict)
    kept: dict = field(default_factory=dict)    # matched but left alone -> why
    ignored_error: str = ""
    seconds: float = 0.0
    native: bool = False
    unchanged: str = ""    # the step changed nothing: why, and what to use instead
    warning: str = ""      # the step's result does what its user would not expect
    became: dict = field(default_factory=dict)   # old name -> its new name
    merged: dict = field(default_factory=dict)   # old name -> node it was merged into
    split: dict = field(default_factory=dict)    # new node -> old node it came out of

    def outcome(self) -> str:
        """'changed nothing: why' for a step that left the graph as it was, else ''."""
        return f"changed nothing: {self.unchanged}" if self.unchanged else ""


def ignore_errors(spec: TransformSpec) -> bool:
    vals = spec.params.get("ignore_errors")
    if not vals:
        return False
    text = vals[0].lower()
    if text not in ("true", "false"):
        raise TransformError(f"ignore_errors should be true or false, found {text}")
    return text == "true"


def diff(before, after) -> tuple[list, list, list]:
    """(removed, added, changed) node names between two GraphDefs (`before` may also be
    {name: NodeDef} taken before a step that changes its graph in place: a node still the
    same message there is unchanged, as Context.in_place promises)."""
    old = before if isinstance(before, dict) else {n.name: n for n in before.node}
    new = {n.name: n for n in after.node}
    removed = [n for n in old if n not in new]
    added = [n for n in new if n not in old]
    changed = [n for n in new if n in old and new[n] is not old[n] and new[n] != old[n]]
    return removed, added, changed


def run_step(graph_def, spec: TransformSpec, inputs: list, outputs: list,
             job: Job = NO_JOB, in_place: bool = False) -> StepReport:
    """One step; `in_place`: it may change graph_def itself and return it (Context.in_place),
    unless the step ignores errors (it must give back its input untouched then)."""
    info = REGISTRY.get(spec.name)
    if info is None:
        raise TransformError(f"Transform '{spec.name}' not recognized.")
    ctx = Context(list(inputs), list(outputs), dict(spec.params), name=spec.name, job=job)
    ctx.check()
    skip = ignore_errors(spec)
    ctx.in_place = in_place and not skip
    before = {n.name: n for n in graph_def.node} if ctx.in_place else graph_def
    start = time.perf_counter()
    report = StepReport(spec, graph_def, native=info.native)
    try:
        result = info.func(graph_def, ctx)
    except InspectorError as exc:
        if not skip:
            raise TransformError(f"{spec.name}: {exc.message}", node=exc.node) from None
        report.ignored_error = exc.message
        result = graph_def
    if result is not graph_def:
        result.library.CopyFrom(graph_def.library)
        if graph_def.HasField("debug_info"):  # the stack traces stay with the graph
            result.debug_info.CopyFrom(graph_def.debug_info)
    validate(result)
    report.graph_def = result
    report.seconds = time.perf_counter() - start
    report.removed, report.added, report.changed = diff(before, result)
    report.reasons = ctx.reasons
    report.warning = ctx.warning
    report.kept = ctx.kept
    report.became, report.merged, report.split = ctx.became, ctx.merged, ctx.split
    if not (report.removed or report.added or report.changed or report.ignored_error):
        report.unchanged = _kept_why(ctx.kept) if ctx.kept else (
            info.why_unchanged(graph_def) if info.why_unchanged else "") or NOTHING_CHANGED
    return report


def _kept_why(kept: dict) -> str:
    name, why = next(iter(kept.items()))
    more = f" (and {len(kept) - 1} more)" if len(kept) > 1 else ""
    return f"'{name}' was left alone{more}: {why}"


def check_names(specs) -> None:
    """Fail early, before any work, on an unknown transform, a bad ignore_errors, a missing
    required parameter or a parameter value the transform cannot take."""

    for spec in specs:
        if spec.name not in REGISTRY:
            raise TransformError(f"Transform '{spec.name}' not recognized.")
        ignore_errors(spec)
        check_params(spec.name, spec.params)


def run_pipeline(graph_def, transforms, inputs=(), outputs=(), on_step=None,
                 job: Job = NO_JOB, in_place: bool = False) -> list:
    """Apply transforms (text or specs) in order; returns one StepReport per enabled step.

    `on_step(index, report)` is called after each step (for progress and cancellation: raise
    from it to stop). `in_place`: steps may change graph_def itself instead of copying it
    (no copy of the weights per step; for a caller that wants only the last graph: an
    earlier report's graph_def may be the last one, so look at it in on_step).
    """

    specs = parse_transforms(transforms) if isinstance(transforms, str) else list(transforms)
    check_names(specs)
    validate(graph_def, "The input graph is invalid")
    reports, current = [], graph_def
    for i, spec in enumerate(s for s in specs if s.enabled):
        report = run_step(current, spec, list(inputs), list(outputs), job, in_place)
        reports.append(report)
        current = report.graph_def
        if on_step is not None:
            on_step(i, report)
    return reports


def last_graph(graph_def, transforms, inputs=(), outputs=()):
    """run_pipeline(graph_def, transforms, inputs, outputs)[-1].graph_def, for a caller that
    wants that graph alone (the window's Profile: its strip to the part it runs). A lone step
    with a quick path (TransformInfo.alone: strip_unused_nodes) gives the same graph without
    the pipeline's report (no check of the whole input graph, no note a node, no diff); any
    other pipeline, or a graph the quick path is not sure of, runs the pipeline, which gives
    its errors."""
    specs = parse_transforms(transforms) if isinstance(transforms, str) else list(transforms)
    check_names(specs)
    steps = [s for s in specs if s.enabled]
    alone = REGISTRY[steps[0].name].alone if len(steps) == 1 else None
    if alone is not None:
        quick = alone(graph_def, Context(list(inputs), list(outputs), dict(steps[0].params),
                                         name=steps[0].name))
        if quick is not None:
            return quick
    return run_pipeline(graph_def, specs, inputs, outputs)[-1].graph_def
