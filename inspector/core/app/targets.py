"""Target reports as a use case (`targets MODEL.tflite` and the window's Target report): the
report of an opened .tflite for a target (report_of), or of your own operator list
(rules_report); in the window the report of one target is made in a task
(LiteRT and Vela run in the worker through the executor), then becomes the state's "targets"
overlay, which colours each operator by where it runs. Its subject: the open .tflite, or, for
a GraphDef, the file of the recipe applied (else selected) in the Quantization tab, else a
variant of the last conversion preview (Phone > Convert), mapped back onto the graph's nodes
(int8 for targets that want a quantized file, float for the others, else what was made)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from inspector.core.errors import InspectorError
from inspector.core.mobile.target_lists import read_list
from inspector.core.mobile.targets import choices, get, op_nodes, preflight, report
from inspector.core.mobile.target_text import headline, other_figures
from inspector.core.runtime.job import NO_JOB, Job

__all__ = ["choices", "can_report", "start_report", "show", "subject_for", "headline",
           "other_figures", "NOTHING", "report_of", "rules_report", "target_name"]

NOTHING = ("Open a .tflite, or make one from this graph first (Phone > Quantization: Run "
           "recipes, or Phone > Convert four variants), for a target report")


def target_name(text: str) -> str:
    """The registry's name of a target as typed (an unknown one: the choices, in words)."""
    return get(text).name


def _tflite_bytes(model) -> bytes:
    from inspector.core.loaders.files import read_file

    if getattr(model, "tflite", None) is None:
        raise InspectorError("a target report reads a .tflite model (convert first: "
                             "graphdef-inspector tflite MODEL ...)", path=model.path)
    return bytes(read_file(model.path, what="the TensorFlow Lite file"))


def report_of(model, target: str, job: Job = NO_JOB):
    """The report of `target` on an opened .tflite: which operators run on its accelerator,
    which do not and why (LiteRT and Vela through the executor: the worker in the app)."""
    return report(_tflite_bytes(model), model.tflite, model.graph, get(target).name, job=job)


def rules_report(model, rules_path: str):
    """A pre-flight check of an opened .tflite against your own operator list."""
    _tflite_bytes(model)
    rules = read_list(rules_path)
    return preflight(model.tflite, rules, op_nodes(model.graph), f"npu-{rules.name}")


@dataclass(frozen=True)
class Subject:
    """The .tflite a GraphDef's report reads: its bytes, its mapping onto the graph, and
    how the report names it ("the int8 recipe's file (applied)")."""
    data: bytes
    mapping: object
    name: str


def _recipe_subject(state):
    run = getattr(state, "quant", None)
    if run is None:
        return None
    for key, how in ((run.applied, "applied"), (run.chosen, "selected")):
        row = run.row(key) if key[0] else None
        if row is not None and row.model and row.mapping is not None:
            kept = f" +{row.keep_float.count('|') + 1} float" if row.keep_float else ""
            return Subject(row.model, row.mapping,
                           f"the {row.recipe}{kept} recipe's file ({how}, {row.tool})")
    return None


def subject_for(state, target: str):
    """The file a GraphDef's report of `target` reads (a Subject), or None."""
    found = _recipe_subject(state)
    if found is not None:
        return found
    preview = getattr(state, "tflite_preview", None)
    usable = [v for v in (preview.variants if preview else [])
              if v.model and v.mapping is not None]
    wanted = ("int8", "dynamic", "float16", "float") if get(target).quantized \
        else ("float", "float16", "dynamic", "int8")
    for name in wanted:
        for v in usable:
            if v.variant == name:
                return Subject(v.model, v.mapping, f"the {name} variant")
    return Subject(usable[0].model, usable[0].mapping, f"the {usable[0].variant} variant") \
        if usable else None


def can_report(state) -> bool:
    model = state.model
    return model is not None and (getattr(model, "tflite", None) is not None or
                                  subject_for(state, "cpu") is not None)


def start_report(state, tasks, target: str, on_error) -> None:
    """Make the report of `target` in a task; it is shown when done."""
    from inspector.core.loaders.tflite import read_model

    target = get(target).name
    model = state.model
    if model is not None and getattr(model, "tflite", None) is not None:
        def work(job):
            return report_of(model, target, job)
    else:
        subject = subject_for(state, target) if model is not None else None
        if subject is None:
            raise InspectorError(NOTHING)

        def work(job):
            return report(subject.data, read_model(subject.data, subject.name), None, target,
                          job=job, mapping=subject.mapping, subject=subject.name)

    tasks.submit("target-report", work, lambda r: show(state, r), on_error,
                 label=f"Target report ({target})")


def show(state, report) -> None:
    state.set_overlay(replace(state.overlay, targets=report, mode="targets"))
