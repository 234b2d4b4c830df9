"""Target reports as a use case of the window: the report of one target is made in a task
(LiteRT and Vela run in the worker through the executor), then becomes the state's "targets"
overlay, which colours each operator by where it runs. Its subject: the open .tflite, or, for
a GraphDef, a variant of the last conversion preview (Phone > Convert) mapped back onto the
graph's nodes (int8 for the NPU targets, float for CPU and GPU, else what was converted)."""

from __future__ import annotations

from dataclasses import replace

from inspector.core.errors import InspectorError
from inspector.core.mobile.targets import TARGETS, parse_target

__all__ = ["TARGETS", "can_report", "start_report", "show", "variant_for"]


def variant_for(state, target: str):
    """The conversion-preview variant a GraphDef's report of `target` reads (or None)."""
    preview = getattr(state, "tflite_preview", None)
    usable = [v for v in (preview.variants if preview else [])
              if v.model and v.mapping is not None]
    wanted = ("int8", "dynamic", "float16", "float") if target.startswith(("ethos", "npu")) \
        else ("float", "float16", "dynamic", "int8")
    for name in wanted:
        for v in usable:
            if v.variant == name:
                return v
    return usable[0] if usable else None


def can_report(state) -> bool:
    model = state.model
    return model is not None and (getattr(model, "tflite", None) is not None or
                                  variant_for(state, "cpu") is not None)


def start_report(state, tasks, target: str, on_error) -> None:
    """Make the report of `target` in a task; it is shown when done."""
    from inspector.core.loaders.files import read_file
    from inspector.core.loaders.tflite import read_model
    from inspector.core.mobile.targets import report

    target = parse_target(target)
    model = state.model
    if model is not None and getattr(model, "tflite", None) is not None:
        tflite, graph, path = model.tflite, model.graph, model.path

        def work(job):
            data = bytes(read_file(path, what="the TensorFlow Lite file"))
            return report(data, tflite, graph, target, job=job)
    else:
        variant = variant_for(state, target) if model is not None else None
        if variant is None:
            raise InspectorError("open a .tflite, or convert this graph first (Phone > "
                                 "Convert four variants), for a target report")
        data, mapping, name = variant.model, variant.mapping, variant.variant

        def work(job):
            return report(data, read_model(data, f"the {name} variant"), None, target,
                          job=job, mapping=mapping, subject=f"the {name} variant")

    tasks.submit("target-report", work, lambda r: show(state, r), on_error,
                 label=f"Target report ({target})")


def show(state, report) -> None:
    state.set_overlay(replace(state.overlay, targets=report, mode="targets"))
