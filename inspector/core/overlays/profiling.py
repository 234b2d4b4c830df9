"""Profiling: run a graph in TensorFlow with tracing and aggregate per node, or import the
timings that benchmark_model printed on a phone or a Chrome trace, matched to graph nodes."""

from __future__ import annotations

import collections
import json
import re
from dataclasses import dataclass, field

from inspector.core.analysis.numeric_check import make_inputs
from inspector.core.errors import InspectorError
from inspector.core.loaders.files import read_text
from inspector.core.mobile.tflite_mapping import nodes_of
from inspector.core.model import safety
from inspector.core.model.graph import Graph
from inspector.core.model.humanize import count
from inspector.core.overlays.stat_summarizer import StatSummarizer
from inspector.core.runtime.executor import tensorflow
from inspector.core.runtime.job import NO_JOB, Job


@dataclass
class NodeTime:
    name: str
    type: str
    avg_ms: float
    first_ms: float = 0.0
    pct: float = 0.0
    mem_kb: float = 0.0
    times: int = 1                    # calls a run ("times called", rounded down)
    run_ms: float | None = None       # ms a run where known exactly (a run here: sum / runs)

    def per_run(self) -> float:
        """ms this node takes a run: avg_ms is a call's (a node in a loop runs many times).
        A run here knows it exactly, as StatSummarizer's "Summary by node type" counts it
        (all its calls' time / runs): a node that ran in 1 of 3 runs (a branch) counts a
        third of a call, not a whole one, and 2 calls in 3 runs not one."""
        return self.run_ms if self.run_ms is not None else self.avg_ms * max(self.times, 1)


@dataclass
class Profile:
    """Per-node timings (from a run in TF or an import) and what matched the graph."""

    nodes: dict                       # runtime name -> NodeTime
    source: str
    run_totals_us: list = field(default_factory=list)
    untraced_us: list = field(default_factory=list)
    text: str = ""                    # benchmark_model-format tables, when we ran it
    unmatched: list = field(default_factory=list)
    runtime_only: list = field(default_factory=list)   # _SOURCE, _arg_..., copies
    skipped_lines: int = 0            # lines that looked like table rows but did not parse
    notes: str = ""                   # which ports and sizes the window's run used

    def average_us(self, traced: bool = False) -> float | None:
        """A run's average time in us: its untraced runs' (benchmark_model's "no stats"
        average: what `profile` prints and the model card shows), or with `traced` its
        traced runs' (an imported log's runs); None without such runs."""
        runs = self.run_totals_us if traced else self.untraced_us
        return sum(runs) / len(runs) if runs else None

    def by_graph_node(self, graph: Graph) -> dict:
        """graph node name -> ms a run (runtime-only rows such as _SOURCE are left out): its
        average time a call times its calls a run (NodeTime.per_run), so a node inside a
        loop counts every iteration, as StatSummarizer's "Summary by node type" does. A
        fused kernel (TF's grappler fuses Conv2D + BiasAdd + Relu into one `_FusedConv2D` named
        after the Relu) is credited to the convolution or matmul it replaced."""
        out = {}
        for name, t in self.nodes.items():
            target = credited_node(graph, name.split(" [")[0], t.type)
            if target is not None:
                out[target] = out.get(target, 0.0) + t.per_run()
        return out

    def by_op_type(self, graph: Graph) -> dict:
        """Graph op type -> ms a run, its nodes' by_graph_node summed (runtime kernels such as
        _MklNativeConv2D mapped back to the op of their node; fused kernels to the op they
        fused)."""
        out: dict = {}
        for name, ms in self.by_graph_node(graph).items():
            kind = graph.node(name).op
            out[kind] = out.get(kind, 0.0) + ms
        for name, t in self.nodes.items():
            if credited_node(graph, name.split(" [")[0], t.type) is None and \
                    not RUNTIME_ONLY.match(name):
                out[t.type] = out.get(t.type, 0.0) + t.per_run()
        return dict(sorted(out.items(), key=lambda kv: -kv[1]))

    def match(self, graph: Graph) -> None:
        self.runtime_only = [n for n in self.nodes if RUNTIME_ONLY.match(n)]
        self.unmatched = [n for n, t in self.nodes.items() if not RUNTIME_ONLY.match(n) and
                          credited_node(graph, n.split(" [")[0], t.type) is None]

    def match_summary(self) -> str:
        """How the timed names matched the graph, in words (never "all matched" when some
        did not, or when lines could not be read)."""
        timed = len(self.nodes) - len(self.runtime_only)
        matched = timed - len(self.unmatched)
        parts = [f"{matched} of {timed} timed nodes matched the graph"]
        made = [n for n in self.unmatched if OPTIMIZER_MADE.search(n.split(" [")[0])]
        other = [n for n in self.unmatched if n not in set(made)]
        if made:
            kinds = "; ".join(words for mark, words in MADE_KINDS
                              if any(mark.search(n.split(" [")[0]) for n in made))
            one = len(made) == 1
            parts.append(f"{count(len(made), 'name')} {'is of a node' if one else 'are of nodes'}"
                         " TensorFlow's graph optimizer (grappler) made while it ran, so "
                         f"{'it is' if one else 'they are'} not in the file "
                         f"({kinds or 'its own rewrites'}); {'its' if one else 'their'} time "
                         f"counts in the op-type totals only: {_few(made)}")
        if other:
            verb = "matches" if len(other) == 1 else "match"
            parts.append(f"{count(len(other), 'name')} {verb} no node (a profile of another "
                         f"graph, or renamed nodes?): {_few(other)}")
        if self.runtime_only:
            parts.append(f"{len(self.runtime_only)} runtime-only rows (_SOURCE, copies) left "
                         "out")
        if self.skipped_lines:
            parts.append(f"{self.skipped_lines} table lines could not be read")
        return "; ".join(parts) + "."


