"""The requantization-range flow in one call: quantize_nodes, insert_logging, run the graph on
calibration inputs in a child process whose stderr carries TensorFlow's Print lines, parse,
freeze with chosen percentiles, and compare the float and eight-bit outputs."""

from __future__ import annotations

import glob
import json
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field

import numpy as np

from inspector.core.analysis.ranges import RangeLog, parse_log, percentile_range
from inspector.core.errors import Cancelled, InspectorError
from inspector.core.overlays.decorate import original_name  # noqa: F401  (re-exported)

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
              cancel=None, progress=None, timeout: float = 1800.0,
              allow_io: bool = False) -> Calibration:
    from inspector.core.model import safety
    from inspector.core.transforms import run_pipeline

    safety.require_safe(graph_def, outputs, inputs, allow_io, action="calibrate it")
    if len(inputs) != 1:
        raise InspectorError("calibration needs exactly one input node")
    # the input becomes a Placeholder first: quantize_nodes adds control edges from its
    # consumers, and a fed node that something depends on by control still needs its inputs
    dims = ",".join(str(1 if d is None else d) for d in input_shape)
    quantized = run_pipeline(graph_def, f'strip_unused_nodes(type=float, shape="{dims}") '
                             "quantize_nodes", inputs, outputs)[-1].graph_def
    logged = run_pipeline(quantized, LOGGING, inputs, outputs)[-1].graph_def
    if not any(n.op == "RequantizationRange" for n in quantized.node):
        raise InspectorError("quantize_nodes left no RequantizationRange to calibrate")
    with tempfile.TemporaryDirectory(prefix="inspector-calib-") as tmp:
        graph_path = os.path.join(tmp, "graph.pb")
        with open(graph_path, "wb") as fh:
            fh.write(logged.SerializeToString())
        spec = {"graph": graph_path, "input": inputs[0], "outputs": outputs,
                "input_shape": [1 if d is None else d for d in input_shape], "data": data,
                "out_dir": tmp, "allow_unsafe": bool(allow_io)}
        spec_path = os.path.join(tmp, "spec.json")
        with open(spec_path, "w") as fh:
            json.dump(spec, fh)
        err_path = os.path.join(tmp, "stderr.txt")
        env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="0")
        with open(err_path, "wb") as err:
            proc = subprocess.Popen([sys.executable, "-m", "inspector.core.overlays.calibration_child",
                                     spec_path], stdout=subprocess.PIPE, stderr=err, env=env,
                                    text=True)
            try:
                for line in proc.stdout:
                    if cancel is not None and cancel.is_set():
                        proc.kill()
                        raise Cancelled()
                    if line.startswith("progress") and progress is not None:
                        done, total = line.split()[1:3]
                        progress(int(done), int(total))
                proc.wait(timeout=timeout)
            finally:
                if proc.poll() is None:
                    proc.kill()
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


def compare_on_samples(original, quantized, inputs: list, outputs: list, samples: list,
                       input_shapes=None, allow_io: bool = False) -> list:
    """(output, max abs error, top-1 agreement) of the eight-bit graph against the float one
    over the calibration inputs."""
    from inspector.core.analysis.numeric_check import compare
    from inspector.core.model.executor import tensorflow

    refs, gots = [], []
    for x in samples:
        refs.append(tensorflow().run_graph(original, {inputs[0]: x}, outputs, input_shapes,
                                        allow_unsafe=allow_io))
        gots.append(tensorflow().run_graph(quantized, {inputs[0]: x}, outputs, input_shapes,
                                        allow_unsafe=allow_io))
    out = []
    for k, name in enumerate(outputs):
        a = np.concatenate([np.asarray(r[k]).reshape(1, -1) for r in refs])
        b = np.concatenate([np.asarray(g[k]).reshape(1, -1) for g in gots])
        out.append(compare(a, b, name))
    return out
