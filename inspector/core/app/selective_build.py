"""ops_to_register.h for a selective TensorFlow build, the use case of `ops-header` and of the
Phone panel's Selective build tab: TensorFlow's kernel registry is asked where the model's
engine runs (the worker, or the command line's process) and the header written atomically.
In the window the result has one owner, the state (`state.ops_header`); the panel listens."""

from __future__ import annotations

import os
from dataclasses import dataclass

from inspector.core.errors import InspectorError
from inspector.core.formats.writer import atomic_write
from inspector.core.model.origin import is_tflite
from inspector.core.runtime.job import NO_JOB, Job


@dataclass(frozen=True)
class OpsHeader:
    path: str              # the header written
    text: str
    ops: tuple             # op types the graph needs
    kernels: tuple         # their kernel classes in the installed TensorFlow
    missing: tuple         # ops with no CPU kernel there


TFLITE_REFUSAL = ("a TensorFlow Lite model: ops_to_register.h selects TensorFlow's kernels, "
                  "which do not run TFLite's builtin operators; `tflite-info` lists this "
                  "model's operators, and LiteRT's selective build takes the .tflite itself "
                  "(tensorflow/lite/tools/build_aar.sh --input_models=MODEL.tflite)")


def write_header(engine, model, path: str, force: bool = False,
                 job: Job = NO_JOB) -> OpsHeader:
    """The header for the opened `model` behind `engine`, written to `path` (never over a
    file unless `force`, never over the model). A .tflite is refused in one line (its
    builtins are not TensorFlow ops: every one came out "no CPU kernel")."""
    if is_tflite(model.graph):
        raise InspectorError(TFLITE_REFUSAL, path=model.path)
    source = os.path.basename(model.path.rstrip("/"))
    text, ops, kernels, missing = engine.ops_header(source, job=job)
    job.check()
    atomic_write(path, text, force=force, source=model.path)
    return OpsHeader(path, text, tuple(ops), tuple(kernels), tuple(missing))


def start_header(state, tasks, path: str, on_error, force: bool = False) -> None:
    """The window's: the header of the open model written in a task -> state.set_ops_header."""
    engine, model = state.engine, state.model
    if engine is None or model is None:
        state.fail("Open a model first")
        return

    def done(header: OpsHeader) -> None:
        if model is state.model:
            state.set_ops_header(header)
            state.say(f"Wrote {header.path}: {len(header.ops)} ops, "
                      f"{len(header.kernels)} kernel classes")

    tasks.submit("ops_header", lambda job: write_header(engine, model, path, force, job),
                 done, on_error, label="Asking TensorFlow's kernel registry")
