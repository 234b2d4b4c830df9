"""Where a .tflite's operators run on each target, measured by the tools that decide it:
LiteRT's interpreter (which nodes its default XNNPACK delegate took) and Vela (an Ethos-U
compile: its per-layer CSV, summary CSV, printed summary and warnings, and the compiled model).
These run where TensorFlow runs (the worker, or the CLI process), never in the window's."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile

from inspector.core.errors import InspectorError
from inspector.core.runtime.job import NO_JOB, Job
from inspector.core.tf.litert import refuse_cycles
from inspector.core.tf.runtime import _quiet_stderr

VELA_TIMEOUT = 600.0


def _litert():
    try:
        from ai_edge_litert import interpreter
    except ImportError:
        raise InspectorError("the CPU (XNNPACK) report needs LiteRT: pip install "
                             "ai-edge-litert") from None
    return interpreter


def _version(dist: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(dist)
    except PackageNotFoundError:
        return "?"


def xnnpack_delegation(model: bytes) -> dict:
    """{engine, ops: [{index, op, inputs, outputs}], delegates: [{inputs, outputs}]}: the
    model's operators and the delegate nodes LiteRT's default XNNPACK delegate made."""
    refuse_cycles(model)    # a subgraph calling itself: LiteRT's stack would run out
    interpreter = _litert()

    try:
        with _quiet_stderr():    # "INFO: Created TensorFlow Lite XNNPACK delegate for CPU."
            it = interpreter.Interpreter(model_content=model, num_threads=1)
            it.allocate_tensors()
        details = it._get_ops_details()
    except Exception as exc:  # noqa: BLE001  (LiteRT's RuntimeError/ValueError)
        raise InspectorError(f"LiteRT could not prepare the model: "
                             f"{str(exc).splitlines()[0][:200]}") from None
    ops, delegates = [], []
    for d in details:
        entry = {"index": int(d["index"]), "op": d["op_name"],
                 "inputs": [int(i) for i in d["inputs"]],
                 "outputs": [int(o) for o in d["outputs"]]}
        (delegates if d["op_name"] == "DELEGATE" else ops).append(entry)
    return {"engine": f"ai-edge-litert {_version('ai-edge-litert')}", "ops": ops,
            "delegates": delegates}


def vela_compile(model: bytes, accelerator: str = "ethos-u55-128",
                 job: Job | None = None) -> dict:
    """Compile with Vela for `accelerator`: {version, returncode, stdout, per_layer (CSV
    text), summary (CSV text), output (the compiled .tflite bytes)}."""
    try:
        import ethosu.vela  # noqa: F401
    except ImportError:
        raise InspectorError("the Ethos-U report needs Vela: pip install ethos-u-vela") \
            from None
    job = job or NO_JOB
    if not accelerator.replace("-", "").isalnum():
        raise InspectorError(f"not an accelerator configuration: '{accelerator[:40]}'")
    with tempfile.TemporaryDirectory(prefix="inspector-vela-") as folder:
        source = os.path.join(folder, "model.tflite")
        with open(source, "wb") as f:
            f.write(model)
        out = os.path.join(folder, "out")
        cmd = [sys.executable, "-m", "ethosu.vela", source, "--accelerator-config",
               accelerator, "--output-dir", out, "--verbose-performance"]
        job.progress(0, 0, f"Vela: compiling for {accelerator}")
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                cwd=folder, text=True, errors="replace")
        try:
            while True:
                try:
                    text, _ = proc.communicate(timeout=0.2)
                    break
                except subprocess.TimeoutExpired:
                    job.check()
        except BaseException:
            proc.kill()
            proc.wait()
            raise
        if proc.returncode != 0:
            last = [line for line in text.splitlines() if line.strip()][-1:] or ["(no output)"]
            raise InspectorError(f"Vela could not compile the model for {accelerator}: "
                                 f"{last[0][:200]}")

        def read(suffix, binary=False):
            names = sorted(n for n in os.listdir(out) if n.endswith(suffix)) \
                if os.path.isdir(out) else []
            if not names:
                return b"" if binary else ""
            with open(os.path.join(out, names[0]), "rb" if binary else "r") as f:
                return f.read()
        return {"version": _version("ethos-u-vela"), "returncode": proc.returncode,
                "stdout": text, "per_layer": read("_per-layer.csv"),
                "summary": _summary(out), "output": read("_vela.tflite", binary=True)}


def _summary(out: str) -> str:
    names = sorted(n for n in os.listdir(out) if "_summary_" in n and n.endswith(".csv")) \
        if os.path.isdir(out) else []
    if not names:
        return ""
    with open(os.path.join(out, names[0])) as f:
        return f.read()
