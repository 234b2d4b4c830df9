"""Work on the opened model that runs where its preview engine lives (the worker, in the app):
each task takes the model's GraphDef first, and the window sends only names, settings and
small arrays, never the graph. `engine.call(name, ...)` runs one of TASKS."""

from __future__ import annotations

from dataclasses import replace


def graph_for_run(graph_def, ins: list, outs: list, shapes: dict):
    """The stripped subgraph between the inputs and outputs, so fed inputs cut it."""
    from inspector.core.transforms import run_pipeline

    if not ins:
        return graph_def
    spec = " ".join(f'strip_unused_nodes(name={i}, type_for_name=float, shape_for_name="'
                    + ",".join(str(d) for d in shapes.get(i.split(':')[0], ())) + '")'
                    for i in ins[:1])
    return run_pipeline(graph_def, spec, ins, outs)[-1].graph_def


def infer_shapes(graph_def):
    """TF's shapes of every node's outputs, or None without TensorFlow."""
    from inspector.core.model.executor import tensorflow

    if not tensorflow().available():
        return None
    return tensorflow().infer_shapes(graph_def)


def profile(graph_def, ins, outs, shapes, mode, arrays, warmup, runs, intra, inter,
            allow_io=False, cancel=None, progress=None):
    from inspector.core.overlays.profiling import run_profile

    gd = graph_for_run(graph_def, ins, outs, shapes)
    return run_profile(gd, ins, outs, shapes, mode, 0, arrays, warmup=warmup, runs=runs,
                       intra=intra, inter=inter, allow_io=allow_io, cancel=cancel,
                       progress=progress)


def calibrate(graph_def, ins, outs, shape, shapes, data, min_percentile, max_percentile,
              allow_io=False, cancel=None, progress=None):
    """Log the ranges, freeze them, compare float and eight-bit outputs: (calibration without
    its quantized graph, comparisons)."""
    from inspector.core.overlays.calibration import calibrate as log_ranges
    from inspector.core.overlays.calibration import compare_on_samples
    from inspector.core.transforms.freeze_requantization_ranges import (
        freeze_with_ranges,
    )

    result = log_ranges(graph_def, ins, outs, shape, data, cancel=cancel, progress=progress,
                        allow_io=allow_io)
    progress(0, 0, "freezing the ranges")
    frozen = freeze_with_ranges(result.quantized, result.ranges(min_percentile,
                                                                max_percentile))
    compared = compare_on_samples(graph_def, frozen, ins, outs, result.inputs[:8], shapes,
                                  allow_io=allow_io, cancel=cancel,
                                  progress=lambda d, t, what: progress(d, t,
                                                                       f"comparing: {what}"))
    return replace(result, quantized=None), compared


def demo_run(graph_def, *args, **kwargs):
    """One demo run on the model (see overlays.demo_run.run_demo)."""
    from inspector.core.overlays.demo_run import run_demo

    return run_demo(graph_def, *args, **kwargs)


TASKS = {"infer_shapes": infer_shapes, "profile": profile, "calibrate": calibrate,
         "demo_run": demo_run}