def _few(names: list, most: int = 3) -> str:
    """The first names and how many more: ten grappler names of ~150 characters were ~40
    lines of the Overlays dock at 1366x768 (handtrack.js's SSD), the charts below them."""
    return ", ".join(names[:most]) + (f" and {len(names) - most} more" if len(names) > most
                                      else "")


# names grappler gives the nodes it adds (arithmetic optimizer, constant folding, layout and
# remapper passes): a profile of a run names them, the file never holds them
OPTIMIZER_MADE = re.compile(r"(/merged_input$|(^|/)ConstantFolding/|(^|/)ArithmeticOptimizer/|"
                            r"LayoutOptimizer|(^|/)Remapper|(^|/)DependencyOptimizer/|"
                            r"(^|/)LoopOptimizer/|AutoMixedPrecision|-folded(_\d+)?$|"
                            r"_MklInputConversion|/_const_axis$|/_\d+__cf__\d+$)")
# what each kind of name stands for, said beside the names found
MADE_KINDS = ((re.compile(r"/merged_input$"), "…/merged_input: a multiplication folded into a "
               "convolution's weights"),
              (re.compile(r"__cf__\d+$|(^|/)ConstantFolding/|-folded(_\d+)?$"),
               "…/_N__cf__N, ConstantFolding/…: values it computed once, before the run"),
              (re.compile(r"(^|/)ArithmeticOptimizer/"), "…/ArithmeticOptimizer/…: "
               "arithmetic it rewrote"))
RUNTIME_ONLY = re.compile(r"^(_SOURCE|_SINK|_arg_.*|_retval_.*|.*/_\d+)$")
FUSED = {"Conv2D": ("Conv2D",), "MatMul": ("MatMul",),
         "DepthwiseConv2dNative": ("DepthwiseConv2dNative",), "Conv3D": ("Conv3D",)}
_THROUGH = {"BiasAdd", "Relu", "Relu6", "Elu", "LeakyRelu", "Add", "AddV2", "FusedBatchNorm",
            "FusedBatchNormV3", "Sigmoid", "Tanh", "Identity", "Mul", "Maximum"}


def credited_node(graph: Graph, name: str, kernel: str) -> str | None:
    """The graph node a runtime row's time belongs to: the node itself, or for a kernel
    that computes a convolution or matmul under another node's name the convolution or
    matmul upstream of it: a fused kernel (`_FusedConv2D`, `_MklNativeFusedConv2D`,
    `_FusedMatMul`, ...) is named after the Relu it ends with, and oneDNN's remapper runs a
    convolution whose batch-norm `mul` it folded into the weights as `_MklNativeConv2D`
    named after that `…/batchnorm/mul_1` (walk17: mobilenet_v2's op-type chart said Mul
    9.6 ms and no Conv2D where TF's own node-type summary said _MklNativeConv2D 8.4 ms)."""
    node = graph.get(name)
    if node is None:
        return _tflite_node(graph, name)
    wanted = next((ops for key, ops in FUSED.items() if key in kernel), None)
    if wanted is None or node.op in wanted:
        return name
    seen = 0
    while node is not None and node.op in _THROUGH and node.data_inputs and seen < 6:
        ins = [graph.get(t.node) for t in node.data_inputs]
        hit = next((n for n in ins if n is not None and n.op in wanted), None)
        if hit is not None:
            return hit.name
        node = next((n for n in ins if n is not None and n.op in _THROUGH), None)
        seen += 1
    return name


