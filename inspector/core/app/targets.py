"""Target reports as a use case of the window: the open .tflite's report for one target is
made in a task (LiteRT and Vela run in the worker through the executor), then becomes the
state's "targets" overlay, which colours each operator by where it runs."""

from __future__ import annotations

from dataclasses import replace

from inspector.core.errors import InspectorError
from inspector.core.mobile.targets import TARGETS, parse_target

__all__ = ["TARGETS", "can_report", "start_report", "show"]


def can_report(state) -> bool:
    model = state.model
    return model is not None and getattr(model, "tflite", None) is not None


def start_report(state, tasks, target: str, on_error) -> None:
    """Make the report of `target` for the open .tflite in a task; it is shown when done."""
    from inspector.core.loaders.files import read_file
    from inspector.core.mobile.targets import report

    if not can_report(state):
        raise InspectorError("open a .tflite model for a target report (convert the model "
                             "first: Phone > Convert)")
    target = parse_target(target)
    model = state.model
    tflite, graph, path = model.tflite, model.graph, model.path

    def work(job):
        data = bytes(read_file(path, what="the TensorFlow Lite file"))
        return report(data, tflite, graph, target, job=job)

    tasks.submit("target-report", work, lambda r: show(state, r), on_error,
                 label=f"Target report ({target})")


def show(state, report) -> None:
    state.set_overlay(replace(state.overlay, targets=report, mode="targets"))
