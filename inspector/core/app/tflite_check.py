"""The TFLite check as a use case (window and CLI alike): which nodes convert to builtin
ops, need Select TF ops or fall outside TFLite (static analysis, off the GUI thread), then,
when asked, what TFLite's own converter says. The result has one owner, the state
(`state.tflite_check`, with the "compat" overlay's colours); the panel and the canvas listen."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from inspector.core.app.inputs import input_shapes_and_types
from inspector.core.app.ports import marked_or_suggested, ports_or_say
from inspector.core.runtime import gc_policy


@dataclass(frozen=True)
class TFLiteCheck:
    compat: object                 # analysis.tflite_compat.Compat of the model
    inputs: tuple
    outputs: tuple
    confirmed: dict = field(default_factory=dict)   # tflite_compat.confirm(...) once asked


ports = marked_or_suggested      # the window's controllers ask it too


def refusal(state) -> str | None:
    """Why the open model cannot be checked at all (None when it can)."""
    model = state.model
    if model is None or state.original_view is None:
        return "Open a model first"
    if "convert" not in model.capabilities:
        return ("this is already a TensorFlow Lite model: open the TensorFlow model it came "
                "from to check or convert it")
    return None


def start_check(state, tasks, on_error, then=None) -> None:
    """Analyse the open model in a task; the result goes to the state (and `then()` runs
    after it). `on_error(exc)` hears what went wrong."""
    from inspector.core.mobile import tflite_compat as tc

    why = refusal(state)
    if why:
        state.fail(why)
        return
    found = ports_or_say(state)
    if found is None:
        return
    ins, outs = found
    model, graph = state.model, state.model.graph
    scope_paths = [s.path for s in state.original_view.root.walk() if s.path]

    def work(job):
        with gc_policy.paused():     # a full collection over a big graph stalls the GUI
            compat = tc.analyze(graph, outs, ins)
            job.progress(1, 2, "counting statuses per scope")
            return compat, tc.overlay_fields(compat, scope_paths)

    def done(result):
        if model is not state.model:
            return
        compat, (statuses, scopes) = result
        state.set_tflite_check(TFLiteCheck(compat, tuple(ins), tuple(outs)))
        state.set_overlay(replace(state.overlay, mode="compat", compat=statuses,
                                  compat_scopes=scopes, compat_notes={}))
        counts = compat.counts()
        bad = counts["flex"] + counts["custom"] + counts["control_flow"] + counts["dtype"]
        state.say(f"TFLite: {counts['builtin']:,} builtin, {bad:,} to look at")
        if then is not None:
            then()

    tasks.submit("tflite_compat", work, done, on_error, label="Checking TFLite compatibility")


def start_confirm(state, tasks, on_error, allow_io: bool = False) -> None:
    """TFLite's converter on the checked model (the check runs first when there is none):
    its errors land on the check's nodes and in the overlay's notes."""
    from inspector.core.mobile import tflite_compat as tc

    why = refusal(state)
    if why or state.engine is None:
        state.fail(why or "Open a model first")
        return
    check = state.tflite_check
    if check is None:
        start_check(state, tasks, on_error,
                    then=lambda: start_confirm(state, tasks, on_error, allow_io))
        return
    engine, model, graph = state.engine, state.model, state.model.graph
    shapes, _ = input_shapes_and_types(state)

    def work(job):
        first, second = engine.tflite_confirm(list(check.inputs), list(check.outputs), shapes,
                                              allow_io=allow_io, job=job)
        return tc.confirm(check.compat, graph, first, second)

    def done(confirmed):
        if model is not state.model:
            return
        state.set_tflite_check(replace(check, confirmed=confirmed))
        state.set_overlay(replace(state.overlay, compat_notes=confirmed["nodes"]))

    tasks.submit("tflite_confirm", work, done, on_error,
                 label="Converting with TFLite's converter")
