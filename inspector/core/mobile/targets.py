"""Per-target reports of a .tflite: for each target, the share of operators on its accelerator,
the ones that are not, why, and what to do. CPU: the nodes LiteRT's XNNPACK delegate took
(measured); GPU: the GPU delegate's list (TF's analyzer's verdict quoted beside it); Ethos-U:
a Vela compile (its placement, cycles and SRAM); npu-RULES: the pre-flight check of
target_lists.py. LiteRT and Vela run through the executor (the worker, or the CLI process)."""

from __future__ import annotations

import csv
import io
import math
import re
from dataclasses import dataclass, field, replace

from inspector.core.mobile import target_lists as lists
from inspector.core.model import attrs as attr_codec
from inspector.core.mobile.target_registry import choices, get, names, register

__all__ = ["choices", "get", "names", "register", "report", "parse_target", "TargetReport",
           "Placement", "preflight", "gpu_report", "xnnpack_report", "vela_report", "op_nodes"]
from inspector.core.runtime.job import NO_JOB, Job

ON, OFF = "#9fd8c3", "#ee9a72"      # the overlay's two colours (tflite_compat's hues)
ETHOS_U = ("ethos-u55-32", "ethos-u55-64", "ethos-u55-128", "ethos-u55-256",
           "ethos-u65-256", "ethos-u65-512", "ethos-u85-128", "ethos-u85-256",
           "ethos-u85-512", "ethos-u85-1024", "ethos-u85-2048")


@dataclass(frozen=True)
class Placement:
    index: int          # the operator's index in the main subgraph
    op: str
    node: str           # the node drawn for it ("" when the graph has none)
    on: bool            # runs on the target's accelerator
    reason: str = ""
    advice: str = ""
    cost: tuple = ()    # ((figure, value), ...) the tool's estimate for this op (Vela)
    more: tuple = ()    # further nodes fused into it (a GraphDef's nodes of one TFLite op)

    @property
    def nodes(self) -> tuple:
        return ((self.node,) if self.node else ()) + self.more


@dataclass(frozen=True)
class TargetReport:
    target: str
    label: str          # "CPU (XNNPACK)", "Ethos-U55-128 NPU (Vela 5.2.0)", ...
    source: str         # how the placement was found
    ops: tuple
    figures: dict = field(default_factory=dict)
    notes: tuple = ()

    @property
    def on(self) -> int:
        return sum(p.on for p in self.ops)

    @property
    def share(self) -> float:
        return self.on / len(self.ops) if self.ops else 0.0

    @property
    def off(self) -> list:
        return [p for p in self.ops if not p.on]

    def summary(self) -> str:
        return (f"{self.label}: {self.on} of {len(self.ops)} operators on the accelerator "
                f"({100 * self.share:.0f}%)")

    def by_node(self) -> dict:
        """node -> its operator's Placement (every node fused into it)."""
        return {n: p for p in self.ops for n in p.nodes}

    def values(self) -> dict:
        """node -> where it runs (the overlay's values)."""
        return {n: ("accelerator" if p.on else "CPU fallback")
                for n, p in self.by_node().items()}

    def colours(self) -> dict:
        return {n: ON if p.on else OFF for n, p in self.by_node().items()}

    def as_json(self) -> dict:
        return {"target": self.target, "label": self.label, "source": self.source,
                "operators": len(self.ops), "on_accelerator": self.on,
                "share": round(self.share, 4), "figures": self.figures,
                "notes": list(self.notes),
                "off_accelerator": [{"index": p.index, "op": p.op, "node": p.node,
                                     "reason": p.reason, "advice": p.advice}
                                    for p in self.off],
                "per_operator": [{"index": p.index, "op": p.op, "node": p.node,
                                  "on": p.on, **dict(p.cost)} for p in self.ops if p.cost]}


def parse_target(text: str) -> str:
    return get(text).name


def target_names() -> tuple:
    return names()


