"""The model card: what a model takes, gives and costs, in plain words for people who are not
specialists. Every figure is a Fact with its exact definition (the tooltip in the window, the
"definition" in --json), and comes from the same counts as the Summary and Preview panels
(parameters from summarize, FLOPs from count_flops, speeds from the device presets)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from inspector.core.analysis.flops import DEVICE_PRESETS
from inspector.core.analysis.port_words import (
    describe_input,
    describe_output,
    in_words,
    parsed_dims,
)
from inspector.core.model.graph import Graph
from inspector.core.model.humanize import human_bytes
from inspector.core.model.parameters import LEARNED_DEFINITION, learned_elements
from inspector.core.model.tensors import format_shape

# What counts as a "layer" on the card: the ops that do a network's learned computation
# (convolutions and matrix multiplications, fused or not; TFLite's builtins too) and the
# pooling steps between them.
# Activations, normalisation, additions and reshapes belong to the layer they follow.
LAYER_OPS = {
    "convolution": frozenset({"Conv2D", "Conv3D", "DepthwiseConv2dNative", "Conv2DBackpropInput",
                              "_FusedConv2D", "FusedDepthwiseConv2dNative", "Conv1D",
                              "CONV_2D", "DEPTHWISE_CONV_2D", "CONV_3D", "TRANSPOSE_CONV"}),
    "matrix multiplication": frozenset({"MatMul", "BatchMatMul", "BatchMatMulV2",
                                        "BatchMatMulV3", "_FusedMatMul", "Einsum",
                                        "FULLY_CONNECTED", "BATCH_MATMUL"}),
    "pooling": frozenset({"MaxPool", "MaxPoolV2", "AvgPool", "MaxPool3D", "AvgPool3D",
                          "MAX_POOL_2D", "AVERAGE_POOL_2D", "L2_POOL_2D"}),
}
LAYER_NOUNS = {"pooling": "pooling step"}     # the kind's noun where "+s" is not its plural
SHOWN = 4       # ports described on the card; more are named in one line (ModelCard.more_*)
LAYER_DEFINITION = ("Layers: steps that do the model's learned computation: convolutions, "
                    "matrix multiplications (fully connected layers) and pooling. Activations, "
                    "normalisation, additions and reshaping are counted with the layer they "
                    "follow.")
DEVICE_NAMES = {"phone-2016": "2016 high-end phone", "phone": "typical phone",
                "raspberry-pi-3": "Raspberry Pi 3"}


@dataclass
class Fact:
    """One figure on the card: the words shown, the number behind them, and its definition."""

    label: str
    text: str
    value: float | int | None
    definition: str
    measured: bool = False


@dataclass
class Port:
    """A model input or output described in plain words."""

    name: str
    dtype: str
    shape: str
    plain: str
    label: str = ""     # the signature's own name for it ("contour"), if any

    @property
    def title(self) -> str:
        """'contour (Identity:0)' for a signature's tensor; else the tensor's name."""
        return f"{self.label} ({self.name})" if self.label else self.name


@dataclass
class ModelCard:
    title: str
    inputs: list
    outputs: list
    facts: list = field(default_factory=list)
    layer_kinds: dict = field(default_factory=dict)   # "convolution" -> count
    assumed: list = field(default_factory=list)   # sizes the graph leaves open, as counted
    more_inputs: list = field(default_factory=list)    # names of equal ports not described
    more_outputs: list = field(default_factory=list)   # (past SHOWN: the card has no room)

    def more_text(self, inputs: bool) -> str:
        """'and 4 more outputs: Identity_1, ...' for the ports past SHOWN ('' when none)."""
        more = self.more_inputs if inputs else self.more_outputs
        if not more:
            return ""
        names = ", ".join(more[:8]) + (", ..." if len(more) > 8 else "")
        return f"and {len(more)} more {'input' if inputs else 'output'}" + \
            f"{'s' if len(more) > 1 else ''}: {names}"

    def layers_text(self) -> str:
        """'123 convolutions, 1 matrix multiplication, 4 pooling steps' (both front ends)."""
        nouns = ((n, LAYER_NOUNS.get(k, k)) for k, n in self.layer_kinds.items())
        return ", ".join(f"{n:,} {noun}{'' if n == 1 else 's'}" for n, noun in nouns)

    def fact(self, label: str) -> Fact | None:
        return next((f for f in self.facts if f.label == label), None)

    def as_dict(self) -> dict:
        return asdict(self)


def count_layers(graph: Graph) -> dict:
    """{kind: nodes} of the graph's layers (see LAYER_OPS), kinds without any left out."""
    counts = graph.op_counts()
    out = {}
    for kind, ops in LAYER_OPS.items():
        n = sum(counts.get(op, 0) for op in ops)
        if n:
            out[kind] = n
    return out


