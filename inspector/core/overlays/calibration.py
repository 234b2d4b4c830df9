"""The requantization-range flow in one call: quantize_nodes, insert_logging, run the graph on
calibration inputs in a child process whose stderr carries TensorFlow's Print lines, parse,
freeze with chosen percentiles, and compare the float and eight-bit outputs."""

from __future__ import annotations

import glob
import json
import os
import queue
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field

import numpy as np

from inspector.core.analysis.numeric_check import compare
from inspector.core.analysis.ranges import RangeLog, parse_log, percentile_range
from inspector.core.errors import InspectorError
from inspector.core.model import safety
from inspector.core.overlays.decorate import original_name  # noqa: F401  (re-exported)
from inspector.core.runtime import feed_budget
from inspector.core.runtime.blas_threads import as_the_user_had_it
from inspector.core.runtime.executor import tensorflow
from inspector.core.runtime.job import NO_JOB, Job
from inspector.core.transforms import run_pipeline

LOGGING = 'insert_logging(op=RequantizationRange, show_name=true, message="__requant_min_max:")'


@dataclass
class Calibration:
    quantized: object                 # GraphDef after quantize_nodes
    log_text: str                     # the range lines TensorFlow printed
    log: RangeLog
    samples: int
    outputs_logged: list = field(default_factory=list)  # eight-bit outputs, dynamic ranges
    inputs: list = field(default_factory=list)

    def ranges(self, min_percentile=5.0, max_percentile=5.0) -> dict:
        return {n: percentile_range(p, min_percentile, max_percentile)
                for n, p in self.log.records.items()}


def calibrate(graph_def, inputs: list, outputs: list, input_shape: tuple, data: dict,
              job: Job = NO_JOB, timeout: float = 1800.0,
              allow_io: bool = False) -> Calibration:
    """Quantize, log the requantization ranges over the calibration inputs and parse them.
    The job's progress reports each phase (total 0: no count)."""
    safety.require_safe(graph_def, outputs, inputs, allow_io, action="calibrate it")
    if len(inputs) != 1:
        raise InspectorError("calibration needs exactly one input node")
    # the input becomes a Placeholder first: quantize_nodes adds control edges from its
    # consumers, and a fed node that something depends on by control still needs its inputs
    # one calibration input at a time is made (or read) in the child: sized here, before
    feed_budget.check(inputs[0].split(":")[0], [1 if d is None else d for d in input_shape],
                      "float32")
    dims = ",".join(str(1 if d is None else d) for d in input_shape)
    job.progress(0, 0, "quantizing the graph (quantize_nodes)")
    try:
        quantized = run_pipeline(graph_def, f'strip_unused_nodes(type=float, shape="{dims}") '
                                 "quantize_nodes", inputs, outputs, job=job)[-1].graph_def
        logged = run_pipeline(quantized, LOGGING, inputs, outputs, job=job)[-1].graph_def
    except InspectorError as exc:     # a step's name ('quantize_nodes: ') is not the user's
        step, _, why = exc.message.partition(": ")
        if not why or not step.isidentifier():
            raise
        raise InspectorError(f"cannot quantize the graph to calibrate it: {why}",
                             path=exc.path, node=exc.node) from None
    if not any(n.op == "RequantizationRange" for n in quantized.node):
        raise InspectorError("quantizing the graph left no RequantizationRange to calibrate "
                             "(no op that eight-bit quantization rewrites)")
    with tempfile.TemporaryDirectory(prefix="inspector-calib-") as tmp:
        graph_path = os.path.join(tmp, "graph.pb")
        with open(graph_path, "wb") as fh:
            fh.write(logged.SerializeToString())
        spec = {"graph": graph_path, "input": inputs[0], "outputs": outputs,
                "input_shape": [1 if d is None else d for d in input_shape], "data": data,
                "out_dir": tmp, "allow_unsafe": bool(allow_io), "parent": os.getpid()}
        spec_path = os.path.join(tmp, "spec.json")
        with open(spec_path, "w") as fh:
            json.dump(spec, fh)
        err_path = os.path.join(tmp, "stderr.txt")
        root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
            os.path.abspath(__file__)))))
        env = as_the_user_had_it(dict(  # a TensorFlow process: the user's BLAS setting
            os.environ, TF_CPP_MIN_LOG_LEVEL="0", PYTHONPATH=os.pathsep.join(
                p for p in (root, os.environ.get("PYTHONPATH", "")) if p)))
        python = os.environ.get("INSPECTOR_TF_PYTHON") or sys.executable  # the worker's
        job.progress(0, 0, "starting TensorFlow and reading the calibration inputs")
        with open(err_path, "wb") as err:
            proc = subprocess.Popen([python, "-m", "inspector.core.overlays.calibration_child",
                                     spec_path], stdout=subprocess.PIPE, stderr=err, env=env,
                                    text=True)
            try:
                _follow(proc, job, timeout)
            finally:
                if proc.poll() is None:
                    proc.kill()
                    proc.wait()
        stderr = open(err_path, encoding="utf-8", errors="replace").read()
        if proc.returncode != 0:
            last = [ln for ln in stderr.splitlines() if ln.strip()][-1:] or ["(no output)"]
            raise InspectorError(f"the calibration run failed: {last[0][:200]}")
        lines = [ln for ln in stderr.splitlines() if "__requant_min_max:" in ln]
        logged_out = [np.load(p) for p in sorted(glob.glob(os.path.join(tmp, "output_*.npy")))]
        ins = [np.load(p) for p in sorted(glob.glob(os.path.join(tmp, "input_*.npy")))]
    text = "\n".join(lines) + ("\n" if lines else "")
    log = parse_log(text)
    if not log.records:
        raise InspectorError("TensorFlow printed no range lines (did any input run?)")
    return Calibration(quantized, text, log, len(ins), logged_out, ins)


