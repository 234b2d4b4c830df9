"""Demo runs as use cases of the window: the model's session warmed in the worker before the
first input arrives, and a run on a photo, sound, array or folder whose result goes into the
state (`state.demo`; the Demo panel and the canvas's feature strips listen). The plan and the
run themselves are app/demo.py's, shared with the command line."""

from __future__ import annotations

import os

from inspector.core.app import demo
from inspector.core.loaders.labels import read_labels_file


def warm(state, tasks, block_paths: list, item_ids: dict) -> bool:
    """Run a stand-in input quietly so the worker holds the model's session (the first run
    imports the graph: seconds for a big model). False when there is nothing to warm."""
    model, engine = state.model, state.engine
    if model is None or engine is None:
        return False
    ins, outs = demo.choose_ports(state.workbench.inputs, state.workbench.outputs,
                                  state.summary)
    shapes = state.original_view.shapes if state.original_view else None

    def work(job):
        plan = demo.plan(model.graph, ins, outs, shapes, None, block_paths, "", None, item_ids)
        demo.run(engine, plan, demo.stand_in(plan.front), job=job)

    tasks.submit("demo-warm", work, lambda _: None, lambda _: None, quiet=True)
    return True


def start_run(state, tasks, path: str, block_paths: list, item_ids: dict, on_error,
              convention: str = "", labels=None, allow_io: bool = False) -> bool:
    """Run the open model on the file at `path`; the result goes to state.demo. False (and
    a message) when no model can run."""
    from inspector.core.loaders.media import read_input

    model, view, engine = state.model, state.original_view, state.engine
    if model is None or view is None:
        state.say("Open a model first: then drop a photo, sound or .npy on it to run it.")
        return False
    if engine is None:
        state.fail("Demo runs need TensorFlow, which is not available here.")
        return False
    ins, outs = demo.choose_ports(state.workbench.inputs, state.workbench.outputs,
                                  state.summary)
    shapes, name = view.shapes, os.path.basename(path.rstrip("/"))

    def work(job):
        job.progress(0, 0, f"reading {name}")
        inputs = read_input(path)
        job.check()
        plan = demo.plan(model.graph, ins, outs, shapes, convention or None, block_paths,
                         model.path, labels, item_ids)
        job.check()
        run = demo.run(engine, plan, inputs.first, allow_io, job=job)
        if len(inputs.photos) > 1:
            run.notes.append(f"the first of {len(inputs.photos)} photos in the folder")
        if inputs.skipped:
            run.notes.append(f"{len(inputs.skipped)} other file(s) in the folder skipped")
        return run

    def done(run):
        if state.model is model:
            state.set_demo(run)
            top = next((v for v in run.outputs if v.kind == "classes"), None)
            state.say(f"Ran on {run.label}: " + (f"{top.labels[0]} "
                      f"({top.top[0][1] * 100:.1f} %)" if top else "done"))

    tasks.submit("demo", work, done, on_error, label=f"Running the model on {name}")
    return True


def runs_on(path: str) -> bool:
    """Whether a file dropped on the window is one the demo runs the model on (a photo, a
    folder of photos, a WAV, a .npy) rather than a model to open."""
    from inspector.core.loaders.media import is_demo_input

    return is_demo_input(path)


def read_labels(path: str):
    """Class names from a text file, one per line (an InspectorError naming the file)."""
    return read_labels_file(path)