def build_card(graph: Graph, summary, title: str = "", flops=None,
               measured_ms: float | None = None, input_ports=None, output_ports=None,
               class_count: int | None = None) -> ModelCard:
    """The card of a graph from its summary (inputs, outputs, parameters) and, when known, its
    FLOP report and a measured time per run (ms, from a loaded timing log or profile).
    input_ports/output_ports: (name, dtype, shape) to describe instead of the summary's top
    candidates (the user's marks, with inferred shapes). class_count: how many class names
    come with the model (its labels), if any."""
    if input_ports is None or output_ports is None:
        found_in, found_out = ports_with_shapes(summary, None)
        input_ports = found_in if input_ports is None else input_ports
        output_ports = found_out if output_ports is None else output_ports
    labels = {c.name.removesuffix(":0"): c.label for c in summary.inputs + summary.outputs
              if c.label and c.label != c.name}
    inputs = [Port(n, d, s, describe_input(graph, n, d, s), labels.get(n.removesuffix(":0"), ""))
              for n, d, s in input_ports]
    shaped = [dims for dims in (parsed_dims(s) for _, _, s in input_ports) if dims]
    firsts = {dims[0] for dims in shaped}    # (every input's, one size: a batch; not where
    batch = firsts.pop() if len(firsts) == 1 and all(len(d) > 1 for d in shaped) else None
    #                     an input is rank 1: its size is its length, [16] token ids)
    outputs = [Port(n, d, s, describe_output(graph, n, d, s, class_count, batch),
                    labels.get(n.removesuffix(":0"), "")) for n, d, s in output_ports]
    layers = count_layers(graph)
    params = learned_elements(graph)
    facts = [
        Fact("layers", f"{sum(layers.values()):,} layers", sum(layers.values()),
             LAYER_DEFINITION),
        Fact("learned numbers", f"{in_words(params)} learned numbers", params,
             f"Learned numbers (parameters), the values training set: {LEARNED_DEFINITION}. "
             "The Summary panel's parameters are TF summarize_graph's count, every "
             "constant's elements."),
        Fact("size as float", f"{human_bytes(params * 4)} as 32-bit floats", params * 4,
             "Size of the learned numbers at 4 bytes each (float32), without the graph "
             "structure."),
        Fact("size as 8-bit", f"{human_bytes(params)} as 8-bit numbers", params,
             "Size of the learned numbers at 1 byte each, as after 8-bit quantization."),
    ]
    if flops is not None and not flops.unknown:
        facts.append(Fact(
            "arithmetic", f"{in_words(flops.total)} arithmetic operations per input", flops.total,
            "FLOPs per run: floating-point operations, where one multiply and one add count "
            "as two (TF's convention, the same count as the Preview panel). Multiply-adds "
            f"(MACs) are about half: {in_words(flops.total / 2)}." +
            (f" Counted from {flops.source}." if flops.source else "")))
        for key, rate in DEVICE_PRESETS.items():
            ms = 1000.0 * flops.total / rate
            facts.append(Fact(
                f"speed on {DEVICE_NAMES[key]}",       # (not "about under 0.01 ms")
                ("about " if ms >= 0.01 else "") + f"{_ms(ms)} on a {DEVICE_NAMES[key]}",
                ms, f"Estimate: FLOPs ÷ {rate / 1e9:g} GFLOP/s, the sustained speed the TF "
                    f"mobile guide gives for a {DEVICE_NAMES[key]}. Real speed also depends on "
                    "memory traffic and the library used."))
    elif flops is not None:
        facts.append(Fact("arithmetic", "arithmetic per input: unknown", None,
                          f"FLOPs could not be counted: {flops.unknown}"))
    if measured_ms is not None:
        facts.append(Fact("measured time", f"{_ms(measured_ms)} per run (measured)", measured_ms,
                          "Measured: the average time of one run in the loaded timing log or "
                          "profile, on the machine that recorded it.", measured=True))
    # a batch of 1 is what "per input" says; other open sizes change every figure: said
    assumed = [a for a in (flops.assumed if flops is not None and not flops.unknown else [])
               if not a.startswith("batch ")]
    return ModelCard(title, inputs, outputs, facts, layers, assumed)


def ports_with_shapes(summary, shapes: dict | None, declared: frozenset = frozenset(),
                      open_outputs: dict | None = None,
                      batch_open: bool = False) -> tuple[list, list]:
    """(inputs, outputs) as (name, dtype, shape) of the summary's top candidates, with shapes
    TF inferred where the graph does not record them; the inputs named in `declared` keep
    the shape the graph gives them (their inferred shape is only the size assumed to count:
    an any-size photo is not a 1x1 one), and outputs in `open_outputs` take its shapes (the
    sizes those open inputs leave open, not the counted ones). `batch_open`: only a batch was
    assumed to count, so an output whose rank the summary knows keeps its open sizes (fer's
    Keras file: [?,7] as Keras's (None, 7) and the summary, not the counted [1,7] beside the
    input's [?,64,64,1])."""
    def port(c, keep=False):
        shape = c.shape
        if not keep and batch_open and shape.startswith("["):
            return c.name, c.dtype, shape
        name, _, port_text = c.name.partition(":")
        known = None if keep and name in declared else \
            (open_outputs or {}).get(name) if not keep and name in (open_outputs or {}) else \
            (shapes or {}).get(name)
        index = int(port_text) if port_text.isdigit() else 0
        if known and index < len(known) and (not shape or "?" in shape or "unknown" in shape):
            shape = format_shape(known[index])
        return c.name, c.dtype, shape

    return [port(c, True) for c in _best(summary.inputs)], \
        [port(c) for c in _best(summary.outputs)]


def _best(candidates: list) -> list:
    """The candidates sharing the top score (at most SHOWN); candidates come sorted by score."""
    return _top(candidates)[:SHOWN]


def _top(candidates: list) -> list:
    return [c for c in candidates if c.score == candidates[0].score] if candidates else []


def left_out(summary) -> tuple[list, list]:
    """(inputs, outputs): the names of the top candidates past the SHOWN the card describes,
    so that the card says they exist (the TF.js SSD detector's 8 signature outputs read as 4)."""
    return ([c.name for c in _top(summary.inputs)[SHOWN:]],
            [c.name for c in _top(summary.outputs)[SHOWN:]])


def _ms(ms: float) -> str:
    if ms >= 1000:
        return f"{ms / 1000:.1f} s"
    if ms < 0.01:
        return "under 0.01 ms"
    if ms < 1:
        return f"{ms:.2f} ms"
    return f"{ms:.1f} ms" if ms < 10 else f"{ms:.0f} ms"