_COMPUTE = {"Conv2D", "DepthwiseConv2dNative", "MatMul", "BatchMatMulV2", "Conv3D",
            "Conv2DBackpropInput"}


def _tflite_node(graph: Graph, name: str) -> str | None:
    """A TFLite profile row is named after its op's output tensor, "[relu;bn/add;conv]:3"
    (the fused GraphDef nodes, ';'-joined): its time goes to the convolution or matmul among
    them, else to the first node found."""
    inner = name[1:].rsplit("]", 1)[0] if name.startswith("[") else name
    if ";" not in inner and inner == name:
        return None
    found = nodes_of(inner, graph)
    if not found:
        return None
    return next((n for n in found if graph.node(n).op in _COMPUTE), found[0])


def from_summarizer(s: StatSummarizer, source: str) -> Profile:
    total = s.run_total.sum or 1
    nodes = {d.name: NodeTime(d.name, d.type, d.elapsed.avg() / 1000.0,
                              d.elapsed.first / 1000.0, d.elapsed.sum * 100.0 / total,
                              d.mem.newest / 1000.0, d.times_called // max(s.runs, 1),
                              d.elapsed.sum / max(s.runs, 1) / 1000.0)
             for d in s.details.values()}
    return Profile(nodes, source, text=s.text())


def input_node_defs(graph_def, inputs: list) -> list:
    """The NodeDefs of these inputs in `graph_def`, found by one walk of its nodes that stops
    once each is found (the inputs' Placeholders usually lead the file): no Graph is built
    (b691296 built one of the window's whole model on each Profile run, ~3.8 s at 1M nodes)."""
    wanted = {text.split(":")[0] for text in inputs}
    found = []
    for node in graph_def.node:
        if node.name in wanted:
            wanted.discard(node.name)
            found.append(node)
            if not wanted:
                break
    return found


def refuse_sizes_below_minus_one(node_defs) -> None:
    """TensorFlow's rule for a declared shape, before anything runs: a size below -1 (-1
    means unknown) is refused at import ('Shape [-5,3] has dimensions with values below
    -1'). The window profiles a stripped copy whose inputs carry the sizes it feeds, which
    TensorFlow took: it profiled [-5,3] as [?,3] where the command line was refused.
    `node_defs`: the inputs' NodeDefs in the graph as opened."""
    for proto in node_defs:
        if "shape" not in proto.attr:
            continue
        attr = proto.attr["shape"]
        if not attr.HasField("shape") or attr.shape.unknown_rank:
            continue
        sizes = [d.size for d in attr.shape.dim]
        if any(d < -1 for d in sizes):
            raise InspectorError(f"TensorFlow cannot import the graph: the input's shape "
                                 f"[{','.join(map(str, sizes))}] has sizes below -1 (where -1 "
                                 "means unknown)", node=proto.name)


def run_profile(graph_def, inputs: list, outputs: list, input_shapes=None, mode="random",
                seed=0, arrays=None, warmup=1, runs=10, intra=0, inter=1, allow_io=False,
                job: Job = NO_JOB, original=None) -> Profile:
    """Profile in TensorFlow: N warm-up runs, then M untraced and M traced runs. `original`:
    the graph `graph_def` was cut from (the window's stripped copy), held to TensorFlow's
    rules for its inputs' declared shapes as the command line's whole graph is."""
    from inspector.core.model.protos import step_stats_pb2

    for label, value, least in (("runs", runs, 1), ("warmup", warmup, 0), ("intra", intra, 0),
                                ("inter", inter, 0)):
        if int(value) < least:
            raise InspectorError(f"--{label} must be at least {least} (got {value})")
    graph = Graph(graph_def)
    refuse_sizes_below_minus_one(
        input_node_defs(original, inputs) if original is not None else
        [node.proto for node in map(graph.get, (t.split(":")[0] for t in inputs)) if node])
    safety.require_safe(graph_def, outputs, inputs, allow_io, action="profile it")
    feeds = make_inputs(graph, inputs, input_shapes or {}, mode, seed, arrays)
    plain, traced, stats = tensorflow().profile_runs(graph_def, feeds, outputs, warmup, runs, intra,
                                                  inter, input_shapes, job,
                                                  allow_unsafe=allow_io)
    s = StatSummarizer()
    for raw in stats:
        s.add_run(step_stats_pb2.StepStats.FromString(raw))
    prof = from_summarizer(s, f"TensorFlow, {runs} traced runs")
    prof.run_totals_us, prof.untraced_us = traced, plain
    prof.match(graph)
    return prof


