"""The TFLite check as a use case (window and CLI alike): which nodes convert to builtin
ops, need Select TF ops or fall outside TFLite (static analysis, off the GUI thread), then,
when asked, what TFLite's own converter says. The result has one owner, the state
(`state.tflite_check`, with the "compat" overlay's colours); the panel and the canvas listen.
The conversion preview (float, dynamic, float16, int8 converted by TFLite) goes to
`state.tflite_preview` the same way."""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace

from inspector.core.app.inputs import input_shapes_and_types
from inspector.core.app.ports import marked_or_suggested, ports_or_say
from inspector.core.errors import InspectorError
from inspector.core.loaders.files import read_text
from inspector.core.mobile import tflite_compat as tc
from inspector.core.mobile.tflite_compat import LABELS, STATUSES
from inspector.core.model.humanize import count
from inspector.core.runtime import gc_policy
from inspector.core.runtime.job import NO_JOB, Job


@dataclass(frozen=True)
class TFLiteCheck:
    compat: object                 # analysis.tflite_compat.Compat of the model
    inputs: tuple
    outputs: tuple
    confirmed: dict = field(default_factory=dict)   # tflite_compat.confirm(...) once asked

    def statuses(self) -> dict:
        """node -> its status ("builtin", "flex", ...): the "compat" overlay's colours."""
        return {n: c.status for n, c in self.compat.nodes.items()}

    def counted(self) -> list:
        """(status, how many nodes, its words) of every status, in the check's order."""
        counts = self.compat.counts()
        return [(s, counts.get(s, 0), LABELS[s]) for s in STATUSES]

    def as_dict(self) -> dict:
        """Every node's status and the converter's errors (`compat --json`)."""
        out = {"inputs": list(self.inputs), "outputs": list(self.outputs),
               "counts": {s: n for s, n, _ in self.counted()},
               "nodes": {n: {"status": c.status, "reason": c.reason, "builtin": c.builtin,
                             "mobile_kernel": c.mobile_kernel}
                         for n, c in self.compat.nodes.items()},
               "flex_allowlist": self.compat.flex_source}
        if self.confirmed:
            out["converter"] = {"errors_by_node": self.confirmed["nodes"],
                                "unplaced": self.confirmed["unplaced"],
                                "located": self.confirmed["located"],
                                "disagree": [list(d) for d in self.confirmed["disagree"]],
                                "failed": self.confirmed.get("failed", ""),
                                "verdict": converter_verdict(self.confirmed)}
        return out


def converter_verdict(confirmed: dict) -> str:
    """The converter's answer in one line, as the window and `compat --confirm` say it. A
    conversion that failed even with Select TF ops and custom ops is said as a failure, with
    its first error: it stopped before most nodes, so it agrees with nothing (text_really.pb
    read "agrees with the tables on every node" after "uninitialized value conv1/weights")."""
    if confirmed.get("failed"):
        return (f"The converter failed: {confirmed['failed'].rstrip('.')}. It stopped before "
                "saying which nodes convert.")
    placed = confirmed["located"] - sum(len(e.get("nodes", [])) for e in confirmed["unplaced"])
    text = (f"Converter: {count(len(confirmed['nodes']), 'node')} with errors; {placed:,} of "
            f"{count(confirmed['located'], 'located error')} placed on nodes.")
    if confirmed["disagree"]:
        return text + " Differs from the tables on: " + ", ".join(
            f"{n} (tables: {s}, converter: {g})" for n, s, g in confirmed["disagree"][:6])
    return text + " The converter agrees with the tables on every node."


ports = marked_or_suggested      # the window's controllers ask it too


def refusal_of(model) -> str | None:
    """Why this model cannot be checked (None when it can): its reader says it cannot be
    converted (a .tflite already)."""
    if "convert" not in model.capabilities:
        return ("this is already a TensorFlow Lite model: open the TensorFlow model it came "
                "from to check or convert it")
    return None


def refusal(state) -> str | None:
    """Why the open model cannot be checked at all (None when it can)."""
    if state.model is None or state.original_view is None:
        return "Open a model first"
    return refusal_of(state.model)


def _checkable_ports(state):
    """(inputs, outputs) of the open model when it can be checked or converted; else None,
    after saying why (no model, a .tflite already, no ports)."""
    why = refusal(state)
    if why:
        state.fail(why)
        return None
    return ports_or_say(state)


def check(graph, inputs, outputs, job: Job = NO_JOB) -> TFLiteCheck:
    """Which nodes convert to builtin ops, need Select TF ops or fall outside TFLite
    (static analysis, no TensorFlow): the check the window and `compat` share."""
    with gc_policy.paused():     # a full collection over a big graph stalls the GUI
        compat = tc.analyze(graph, list(outputs), list(inputs))
    job.check()
    return TFLiteCheck(compat, tuple(inputs), tuple(outputs))


