"""Numeric divergence: run A and B on the same input, fetch the tensors of matched nodes, and
give each pair MSE, SNR, cosine and peak-relative error (max|B - A| / max|A|); the first activation (in A's execution
order; a weight read is compared but never "first": quantized weights differ by construction)
whose error grows past a threshold is where the answers start to part. A GraphDef runs in
TensorFlow, a .tflite in LiteRT (every tensor kept, quantized ones dequantized), both through
the executor's compare_runs, which compares the tensors where they ran (the worker in the app:
only the figures come back); a GraphDef passes the safety allowlist first (TFLite builtins are
computation)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from inspector.core.analysis.numeric_check import known_input_shapes, make_inputs
from inspector.core.compare.diff import Diff
from inspector.core.errors import InspectorError
from inspector.core.model import safety
from inspector.core.model.execution_order import execution_order
from inspector.core.model.graph import Graph
from inspector.core.model.tensor_error import metrics  # noqa: F401  (the figures of a pair)
from inspector.core.runtime import feed_budget
from inspector.core.runtime.executor import tensorflow
from inspector.core.runtime.job import NO_JOB, Job

# ops whose output is not a value of the model's computation, or cannot be fetched
SKIPPED = frozenset({"Const", "Placeholder", "NoOp", "Assert", "Enter", "Exit", "Switch",
                     "Merge", "NextIteration", "LoopCond", "ControlTrigger", "VarHandleOp",
                     "VariableV2", "Variable", "ReadVariableOp", "PlaceholderWithDefault"})
LOOP_OPS = frozenset({"Enter", "Exit", "NextIteration", "LoopCond", "While", "StatelessWhile"})
MAX_FETCHES = 4096
THRESHOLD = 1e-3        # peak-relative error past which a node "diverges"


@dataclass
class Divergence:
    per_node: dict = field(default_factory=dict)    # A's node -> metrics (dict)
    first: str = ""                                  # first activation of A past threshold
    threshold: float = THRESHOLD
    skipped: list = field(default_factory=list)      # (node, why)
    pairs: list = field(default_factory=list)        # (A's node, B's node) compared
    engines: tuple = ("", "")                        # what ran A and B
    layers: dict = field(default_factory=dict)       # A's node -> B's op (a .tflite side)
    inputs: list = field(default_factory=list)       # how the inputs were made, if special
    constant: set = field(default_factory=set)       # A's nodes compared that no input feeds

    def headline(self) -> str:
        """One line: how many compared, the first node past the threshold, the worst layer."""
        per = self.per_node
        layers = [a for a, _ in self.pairs if a not in self.constant]
        worst = min(layers, key=lambda a: per[a]["snr_db"], default=None)
        where = " (B in LiteRT)" if "LiteRT" in self.engines[1] else \
            " (A in LiteRT)" if "LiteRT" in self.engines[0] else ""
        text = f"{len(per)} matched tensors compared{where}; " + (
            f"first node past peak-relative error {self.threshold:g}: {self.first} "
            f"(SNR {per[self.first]['snr_db']:.1f} dB)" if self.first else
            "no node past the threshold")
        if worst is not None and worst != self.first:
            snr = per[worst]["snr_db"]
            # no noise anywhere: naming a 'worst' of SNR inf dB read as a finding (walk5)
            text += "; every compared value equal" if snr == float("inf") else \
                f"; worst: {worst} (SNR {snr:.1f} dB)"
        return text

    @staticmethod
    def from_dict(data) -> "Divergence":
        """as_dict's result back (a saved comparison's "numeric"): a file written before the
        figure was named peak_rel_error (bd81511) has it as max_rel_error, read the same.
        InspectorError naming what is malformed."""
        try:
            per, pairs, constant, layers = {}, [], set(), {}
            for a, m in dict(data["per_node"]).items():
                a, m = str(a), dict(m)
                rel = m.get("peak_rel_error", m.get("max_rel_error", 0.0))
                per[a] = {"mse": float(m.get("mse", 0.0)), "snr_db": float(m["snr_db"]),
                          "cosine": float(m.get("cosine", 0.0)), "peak_rel_error": float(rel),
                          "max_abs_error": float(m.get("max_abs_error", 0.0))}
                pairs.append((a, str(m["b"])))
                if m.get("activation") is False:
                    constant.add(a)
                if "b_op" in m:
                    layers[a] = str(m["b_op"])
            engines = dict(data.get("engines") or {})
            first = str(data.get("first_divergent") or "")
            return Divergence(per, first if first in per else "",
                              float(data.get("threshold", THRESHOLD)),
                              [(str(n), str(w)) for n, w in data.get("skipped", [])], pairs,
                              (str(engines.get("A", "")), str(engines.get("B", ""))), layers,
                              [str(x) for x in data.get("inputs", [])], constant)
        except (KeyError, TypeError, ValueError, AttributeError, OverflowError) as exc:
            raise InspectorError(f"the saved Run both result is malformed "
                                 f"({type(exc).__name__}: {str(exc)[:80]})") from None

    def as_dict(self) -> dict:
        return {"threshold": self.threshold, "first_divergent": self.first,
                "engines": {"A": self.engines[0], "B": self.engines[1]},
                "inputs": self.inputs,
                "per_node": {a: {**m, "b": b, "activation": a not in self.constant,
                                 **({"b_op": self.layers[a]} if a in self.layers else {})}
                             for (a, b), m in ((p, self.per_node[p[0]]) for p in self.pairs)},
                "skipped": [list(s) for s in self.skipped]}


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
    spread: dict = {}                         # A node -> non-Const nodes of B split out of
    for b, a in m.split.items():              # it (B read from A's side: A's op fused them)
        if gb.node(b).op != "Const":
            spread.setdefault(a, set()).add(b)
    for a, parts in spread.items():           # B makes what a made at the chain's end
        ends = [b for b in parts if not any(r in parts for r in gb.consumer_names(b))]
        if len(ends) == 1:
            partner[a] = ends[0]
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
    last = {b: a for a, b in out}     # several of A's nodes in one op of B (a fused Conv, its
    out = [(a, b) for a, b in out if last[b] == a]    # batch norm, Relu6): B makes the last
    return out[:MAX_FETCHES]


def quantized_range(graph: Graph, name: str) -> tuple | None:
    """(low, high) a .tflite's input `name` can hold: its own int8/uint8 quantization, or
    that of the QUANTIZE op reading a float input (the calibrated range); None if neither."""
    node = graph.get(name)
    if node is None or "tflite_tensor" not in node.proto.attr:
        return None
    for n in [node] + [graph.node(c) for c in graph.consumer_names(name)
                       if graph.node(c).op == "QUANTIZE"]:
        attr = n.proto.attr
        kind = attr["tflite_type"].s.decode() if "tflite_type" in attr else ""
        if kind in ("INT8", "UINT8") and len(attr["quant_scale"].list.f) == 1:
            scale, zero = attr["quant_scale"].list.f[0], attr["quant_zero_point"].list.i[0]
            low, high = (-128, 127) if kind == "INT8" else (0, 255)
            return (low - zero) * scale, (high - zero) * scale
    return None


def input_quantization(graph: Graph, name: str) -> tuple | None:
    """(numpy dtype name, scale, zero point) of a .tflite input that is itself int8 or uint8
    (one scale); None for any other input."""
    node = graph.get(name)
    attr = node.proto.attr if node is not None else {}
    kind = attr["tflite_type"].s.decode() if "tflite_type" in attr else ""
    if kind in ("INT8", "UINT8") and len(attr["quant_scale"].list.f) == 1:
        zeros = attr["quant_zero_point"].list.i if "quant_zero_point" in attr else ()
        return kind.lower(), attr["quant_scale"].list.f[0], zeros[0] if zeros else 0
    return None


def quantize(real, how: tuple):
    """`real` values as the integers of a quantized input (how: input_quantization's), as
    LiteRT's own feeding rounds them, a piece at a time (no float copy of the whole)."""
    dtype, scale, zero = np.dtype(how[0]), how[1], how[2]
    info = np.iinfo(dtype)
    out = np.empty(real.shape, dtype)
    if not scale > 0:      # 0, negative or NaN (a hostile .tflite, which LiteRT is not given:
        out.fill(min(max(int(zero), info.min), info.max))   # refuse_cycles): no division
        return out         # ('invalid value encountered in cast' on stderr)
    flat, src = out.reshape(-1), real.reshape(-1)
    for start in range(0, flat.size, feed_budget.CHUNK):
        piece = src[start:start + feed_budget.CHUNK]
        flat[start:start + len(piece)] = np.clip(np.round(piece / scale + zero), info.min,
                                                 info.max)
    return out


def prepare_feeds(d: Diff, ga: Graph, gb: Graph, inputs: list, arrays: dict | None = None,
                  seed: int = 0, sizes: dict | None = None) -> tuple:
    """(feeds of A, feeds of B under B's names, how they were made): given arrays or seeded
    random values shaped as A declares or TensorFlow infers (batch 1 where open); an input a
    quantized .tflite side reads gets uniform values in its calibrated range (normal values
    would mostly measure clipping). Each side is fed its own dtype: a side whose input is
    int8/uint8 gets those values quantized with its input's scale and zero point, a float
    side the real values. What the feeds hold is sized (feed_budget) before it is drawn.
    `sizes` ({input: dims}) sizes inputs as given (the comparison window asks for the size
    of an input of none)."""
    shapes = known_input_shapes(ga, ga.graph_def, gb, inputs, dict(sizes or {}), arrays)
    feeds = make_inputs(ga, inputs, shapes, "random", seed, arrays)
    rng = np.random.default_rng(seed)
    b_of, notes = _b_inputs(d, ga, gb, [t.split(":")[0] for t in inputs])
    redraw = []
    for text in inputs:
        name = text.split(":")[0]
        key = text if text in feeds else name
        value = feeds.get(key)
        own = quantized_range(ga, name)
        span = quantized_range(gb, b_of.get(name, name)) or own
        if (arrays and name in arrays) or span is None or value is None or \
                (value.dtype.kind != "f" and own is None):
            continue
        real = value.dtype if value.dtype.kind == "f" else np.dtype(np.float32)
        redraw.append((key, name, value.shape, real, span, input_quantization(ga, name),
                       input_quantization(gb, b_of.get(name, name))))
    drawn = {r[0] for r in redraw}
    wanted = [(k, v.shape, v.dtype, 1) for k, v in feeds.items() if k not in drawn]
    for key, name, shape, real, _, qa, qb in redraw:
        wanted += [(name, shape, real, 1)] + [(f"{name} ({side}'s {q[0]})", shape, q[0], 1)
                                              for side, q in (("A", qa), ("B", qb)) if q]
    feed_budget.check_all(wanted)
    extra_b = {}
    for key, name, shape, real, span, qa, qb in redraw:
        feeds[key] = None                     # A's first draw goes before the real values come
        values = feed_budget.random(rng, shape, real, span[0], span[1])
        feeds[key] = quantize(values, qa) if qa else values
        if qa or qb:
            extra_b[key] = quantize(values, qb) if qb else values
        fed = [f"{side} as {q[0]} (its scale {q[1]:.4g}, zero point {q[2]})"
               for side, q in (("A", qa), ("B", qb)) if q]
        notes.append(f"{name}: uniform in [{span[0]:.4g}, {span[1]:.4g}] (the .tflite's "
                     "calibrated input range)" + (f"; fed to {' and '.join(fed)}" if fed else ""))
    feeds_a = {(k if ":" in k else k + ":0"): v for k, v in feeds.items()}
    extra_b = {(k if ":" in k else k + ":0"): v for k, v in extra_b.items()}
    feeds_b = {}
    for k, v in feeds_a.items():
        name, port = k.split(":")
        feeds_b[f"{b_of.get(name, name)}:{port}"] = extra_b.get(k, v)
    return feeds_a, feeds_b, notes


def _b_inputs(d: Diff, ga: Graph, gb: Graph, names: list) -> tuple:
    """({A's input: B's input}, notes): the matching's pairs; an input the matching left
    alone (a Keras model's .tflite calls it 'serving_default_<name>') goes to B's one input
    left over when exactly one is left on each side with the same number of dimensions."""
    b_of = {n: d.matching.b_of.get(n, n) for n in names}
    places = [n.name for n in gb if n.op == "Placeholder"]
    left_a = [n for n in names if b_of[n] not in gb]   # fed at a node B has: B is cut there
    left_b = [p for p in places if p not in b_of.values()]
    if len(left_a) != 1 or len(left_b) != 1 or not _same_rank(ga, gb, left_a[0], left_b[0]):
        return b_of, []
    b_of[left_a[0]] = left_b[0]
    return b_of, [f"{left_a[0]}: fed to B's '{left_b[0]}' too (the one input left unpaired "
                  "on each side)"]


def _same_rank(ga: Graph, gb: Graph, a: str, b: str) -> bool:
    """Whether both placeholders declare shapes of one rank (or either declares none)."""
    ranks = []
    for g, name in ((ga, a), (gb, b)):
        node = g.get(name)
        shape = node.proto.attr["shape"].shape if node is not None and \
            "shape" in node.proto.attr else None
        ranks.append(None if shape is None or shape.unknown_rank else len(shape.dim))
    return None in ranks or ranks[0] == ranks[1]


def fed_by(graph: Graph, fed) -> set:
    """Nodes whose value depends on a fed input: activations, not weights or their reads."""
    fed = {f.split(":")[0] for f in fed}
    out = set()
    for proto in execution_order(graph.graph_def):
        node = graph.node(proto.name)
        if node.name in fed or any(r.node in out for r in node.inputs if not r.control):
            out.add(node.name)
    return out


def _side(graph: Graph, model: bytes | None, feeds: dict, names: list, allow_io: bool,
          side: str, path: str = "") -> dict:
    """What the executor runs for one side (numeric_divergence): a GraphDef checked against
    the safety allowlist first, a .tflite's inputs in its own order; `path`, its file, names
    it in the executor's errors (LiteRT's refusal of one of the two)."""
    if model is None:
        safety.require_safe(graph.graph_def, names, list(feeds), allow_io, side)
        return {"graph_def": graph.graph_def, "feeds": feeds, "path": path,
                "fetches": [n + ":0" for n in names], "allow_unsafe": allow_io}
    order = [n.name for n in graph if n.op == "Placeholder"]
    missing = [p for p in order if p + ":0" not in feeds]
    if missing:
        raise InspectorError(f"{side}'s input '{missing[0]}' matches none of the inputs A is "
                             "fed at: mark A's inputs", path=path or None, node=missing[0])
    return {"model": model, "feeds": [feeds[p + ":0"] for p in order], "path": path,
            "tensors": [graph.node(n).proto.attr["tflite_tensor"].s.decode() for n in names]}


def numeric_divergence(d: Diff, ga: Graph, gb: Graph, feeds_a: dict, feeds_b: dict,
                       outputs: list, threshold: float = THRESHOLD, allow_io: bool = False,
                       job: Job = NO_JOB, models: tuple = (None, None),
                       paths: tuple = ("", "")) -> Divergence:
    """Run both graphs on the same feeds; every matched pair's tensors compared where they ran
    (the executor's compare_runs: the worker, in the app). `models`: the bytes of a side that
    is a .tflite (None: a GraphDef, run in TensorFlow)."""
    pairs = fetch_pairs(d, ga, gb, list(feeds_a), list(feeds_b))
    outs_b = [d.matching.b_of.get(o, o) for o in outputs]
    fetched = {a for a, _ in pairs}
    for o, ob in zip(outputs, outs_b):
        if ob in gb and o not in fetched:     # (an output compared once: at its layer's row)
            pairs.append((o, ob))
    side_a = _side(ga, models[0], feeds_a, [a for a, _ in pairs], allow_io, "A", paths[0])
    side_b = _side(gb, models[1], feeds_b, [b for _, b in pairs], allow_io, "B", paths[1])
    job.progress(5, 100, "running A")
    found, engines = tensorflow().compare_runs(side_a, side_b, job)
    activations = fed_by(ga, feeds_a)
    result = Divergence(threshold=threshold, engines=tuple(engines))
    for (a, b), m in zip(pairs, found):
        if isinstance(m, str):
            result.skipped.append((a, m))
            continue
        result.per_node[a] = m
        result.pairs.append((a, b))
        if models[0] is not None or models[1] is not None:    # a .tflite side: B's op too
            result.layers[a] = gb.node(b).op
        if a not in activations:
            result.constant.add(a)           # a weight or its read: never "first"
        elif not result.first and m["peak_rel_error"] > threshold:
            result.first = a
    return result
