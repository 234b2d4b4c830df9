"""The operator lists of the per-target reports, shipped as data with their source named in
each file's header (target_*.txt), and the pre-flight NPU check over a .tflite read by our own
reader: float32 leaks in a quantized graph, dynamic dimensions, and ops outside a target's
list (the issues users meet first: litert-samples #143, #315)."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from inspector.core.errors import InspectorError

QUANTIZED = frozenset({"INT8", "UINT8", "INT16", "INT4"})
RULE_NAMES = {"ethos-u55": "npu_ethos_u55", "ethos-u65": "npu_ethos_u55",
              "ethos-u85": "npu_ethos_u85", "gpu": "gpu_ops"}


@dataclass(frozen=True)
class OpList:
    name: str
    label: str
    source: str
    ops: frozenset
    activations: frozenset      # tensor types the target computes in
    static_shapes: bool


@lru_cache(maxsize=None)
def op_list(name: str) -> OpList:
    """A shipped list by rule name (ethos-u55, ethos-u85, gpu) or file stem."""
    stem = RULE_NAMES.get(name, name)
    if not re.fullmatch(r"[a-z0-9_]+", stem):
        raise InspectorError(f"no target list '{name}'")
    try:
        text = resources.files("inspector.core.mobile").joinpath(
            f"target_{stem}.txt").read_text()
    except (FileNotFoundError, OSError):
        raise InspectorError(f"no target list '{name}' (shipped: "
                             f"{', '.join(sorted(RULE_NAMES))})") from None
    return parse_list(stem, text)


def read_list(path: str) -> OpList:
    """A user's own list, in the shipped files' format (one op a line, '# key: value')."""
    from inspector.core.loaders.files import read_text

    text = read_text(path, what="the target list", error=InspectorError)
    return parse_list(os.path.splitext(os.path.basename(path))[0], text)


def parse_list(name: str, text: str) -> OpList:
    head, ops = {}, set()
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("#"):
            key, _, value = line[1:].partition(":")
            head.setdefault(key.strip().lower(), value.strip())
        elif line:
            if not re.fullmatch(r"[A-Za-z0-9_]{1,80}", line):
                raise InspectorError(f"target list '{name}': '{line[:40]}' is not an op name")
            ops.add(line)
    if not ops:
        raise InspectorError(f"target list '{name}' names no operator")
    return OpList(name, head.get("label", name), head.get("source", "(not named)"),
                  frozenset(ops), frozenset(head.get("activations", "INT8").split()),
                  head.get("static-shapes", "yes").lower() == "yes")


def _tensors(sub, op) -> list:
    return [sub.tensors[i] for i in list(op.inputs) + list(op.outputs) if i >= 0]


def is_quantized(model) -> bool:
    """True when some operator computes in an integer type (a quantized graph)."""
    sub = model.subgraphs[0]
    return any(t.dtype in QUANTIZED and not t.data[1] for op in sub.operators
               for t in _tensors(sub, op))


def check_op(model, op, rules: OpList, quantized: bool) -> list:
    """[(reason, what to do)] that keep `op` off the target by the list's rules."""
    sub = model.subgraphs[0]
    found = []
    if op.op not in rules.ops:
        found.append((f"{op.op} is not on the {rules.label} list",
                      "replace it with listed ops, or accept a CPU fallback here (each one "
                      "costs a hand-over between the accelerator and the CPU)"))
    if not quantized and "FLOAT32" not in rules.activations:
        found.append(("the model computes in float32; the target computes in "
                      f"{' / '.join(sorted(rules.activations))}",
                      "convert the int8 variant (full integer quantization) and check that"))
    elif quantized and "FLOAT32" not in rules.activations:
        leak = next((t for t in _tensors(sub, op)
                     if t.dtype == "FLOAT32" and not t.data[1]), None)
        if leak is not None:
            found.append((f"float32 tensor '{leak.name[:60]}' in a quantized graph (a float "
                          "leak)",
                          "quantize fully (int8 inputs and outputs, TFLITE_BUILTINS_INT8); a "
                          "QUANTIZE/DEQUANTIZE pair around an op means it has no int8 kernel: "
                          "replace it"))
    if rules.static_shapes:
        dyn = next((t for t in _tensors(sub, op) if any(d < 0 for d in t.shape_signature)),
                   None)
        if dyn is not None:
            found.append((f"dynamic dimension in '{dyn.name[:60]}' (shape signature "
                          f"{list(dyn.shape_signature)})",
                          "fix every input shape before converting (batch 1, a fixed size)"))
    return found
