"""Timings and ranges as use cases (window and CLI): profiling and calibration run where the
model's engine lives, imports are read safely, and each result goes into the state's overlay
(`state.overlay`: profiles, ranges, the float vs eight-bit comparison); panels listen."""

from __future__ import annotations

import os
from dataclasses import replace

from inspector.core.analysis.ranges import parse_log, percentile_range, range_warnings as warnings
from inspector.core.app.inputs import input_shapes_and_types, open_sizes
from inspector.core.app.opening import open_model
from inspector.core.app.ports import marked_or_suggested, ports_or_say
from inspector.core.errors import InspectorError
from inspector.core.formats.writer import atomic_write
from inspector.core.loaders.loaded import RUN
from inspector.core.loaders.files import read_text
from inspector.core.overlays.decorate import chosen_ranges, original_name
from inspector.core.transforms.syntax import quote

ports = marked_or_suggested      # the window's controllers ask it too


def run_refusal(model, what: str) -> str | None:
    """Why TensorFlow cannot run this model for `what` (None when it can): a .tflite opens
    as a read-only view of LiteRT's ops, which the consent check listed one by one as 'not
    pure computation' and TensorFlow then refused ('Op type not registered CONV_2D')."""
    if model is None or RUN in model.capabilities:
        return None
    return (f"a .tflite model opens as a read-only view: {what} runs the TensorFlow graph it "
            "was converted from (diff --numeric runs a .tflite in LiteRT)"
            if model.kind == "tflite" else
            f"this model opens as a read-only view: {what} needs a TensorFlow graph")


# -- timings ------------------------------------------------------------------------------
def start_profile(state, tasks, settings, on_error, allow_io: bool = False) -> None:
    """Profile the graph between the ports in the engine; `settings`: ProfileSettings taken
    from the panel on the GUI thread."""
    engine = state.engine
    if state.original_view is None or engine is None:
        return
    why = run_refusal(state.model, "profiling")
    if why:
        state.fail(why)
        return
    found = ports_or_say(state)
    if found is None:
        return
    ins, outs = found
    shapes, _ = input_shapes_and_types(state, ins)

    def work(job):
        from inspector.core.loaders.arrays import load_npy, parse_npy_args

        arrays = {n: load_npy(f) for n, f in parse_npy_args(settings.npy_items).items()}
        return engine.profile(ins, outs, shapes, "zeros" if settings.feed == "zeros" else
                              "random", arrays, settings.warmup, settings.runs, settings.intra,
                              settings.inter, allow_io=allow_io, job=job)

    said = run_notes(state, ins, outs, shapes)

    def done(profile):
        profile.notes = f"Profiled {said}"       # shown above the tables (the CLI's notes)
        add_profile(state, profile)

    tasks.submit("profile", work, done, on_error, label="Profiling")


def run_notes(state, ins: list, outs: list, shapes: dict | None) -> str:
    """Which ports and sizes a run in the window used, as the command line's notes say
    them: the likely ports when nothing is marked, each input's shape, and an input whose
    open sizes were taken as 1 ("from input image [1,1,1,3] to output out (the likely
    ports: nothing is marked); image leaves sizes open ([1,?,?,3]): 1 for each; give its
    size in Phone > Conversion preview > Input sizes")."""
    bench = state.workbench
    sized = [f"{n} [{','.join(map(str, (shapes or {}).get(n.split(':')[0], [])))}]"
             if (shapes or {}).get(n.split(":")[0]) is not None else n for n in ins]
    text = (f"from input{'s' if len(ins) != 1 else ''} {', '.join(sized) or '(none)'} to "
            f"output{'s' if len(outs) != 1 else ''} {', '.join(outs)}")
    if not bench.inputs or not bench.outputs:
        text += " (the likely ports: nothing is marked)"
    graph = state.original_view.graph if state.original_view is not None else None
    given = getattr(bench, "input_shapes", None) or {}
    for name, declared in (open_sizes(graph, ins).items() if graph is not None else ()):
        if name not in given:
            text += (f"; {name} leaves sizes open ({declared}): 1 for each; give its size "
                     "in Phone > Conversion preview > Input sizes")
    return text