def op_nodes(graph) -> dict:
    """operator index -> node name in our drawing of a .tflite (loaders/tflite_graph.py)."""
    out = {}
    node_names = graph.name_list      # the NodeDefs and the name column: no Node view
    for i, proto in enumerate(graph.structure.node):
        if "tflite_index" in proto.attr:
            out[int(attr_codec.decode(proto.attr["tflite_index"]))] = node_names[i]
    return out


def _placements(model, nodes, decide) -> tuple:
    sub = model.subgraphs[0]
    return tuple(Placement(op.index, op.op, nodes.get(op.index, ""), *decide(op))
                 for op in sub.operators)


# -- npu-RULES and GPU: lists --------------------------------------------------------------
def preflight(model, rules: lists.OpList, nodes: dict, target: str) -> TargetReport:
    quantized = lists.is_quantized(model)

    def decide(op):
        found = lists.check_op(model, op, rules, quantized)
        if not found:
            return (True,)
        return (False, "; ".join(r for r, _ in found), "; ".join(a for _, a in found))
    notes = (f"A pre-flight check from a list, not a compile: {rules.source}.",)
    return TargetReport(target, f"{rules.label} (pre-flight)", f"list: {rules.source}",
                        _placements(model, nodes, decide),
                        {"quantized_graph": quantized}, notes)


def gpu_report(model, analyzer_text: str, nodes: dict) -> TargetReport:
    rules = lists.op_list("gpu")
    report = preflight(model, rules, nodes, "gpu")
    verdict = next((line.strip() for line in analyzer_text.splitlines()
                    if "GPU" in line and ("compatib" in line or "WARNING" in line)), "")
    notes = []
    if verdict:
        notes.append(f"TensorFlow's analyzer (gpu_compatibility=True) says: \"{verdict}\"")
        if "looks compatible" in verdict and report.off:
            notes.append("The analyzer of this TensorFlow build has no per-op GPU checks "
                         "(it says 'compatible' for ops the delegate lacks), so the list "
                         "decides here.")
    return TargetReport("gpu", "GPU delegate", report.source, report.ops, report.figures,
                        tuple(notes))


# -- CPU: XNNPACK, measured by LiteRT ---------------------------------------------------------
def xnnpack_report(model, measured: dict, nodes: dict) -> TargetReport:
    ops = {o["index"]: o for o in measured["ops"]}
    producer = {t: k for k, o in ops.items() for t in o["outputs"]}
    taken: set = set()
    for d in measured["delegates"]:
        stop, stack = set(d["inputs"]), list(d["outputs"])
        while stack:
            t = stack.pop()
            k = producer.get(t)
            if t in stop or k is None or k in taken:
                continue
            taken.add(k)
            stack.extend(ops[k]["inputs"])
    why = (f"XNNPACK did not take it ({measured['engine']} decided: no XNNPACK kernel for "
           "this op, or not for its types or parameters)")
    advice = ("it runs on LiteRT's builtin CPU kernels between XNNPACK partitions; replace "
              "it with XNNPACK-supported ops or move it to the graph's edge")

    def decide(op):
        return (True,) if op.index in taken else (False, why, advice)
    figures = {"xnnpack_partitions": len(measured["delegates"])}
    return TargetReport("cpu", "CPU (XNNPACK)", f"measured: {measured['engine']} with its "
                        "default XNNPACK delegate", _placements(model, nodes, decide), figures)


# -- Ethos-U: a Vela compile ------------------------------------------------------------------
_WARNING = re.compile(r"^Warning \(supported operators\) operator: (\w+), ofm: '(.*)'$")


def vela_warnings(stdout: str) -> dict:
    """ofm tensor name -> Vela's reason for leaving that operator on the CPU."""
    out, current = {}, None
    for line in stdout.splitlines():
        m = _WARNING.match(line.strip())
        if m:
            current = m.group(2)
            out[current] = []
        elif current is not None and line.strip() and not line.startswith(("Warning",
                                                                             "Network")):
            text = line.strip()
            out[current].append(text[len("Reason: "):] if text.startswith("Reason: ") else text)
        else:
            current = None
    return {k: " ".join(v) for k, v in out.items()}