def _follow(proc, job: Job, timeout: float) -> None:
    """Relay the child's progress lines until it exits; a cancel or the time limit kills it
    at once (the lines are read on a helper thread, so a silent child cannot block us)."""
    lines: queue.Queue = queue.Queue()

    def read():
        for line in proc.stdout:
            lines.put(line)
        lines.put(None)

    threading.Thread(target=read, daemon=True, name="calibration-output").start()
    deadline = time.monotonic() + timeout
    while True:
        job.check()
        if time.monotonic() > deadline:
            raise InspectorError(f"the calibration run took longer than {timeout:.0f} s "
                                 "and was stopped")
        try:
            line = lines.get(timeout=0.1)
        except queue.Empty:
            continue
        if line is None:
            proc.wait()
            return
        if line.startswith("progress"):
            done, total = line.split()[1:3]
            job.progress(int(done), int(total), f"logging ranges: input {done}/{total}")


def compare_on_samples(original, quantized, inputs: list, outputs: list, samples: list,
                       input_shapes=None, allow_io: bool = False,
                       job: Job = NO_JOB) -> list:
    """(output, max abs error, top-1 agreement) of the eight-bit graph against the float one
    over the calibration inputs. Each graph runs in one session for all inputs; the job's
    progress after every run."""
    feeds = [{inputs[0]: x} for x in samples]
    total = 2 * len(feeds)

    job.progress(0, total, "running the float graph")
    refs = tensorflow().run_many(original, feeds, outputs, input_shapes, allow_unsafe=allow_io,
                                 job=job.part("float graph {}", 0, total))
    gots = tensorflow().run_many(quantized, feeds, outputs, input_shapes,
                                 allow_unsafe=allow_io,
                                 job=job.part("eight-bit graph {}", len(feeds), total))
    out = []
    for k, name in enumerate(outputs):
        a = np.concatenate([np.asarray(r[k]).reshape(1, -1) for r in refs])
        b = np.concatenate([np.asarray(g[k]).reshape(1, -1) for g in gots])
        out.append(compare(a, b, name))
    return out


def quality_hint(compared: list) -> str:
    """One plain sentence per output on whether the eight-bit answers can be trusted: by top-1
    agreement for classifier outputs, else by the error relative to the float output's span."""
    lines = []
    for r in compared:
        if r.non_finite[1] > r.non_finite[0]:       # errors and top-1 of NaNs mean nothing
            lines.append(f"{r.name}: poor. {r.warning()[0].upper()}{r.warning()[1:]}; do not "
                         "ship this as is.")
            continue
        if r.top1_agreement is not None:
            rows = r.shape[0] if r.shape else 1
            changed = round((1.0 - r.top1_agreement) * rows)
            if changed == 0:
                lines.append(f"{r.name}: good. The eight-bit graph picks the same top class as "
                             f"the float graph on all {rows} inputs.")
            elif r.top1_agreement >= 0.9:
                lines.append(f"{r.name}: acceptable, check it. The top class changes on "
                             f"{changed} of {rows} inputs; calibrate on real inputs or widen "
                             "the percentiles.")
            else:
                lines.append(f"{r.name}: poor. The top class changes on {changed} of {rows} "
                             "inputs; do not ship this as is (calibrate on real inputs, widen "
                             "the percentiles, or keep the sensitive layers in float).")
            continue
        span = r.reference_span
        if not span:
            lines.append(f"{r.name}: largest difference {r.max_abs_error:.3g} (no float range "
                         "to judge it against).")
            continue
        share = r.max_abs_error / span
        verdict = ("good" if share <= 0.01 else "acceptable, check it" if share <= 0.05
                   else "poor")
        lines.append(f"{r.name}: {verdict}. The largest difference is {100 * share:.1f}% of "
                     "the float output's range.")
    return "\n".join(lines)