_ROW = re.compile(r"\t\s*(?P<type>\S[^\t]*?)\t\s*(?P<first>[-\d.]+)\t\s*(?P<avg>[-\d.]+)\t\s*"
                  r"(?P<pct>[-\d.]+)%\t\s*(?P<cdf>[-\d.]+)%\t\s*(?P<mem>[-\d.]+)\t\s*"
                  r"(?P<times>\d+)\t(?P<name>.*)$")
_TITLE = re.compile(r"={10,} (?P<title>[^=]+?) ={10,}")


def parse_benchmark_output(text: str) -> Profile:
    """benchmark_model's tables, with or without log prefixes (glog, logcat), old (24) or new
    (40) type-column widths. Run Order rows are used; other tables fill in missing nodes."""
    nodes: dict = {}
    table = ""
    totals = []
    skipped = 0
    for line in text.splitlines():
        title = _TITLE.search(line)
        if title:
            table = title.group("title").strip()
            continue
        if "Timings (microseconds):" in line:
            m = re.search(r"avg=(\d+(?:\.\d*)?(?:e[+-]?\d+)?)", line)
            totals = [float(m.group(1))] if m else totals
        row = _ROW.search(line)
        if row is None and table == "Run Order" and line.count("\t") >= 6 and \
                "[node type]" not in line:
            skipped += 1
        if row is None or table == "Summary by node type":
            continue
        name = row.group("name").rstrip("\r")
        if name in nodes and table != "Run Order":
            continue
        try:
            nodes[name] = NodeTime(name, row.group("type").strip(), float(row.group("avg")),
                                   float(row.group("first")), float(row.group("pct")),
                                   float(row.group("mem")), int(row.group("times")))
        except ValueError:  # "1.2.3", "-": not a number, not a row
            continue
    if not nodes:
        raise InspectorError("no benchmark_model timing rows found (expected the tab-separated "
                             "'Run Order' table)")
    return Profile(nodes, "benchmark_model output", run_totals_us=totals, skipped_lines=skipped)


def _duration(value):
    """A trace event's duration in µs: a finite, non-negative number, else None."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        return None
    try:
        number = float(value)
    except (ValueError, OverflowError):       # a 400-digit JSON integer: not a duration
        return None
    return number if 0.0 <= number < 1e15 else None


def parse_chrome_trace(text: str) -> Profile:
    """A Chrome trace (TF's timeline format): complete events per node, averaged."""
    try:
        data = json.loads(text)
    except RecursionError:
        raise InspectorError("not a Chrome trace: JSON nested too deeply") from None
    except ValueError as exc:
        raise InspectorError(f"not a Chrome trace (JSON): {str(exc)[:100]}") from None
    events = data.get("traceEvents", data) if isinstance(data, dict) else data
    if not isinstance(events, list):
        raise InspectorError("not a Chrome trace: no traceEvents list")
    acc: dict = {}
    bad = 0
    for ev in events:
        if not isinstance(ev, dict) or ev.get("ph") != "X":
            continue
        args = ev.get("args") if isinstance(ev.get("args"), dict) else {}
        name = args.get("name") or ev.get("name")
        dur = _duration(ev.get("dur", 0.0))
        if not isinstance(name, str) or not name or dur is None:
            bad += 1
            continue
        op = args.get("op") if isinstance(args.get("op"), str) else ev.get("name", "")
        a = acc.setdefault(name, [op if isinstance(op, str) else "", 0.0, 0])
        a[1] += dur
        a[2] += 1
    if not acc:
        more = f" ({bad} events had no usable name or duration)" if bad else ""
        raise InspectorError(f"the Chrome trace has no complete ('X') events{more}")
    total = sum(v[1] for v in acc.values()) or 1.0
    runs = _runs_in([v[2] for v in acc.values()])
    nodes = {n: NodeTime(n, op, dur / count / 1000.0, 0.0, 100.0 * dur / total, 0.0,
                         count // runs or 1)
             for n, (op, dur, count) in acc.items()}
    return Profile(nodes, "Chrome trace")


def _runs_in(counts: list) -> int:
    """How many runs a trace holds, from each node's event count: a trace says no run
    boundaries, but most nodes run once a run, so the commonest count is the run count (the
    largest count is a loop's calls: a loop of 5 in one run is not 5 runs); ties go to the
    smaller count."""
    tally = collections.Counter(counts)
    return max(min(tally, key=lambda c: (-tally[c], c)), 1)


def load_profile_file(path: str) -> Profile:
    text = read_text(path, what="the timing file", error=InspectorError)
    try:
        if text.lstrip().startswith(("{", "[")):
            return parse_chrome_trace(text)
        return parse_benchmark_output(text)
    except InspectorError as exc:
        raise InspectorError(exc.message, path=path) from None