def vela_summary(stdout: str) -> dict:
    figures = {}
    for key, name in (("CPU operators", "vela_cpu_operators"),
                      ("NPU operators", "vela_npu_operators")):
        m = re.search(rf"^{key} = (\d+) \(([\d.]+)%\)", stdout, re.M)
        if m:
            figures[name] = int(m.group(1))
            figures[name.replace("operators", "percent")] = float(m.group(2))
    return figures


def _csv_rows(text: str) -> list:
    return list(csv.DictReader(io.StringIO(text))) if text else []


_ACTIVATIONS = ("Relu", "Relu6", "ReluN1To1", "Relu0To1", "LUT", "Clamp", "Sigmoid", "Tanh")


def _fused(row: dict) -> bool:
    """A per-layer row of an activation fused into the operation before it (0 cycles of its
    own); Vela's "NPU operators" does not count these."""
    try:
        cycles = float(row.get("Op Cycles") or 0)
    except ValueError:
        return False
    return cycles == 0 and row.get("NNG Operator") in _ACTIVATIONS


def per_op_costs(rows: list, main) -> dict:
    """operator index -> (("cycles", n), ("macs", n), ("sram_access_cycles", n)) from Vela's
    per-layer CSV: its rows come in execution order and an operation's last row carries the
    name of the operator's output tensor (its fused activation may repeat it)."""
    by_name = {}
    for op in main.operators:
        if op.outputs:
            by_name.setdefault(main.tensors[op.outputs[0]].name, op.index)
    costs, pending, last = {}, [], None
    for row in rows:
        name = row.get("Name", "")
        if name == last and not pending and last in by_name:
            pending = []
            target = by_name[last]
        elif name in by_name:
            target = by_name[name]
        else:
            pending.append(row)
            continue
        cycles, macs, sram = costs.get(target, (0, 0, 0))
        for r in pending + [row]:
            cycles += _number(r.get("Op Cycles"))
            macs += _number(r.get("MAC Count"))
            sram += _number(r.get("SRAM AC"))
        costs[target] = (cycles, macs, sram)
        pending, last = [], name
    return {k: (("cycles", c), ("macs", m), ("sram_access_cycles", a))
            for k, (c, m, a) in costs.items()}


def _number(text) -> int:
    try:
        return int(float(text or 0))
    except ValueError:
        return 0


def vela_report(model, vela: dict, nodes: dict, accelerator: str) -> TargetReport:
    from inspector.core.loaders.tflite import read_model

    compiled = read_model(vela["output"], "vela output") if vela.get("output") else None
    on_cpu = set()
    if compiled is not None:
        sub = compiled.subgraphs[0]
        on_cpu = {(op.op, sub.tensors[op.outputs[0]].name) for op in sub.operators
                  if op.op != "ethos-u" and op.outputs}
    reasons = vela_warnings(vela.get("stdout", ""))
    main = model.subgraphs[0]
    quantized = lists.is_quantized(model)

    def decide(op):
        out = main.tensors[op.outputs[0]].name if op.outputs else ""
        if (op.op, out) not in on_cpu:
            return (True,)
        reason = reasons.get(out, "Vela left it on the CPU (no reason printed)")
        if not quantized:
            advice = ("the model computes in float32: convert its int8 variant (full integer "
                      "quantization) for the NPU")
        elif "Unsupported opType" in reason:
            advice = "the NPU has no such operator: replace it, or accept the CPU fallback"
        elif "Float32" in reason or op.op in ("QUANTIZE", "DEQUANTIZE"):
            advice = ("a float leak: quantize this part fully (int8), or replace the op the "
                      "converter kept in float")
        else:
            advice = "change the op so it meets the constraint Vela names"
        return (False, reason, advice)
    rows = _csv_rows(vela.get("per_layer", ""))
    summary = (_csv_rows(vela.get("summary", "")) or [{}])[0]
    figures = vela_summary(vela.get("stdout", ""))
    npu = [r for r in rows if r.get("Target") == "NPU" and not _fused(r)]
    cpu = [r for r in rows if r.get("Target") == "CPU"]
    figures.update({"per_layer_npu_operators": len(npu), "per_layer_cpu_operators": len(cpu),
                    "per_layer_npu_percent": round(100 * len(npu) / max(1, len(npu) + len(cpu)),
                                                   1)})
    for key, name, kind in (("cycles_total", "cycles_total", int),
                            ("cycles_npu", "cycles_npu", int),
                            ("inference_time", "inference_time_s", float),
                            ("inferences_per_second", "inferences_per_second", float),
                            ("sram_memory_used", "sram_used_kib", float),
                            ("off_chip_flash_memory_used", "off_chip_flash_used_kib", float),
                            ("nn_macs", "macs", int), ("system_config", "system_config", str),
                            ("memory_mode", "memory_mode", str)):
        if summary.get(key) not in (None, ""):
            try:
                value = kind(float(summary[key])) if kind is int else kind(summary[key])
            except (ValueError, OverflowError):
                continue
            if not (isinstance(value, float) and not math.isfinite(value)):
                figures[name] = value      # Vela writes nan for the rate of an empty NPU
    costs = per_op_costs(rows, main)
    placements = tuple(replace(p, cost=costs.get(p.index, ()))
                       for p in _placements(model, nodes, decide))
    notes = ("Vela counts its own operators (a SOFTMAX becomes ~30 NPU steps): "
             f"{figures.get('vela_npu_operators', '?')} NPU and "
             f"{figures.get('vela_cpu_operators', '?')} CPU; the share above counts the "
             ".tflite's operators.",)
    return TargetReport(accelerator, f"{accelerator.upper().replace('ETHOS', 'Ethos')} NPU",
                        f"compiled: ethos-u-vela {vela.get('version', '?')} "
                        f"--accelerator-config {accelerator}", placements, figures, notes)