def add_profile(state, profile) -> None:
    """A new set of timings (profiled or imported) becomes the current one."""
    view = state.original_view
    if view is not None:
        profile.match(view.graph)
    profiles = state.overlay.profiles + (profile,)
    state.set_overlay(replace(state.overlay, profiles=profiles, current=len(profiles) - 1,
                              mode="timings"))


def opened(path: str, allow_unsafe: bool = False, what: str = "this"):
    """The model at `path` as the window and `summarize` open it (opening.open_model: a .meta
    frozen with the checkpoint beside it: it ran uninitialised variables), for `profile` and
    `calibrate` (`what`), which find their ports and shapes on it as the other commands do;
    one TensorFlow cannot run is refused (run_refusal)."""
    model = open_model(path, allow_unsafe=allow_unsafe)
    why = run_refusal(model, what)
    if why:
        raise InspectorError(why, path=path)
    return model


def profile_file(model, inputs, outputs, shapes: dict, feed: str, seed: int, arrays: dict,
                 warmup: int, runs: int, intra: int, inter: int, allow_io: bool, job):
    """`graphdef-inspector profile`: the opened model (opening.open_model: a .meta frozen with
    the checkpoint beside it, as the window and `summarize` open it) timed per node in
    TensorFlow, here (benchmark_model's tables: a Profile)."""
    from inspector.core.overlays.profiling import run_profile

    return run_profile(model.graph.graph_def, inputs, outputs, shapes, feed, seed, arrays,
                       warmup, runs, intra, inter, allow_io, job=job)


def import_timings(state, path: str) -> None:
    """benchmark_model output or a Chrome trace from a file (raises InspectorError)."""
    from inspector.core.overlays.profiling import load_profile_file

    profile = load_profile_file(path)
    profile.source = f"{os.path.basename(path)} ({profile.source})"
    add_profile(state, profile)


def export_timings(state, path: str) -> None:
    profile = state.overlay.profile
    if profile is None or not profile.text:
        raise InspectorError("no timings to export")
    atomic_write(path, profile.text, force=True)   # the save dialog asked


# -- ranges -------------------------------------------------------------------------------
def start_calibrate(state, tasks, settings, data: dict | None, on_error,
                    allow_io: bool = False) -> None:
    """Log the requantization ranges on `data` (None: random inputs), freeze them and
    compare float and eight-bit outputs; `settings`: CalibrationSettings from the panel."""
    from inspector.core.overlays.calibration import quality_hint

    engine = state.engine
    if engine is None:
        return
    why = run_refusal(state.model, "calibration")
    if why:
        state.fail(why)
        return
    found = ports_or_say(state)
    if found is None:
        return
    ins, outs = found
    shapes, _ = input_shapes_and_types(state, ins)
    shape = shapes.get(ins[0].split(":")[0]) if ins else None
    if shape is None:
        state.fail("calibration needs a marked input with a known shape")
        return
    data = data or {"kind": "random", "count": settings.samples, "seed": 0}
    lo, hi = settings.min_percentile, settings.max_percentile
    said = run_notes(state, ins, outs, shapes)

    def work(job):
        return engine.calibrate(ins, outs, shape, shapes, data, lo, hi, allow_io=allow_io,
                                job=job)

    def done(pair):
        result, compared = pair
        text = ("\n".join(
            f"{r.name}: float vs eight-bit max abs error {r.max_abs_error:.3g}"
            + ("" if r.top1_agreement is None else
               f", top-1 agreement {100 * r.top1_agreement:.0f}%") for r in compared)
            + f"\n({result.samples} inputs, {len(result.log.records)} ranges logged)\n"
            + quality_hint(compared))
        state.set_overlay(replace(state.overlay, records=result.log.records,
                                  log_text=result.log_text, mode="ranges",
                                  comparison=f"Calibrated {said}\n{text}"))

    tasks.submit("calibrate", work, done, on_error, label="Calibrating")


