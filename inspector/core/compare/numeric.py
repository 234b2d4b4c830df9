"""Numeric divergence: run A and B on the same input, fetch the tensors of matched nodes, and
give each pair MSE, SNR, cosine and max relative error; the first node (in A's execution
order) whose error grows past a threshold is where the answers start to part. TensorFlow runs
through the executor (the worker in the app); both graphs pass the safety allowlist first."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from inspector.core.compare.diff import Diff
from inspector.core.model import safety
from inspector.core.model.execution_order import execution_order
from inspector.core.model.graph import Graph
from inspector.core.runtime.job import NO_JOB, Job

# ops whose output is not a value of the model's computation, or cannot be fetched
SKIPPED = frozenset({"Const", "Placeholder", "NoOp", "Assert", "Enter", "Exit", "Switch",
                     "Merge", "NextIteration", "LoopCond", "ControlTrigger", "VarHandleOp",
                     "VariableV2", "Variable", "ReadVariableOp", "PlaceholderWithDefault"})
LOOP_OPS = frozenset({"Enter", "Exit", "NextIteration", "LoopCond", "While", "StatelessWhile"})
MAX_FETCHES = 4096
THRESHOLD = 1e-3        # max relative error past which a node "diverges"


@dataclass
class Divergence:
    per_node: dict = field(default_factory=dict)    # A's node -> metrics (dict)
    first: str = ""                                  # first node of A past the threshold
    threshold: float = THRESHOLD
    skipped: list = field(default_factory=list)      # (node, why)
    pairs: list = field(default_factory=list)        # (A's node, B's node) compared

    def as_dict(self) -> dict:
        return {"threshold": self.threshold, "first_divergent": self.first,
                "per_node": self.per_node, "skipped": [list(s) for s in self.skipped]}


def metrics(a: np.ndarray, b: np.ndarray) -> dict:
    """MSE, SNR (dB; inf when equal), cosine and max relative error of B against A."""
    x, y = np.asarray(a, np.float64).ravel(), np.asarray(b, np.float64).ravel()
    err = y - x
    mse = float(np.mean(err * err)) if err.size else 0.0
    signal = float(np.sum(x * x))
    noise = float(np.sum(err * err))
    snr = float("inf") if noise == 0 else (float(10 * np.log10(signal / noise)) if signal
                                           else float("-inf"))
    nx, ny = np.linalg.norm(x), np.linalg.norm(y)
    cosine = float(x @ y / (nx * ny)) if nx and ny else (1.0 if nx == ny else 0.0)
    scale = float(np.max(np.abs(x))) if x.size else 0.0
    max_err = float(np.max(np.abs(err))) if err.size else 0.0
    rel = max_err / scale if scale else (0.0 if max_err == 0 else float("inf"))
    return {"mse": mse, "snr_db": snr, "cosine": cosine, "max_rel_error": rel,
            "max_abs_error": max_err}


def computable(graph: Graph, fed) -> set:
    """Nodes whose value the feeds determine (no unfed placeholder upstream)."""
    fed = {f.split(":")[0] for f in fed}
    out = set()
    for proto in execution_order(graph.graph_def):
        node = graph.node(proto.name)
        if node.name in fed or (node.op not in ("Placeholder", "PlaceholderV2") and
                                all(r.node in out for r in node.inputs)):
            out.add(node.name)
    return out


def fetch_pairs(d: Diff, ga: Graph, gb: Graph, fed_a=None, fed_b=None) -> list:
    """(a node, b node) of matched computations whose first output can be fetched, in A's
    execution order; graphs with loops compare their outputs only (a tensor inside a loop
    frame cannot be fetched)."""
    if any(n.op in LOOP_OPS for n in ga) or any(n.op in LOOP_OPS for n in gb):
        return []
    m = d.matching
    partner = dict(m.b_of)
    absorbed: dict = {}                       # B node -> non-Const nodes of A merged into it
    for a, b in m.merged.items():
        if ga.node(a).op != "Const":
            absorbed.setdefault(b, set()).add(a)
    for b, merged in absorbed.items():
        for a, into in m.b_of.items():
            if into == b:
                partner.pop(a, None)          # b no longer makes what a made
        for a in merged:
            if any(r in merged for r in ga.consumer_names(a)):
                continue                      # an inner step of the merged chain
            out_of = [s for s, src in m.split.items() if src == a and gb.node(s).op != "Const"]
            partner[a] = out_of[0] if out_of else b
    order = [n.name for n in execution_order(ga.graph_def)]
    ok_a = computable(ga, fed_a) if fed_a is not None else None
    ok_b = computable(gb, fed_b) if fed_b is not None else None
    out = []
    for a in order:
        b = partner.get(a)
        if b is None or ga.node(a).op in SKIPPED or gb.node(b).op in SKIPPED:
            continue
        if (ok_a is not None and a not in ok_a) or (ok_b is not None and b not in ok_b):
            continue
        out.append((a, b))
    return out[:MAX_FETCHES]


def prepare_feeds(d: Diff, ga: Graph, gb: Graph, inputs: list, arrays: dict | None = None,
                  seed: int = 0) -> tuple:
    """(feeds of A, the same arrays under B's names): given arrays or seeded random values
    shaped as A declares or TensorFlow infers (batch 1 where open)."""
    from inspector.core.analysis.numeric_check import known_input_shapes, make_inputs

    shapes = known_input_shapes(ga, ga.graph_def, gb, inputs, {}, arrays)
    feeds = make_inputs(ga, inputs, shapes, "random", seed, arrays)
    feeds_a = {(k if ":" in k else k + ":0"): v for k, v in feeds.items()}
    feeds_b = {}
    for k, v in feeds_a.items():
        name, port = k.split(":")
        feeds_b[f"{d.matching.b_of.get(name, name)}:{port}"] = v
    return feeds_a, feeds_b


def numeric_divergence(d: Diff, ga: Graph, gb: Graph, feeds_a: dict, feeds_b: dict,
                       outputs: list, threshold: float = THRESHOLD, allow_io: bool = False,
                       job: Job = NO_JOB) -> Divergence:
    """Run both graphs on the same feeds; every matched pair's tensors compared."""
    from inspector.core.runtime.executor import tensorflow

    pairs = fetch_pairs(d, ga, gb, list(feeds_a), list(feeds_b))
    outs_b = [d.matching.b_of.get(o, o) for o in outputs]
    for o, ob in zip(outputs, outs_b):
        if ob in gb and (o, ob) not in pairs:
            pairs.append((o, ob))
    safety.require_safe(ga.graph_def, [a for a, _ in pairs], list(feeds_a), allow_io, "A")
    safety.require_safe(gb.graph_def, [b for _, b in pairs], list(feeds_b), allow_io, "B")
    job.progress(10, 100, "running A")
    got_a = tensorflow().run_graph(ga.graph_def, feeds_a, [a + ":0" for a, _ in pairs],
                                   allow_unsafe=allow_io)
    job.check()
    job.progress(50, 100, "running B")
    got_b = tensorflow().run_graph(gb.graph_def, feeds_b, [b + ":0" for _, b in pairs],
                                   allow_unsafe=allow_io)
    result = Divergence(threshold=threshold)
    for (a, b), va, vb in zip(pairs, got_a, got_b):
        va, vb = np.asarray(va), np.asarray(vb)
        if va.shape != vb.shape:
            result.skipped.append((a, f"shapes differ: {va.shape} vs {vb.shape}"))
            continue
        if va.dtype.kind not in "fiub" or vb.dtype.kind not in "fiub":
            result.skipped.append((a, f"not numbers ({va.dtype})"))
            continue
        m = metrics(va, vb)
        result.per_node[a] = m
        result.pairs.append((a, b))
        if not result.first and m["max_rel_error"] > threshold:
            result.first = a
    return result