# -- one entry for the window and the CLI ----------------------------------------------------
def report(data: bytes, model, graph, target: str, job: Job = NO_JOB,
           mapping=None, subject: str = "") -> TargetReport:
    """The report of `target` for the .tflite `data` (read as `model`), on `graph` when it
    is our drawing of that .tflite, or on a GraphDef through `mapping` (tflite_mapping's
    Mapping of this conversion: each operator onto the nodes fused into it)."""
    chosen = get(target)
    nodes = op_nodes(graph) if graph is not None and mapping is None else {}
    if mapping is not None:
        nodes = {m.index: m.nodes[0] for m in mapping.ops if m.nodes}
    made = chosen.make(data, model, nodes, chosen.name, job)
    if mapping is not None:
        fused = {m.index: tuple(m.nodes[1:]) for m in mapping.ops}
        made = replace(made, ops=tuple(replace(p, more=fused.get(p.index, ()))
                                       for p in made.ops))
    if subject:
        made = replace(made, label=f"{made.label}, {subject}")
    return made


# -- the shipped targets: a new one is its function and one register line ----------------------
def _cpu(data, model, nodes, name, job):
    from inspector.core.runtime.executor import tensorflow

    return xnnpack_report(model, tensorflow().xnnpack_delegation(data), nodes)


def _gpu(data, model, nodes, name, job):
    from inspector.core.runtime.executor import tensorflow

    return gpu_report(model, tensorflow().tflite_analyze(data), nodes)


def _vela(data, model, nodes, name, job):
    from inspector.core.runtime.executor import tensorflow

    return vela_report(model, tensorflow().vela_compile(data, name, job=job), nodes, name)


def _preflight(data, model, nodes, name, job):
    return preflight(model, lists.op_list(name[4:]), nodes, name)


register("cpu", "CPU (XNNPACK, measured by LiteRT)", False, _cpu)
register("gpu", "GPU delegate", False, _gpu)
for _name in ETHOS_U:
    register(_name, f"{_name.upper().replace('ETHOS', 'Ethos')} (Vela compile)", True, _vela)
register("npu-ethos-u55", "NPU pre-flight: Ethos-U55 list", True, _preflight)
register("npu-ethos-u65", "NPU pre-flight: Ethos-U65 list (the U55's)", True, _preflight)
register("npu-ethos-u85", "NPU pre-flight: Ethos-U85 list", True, _preflight)