def confirm(checked: TFLiteCheck, graph, engine, shapes: dict | None = None,
            allow_io: bool = False, job: Job = NO_JOB) -> TFLiteCheck:
    """TFLite's converter where the model's engine runs (the worker, or the command line's
    process): its located errors placed on the check's nodes."""
    first, second = engine.tflite_confirm(list(checked.inputs), list(checked.outputs),
                                          shapes or None, allow_io=allow_io, job=job)
    return replace(checked, confirmed=tc.confirm(checked.compat, graph, first, second))


def start_check(state, tasks, on_error, then=None) -> None:
    """Analyse the open model in a task; the result goes to the state (and `then()` runs
    after it). `on_error(exc)` hears what went wrong."""
    found = _checkable_ports(state)
    if found is None:
        return
    ins, outs = found
    model, graph = state.model, state.model.graph
    scope_paths = [s.path for s in state.original_view.root.walk() if s.path]

    def work(job):
        checked = check(graph, ins, outs, job)
        job.progress(1, 2, "counting statuses per scope")
        with gc_policy.paused():
            return checked, tc.overlay_fields(checked.compat, scope_paths)

    def done(result):
        if model is not state.model:
            return
        checked, (statuses, scopes) = result
        compat = checked.compat
        state.set_tflite_check(checked)
        state.set_overlay(replace(state.overlay, mode="compat", compat=statuses,
                                  compat_scopes=scopes, compat_notes={}))
        counts = compat.counts()
        bad = counts["flex"] + counts["custom"] + counts["control_flow"] + counts["dtype"]
        state.tell(f"TFLite: {counts['builtin']:,} builtin, {bad:,} to look at")
        if then is not None:
            then()

    tasks.submit("tflite_compat", work, done, on_error, label="Checking TFLite compatibility")


def start_confirm(state, tasks, on_error, allow_io: bool = False) -> None:
    """TFLite's converter on the checked model (the check runs first when there is none):
    its errors land on the check's nodes and in the overlay's notes."""
    why = refusal(state)
    if why or state.engine is None:
        state.fail(why or "Open a model first")
        return
    checked = state.tflite_check
    if checked is None:
        start_check(state, tasks, on_error,
                    then=lambda: start_confirm(state, tasks, on_error, allow_io))
        return
    engine, model, graph = state.engine, state.model, state.model.graph
    shapes, _ = input_shapes_and_types(state, list(checked.inputs))

    def done(confirmed):
        if model is not state.model:
            return
        state.set_tflite_check(confirmed)
        state.set_overlay(replace(state.overlay, compat_notes=confirmed.confirmed["nodes"]))

    tasks.submit("tflite_confirm",
                 lambda job: confirm(checked, graph, engine, shapes, allow_io, job), done,
                 on_error, label="Converting with TFLite's converter")


def start_preview(state, tasks, source, compare: int, on_error, allow_io: bool = False) -> None:
    """The conversion preview of the open model where TensorFlow lives (the worker), in a
    task -> `state.set_tflite_preview` and a message. `source` feeds the int8 calibration."""
    if state.engine is None or state.model is None:
        state.say("Open a model first")
        return
    found = _checkable_ports(state)
    if found is None:
        return
    ins, outs = found
    engine, model = state.engine, state.model
    shapes, _ = input_shapes_and_types(state, ins)

    def work(job):
        return engine.tflite_preview(ins, outs, shapes, None, source, compare,
                                     allow_io=allow_io, job=job)

    def done(preview):
        if model is state.model:
            state.set_tflite_preview(preview)
            state.say(f"Converted {len(preview.variants)} TFLite variants")

    tasks.submit("tflite_preview", work, done, on_error, label="Converting to TFLite")


def measure(state, variant: str, path: str) -> float:
    """A benchmark_model log of a previewed variant run on a device: its measured time put on
    that variant's row (-> `state.set_tflite_preview`). Raises InspectorError for a log
    that cannot be read or says no time."""
    from inspector.core.mobile.tflite_preview import measured_latency_ms

    preview = state.tflite_preview
    row = next((r for r in (preview.variants if preview else []) if r.variant == variant
                and r.model), None)
    if row is None:
        raise InspectorError(f"no converted {variant} variant to measure")
    row.measured_ms = measured_latency_ms(read_text(path, what="the log",
                                                    error=InspectorError))
    row.measured_source = os.path.basename(path)
    state.set_tflite_preview(preview)
    return row.measured_ms