def calibrate_file(model, inputs, outputs, shape, data: dict, allow_io: bool, job):
    """`graphdef-inspector calibrate`: (the GraphDef, its CalibrationResult): the ranges of
    the opened model logged on `data`, in TensorFlow, here."""
    from inspector.core.overlays.calibration import calibrate

    graph_def = model.graph.graph_def
    return graph_def, calibrate(graph_def, inputs, outputs, shape, data, job=job,
                                allow_io=allow_io)


def freeze_and_compare(graph_def, result, lo: float, hi: float, inputs, outputs, shapes: dict,
                       allow_io: bool, job) -> tuple:
    """(the eight-bit graph with the calibrated ranges frozen in, the float-vs-eight-bit
    comparison on the calibration inputs, the sentence on its quality)."""
    from inspector.core.overlays.calibration import compare_on_samples, quality_hint
    from inspector.core.transforms.freeze_requantization_ranges import freeze_with_ranges

    frozen = freeze_with_ranges(result.quantized, result.ranges(lo, hi))
    compared = compare_on_samples(graph_def, frozen, inputs, outputs, result.inputs, shapes,
                                  allow_io=allow_io, job=job)
    return frozen, compared, quality_hint(compared)


def calibration_data(folder: str, settings) -> dict:
    """What calibrating on a folder feeds: its .npy arrays, else its photos."""
    kind = "npy" if any(f.endswith(".npy") for f in os.listdir(folder)) else "images"
    return {"kind": kind, "path": folder, "mean": settings.mean, "std": settings.std}


def read_range_log(path: str, what: str = "the range log"):
    """(the text, the parsed RangeLog) of a requantization log (InspectorError when it has
    no min/max lines)."""
    text = read_text(path, what=what, error=InspectorError)
    log = parse_log(text)
    if not log.records:
        raise InspectorError("no min/max range logs were found in the log file", path=path)
    return text, log


def chosen_ranges_of(log, lo: float, hi: float) -> tuple:
    """({node: (min, max)} at the percentiles cut off each end, the warnings on them)."""
    chosen = {n: percentile_range(p, lo, hi) for n, p in log.records.items()}
    return chosen, warnings(chosen)


def import_ranges(state, path: str) -> None:
    """A requantization log from a file (raises InspectorError)."""
    text, log = read_range_log(path)
    state.set_overlay(replace(state.overlay, records=log.records, log_text=text,
                              mode="ranges", comparison=""))


def freeze_ranges(state) -> str:
    """Save the log beside the model and put quantize + freeze steps in the pipeline."""
    model, overlay = state.model, state.overlay
    if not overlay.records or model is None:
        raise InspectorError("calibrate or import a range log first")
    path = model.path.rstrip("/") + ".ranges.log"
    atomic_write(path, overlay.log_text, force=True)  # our own file
    bench = state.workbench
    steps = bench.text
    if "quantize_nodes" not in steps:
        steps += " quantize_nodes"
    freeze = (f"freeze_requantization_ranges(min_max_log_file={quote(path)}, "
              f"min_percentile={overlay.min_percentile:g}, "
              f"max_percentile={overlay.max_percentile:g})")
    bench.set_text(" ".join(s for s in steps.split(" ") if s) + " " + freeze
                   if "freeze_requantization_ranges" not in steps else steps)
    return path


def range_warnings(state) -> list:
    return warnings(chosen_ranges(state.overlay)) if state.overlay.records else []


def histogram_of(state, name: str):
    """(the logged [min, max] pairs, the chosen range) of the node's range, or None."""
    records = state.overlay.records
    key = next((k for k in records if k == name or original_name(k) == name), None)
    return None if key is None else (records[key], chosen_ranges(state.overlay)[key])
