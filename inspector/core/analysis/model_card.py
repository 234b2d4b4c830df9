"""The model card: what a model takes, gives and costs, in plain words for people who are not
specialists. Every figure is a Fact with its exact definition (the tooltip in the window, the
"definition" in --json), and comes from the same counts as the Summary and Preview panels
(parameters from summarize, FLOPs from count_flops, speeds from the device presets)."""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field

from inspector.core.analysis.flops import DEVICE_PRESETS
from inspector.core.model.graph import Graph, node_name_from_input
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
ENCODED_IMAGE_OPS = {"DecodeJpeg": "JPEG", "DecodePng": "PNG", "DecodeBmp": "BMP",
                     "DecodeImage": "image", "DecodeAndCropJpeg": "JPEG", "DecodeGif": "GIF"}


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


def _dims(shape: str) -> list | None:
    """[1,299,299,3] -> [1, 299, 299, 3] (None for unknown dims); None when not a shape."""
    text = shape.strip()
    if not (text.startswith("[") and text.endswith("]")):
        return None
    inner = text[1:-1].strip()
    if not inner:
        return []
    out = []
    for part in inner.split(","):
        part = part.strip()
        out.append(int(part) if part.lstrip("-").isdigit() and int(part) >= 0 else None)
    return out


def _size(h, w) -> str:
    return f"{h}x{w}" if h and w else "any-size"


def _picture_words(dims: list, dtype: str) -> str | None:
    """Plain words for an image-shaped input ([N,H,W,C] or [N,C,H,W]), else None."""
    if len(dims) == 4:
        n, a, b, c = dims
        if c in (1, 3, 4) and (a is None or a > 4):
            h, w, ch = a, b, c
        elif a in (1, 3, 4) and (c is None or c > 4):
            h, w, ch = b, c, a
        else:
            return None
    elif len(dims) == 3 and dims[-1] in (1, 3, 4) and (dims[0] is None or dims[0] > 4) \
            and (dims[0] is None) == (dims[1] is None):
        # [H,W,C]: both sides open or both known; [?,43844,1] is a batch of sequences
        # (basic-pitch's audio), not a picture of any height 43844 wide
        h, w, ch = dims
    else:
        return None
    kind = {1: "black-and-white picture", 3: "colour photo",
            4: "colour picture with transparency"}[ch]
    if dtype not in ("float", "uint8", "half", "double", "int32", "int8"):
        return None
    size = _size(h, w)
    return f"{_article(size)} {size} {kind}"


def describe_input(graph: Graph, name: str, dtype: str, shape: str) -> str:
    """What a person would hand this input, in plain words."""
    node = graph.get(node_name_from_input(name))
    if node is not None:
        for edge in graph.data_consumers(node.name):
            op = graph.node(edge.dst).op
            if op in ENCODED_IMAGE_OPS:
                return f"a {ENCODED_IMAGE_OPS[op]} file (any size: the model decodes and " \
                       "resizes it itself)"
            if op == "DecodeWav":
                return "a WAV sound recording (the model decodes it itself)"
    dims = _dims(shape)
    if dims is None:
        return f"numbers ({dtype or 'of unknown type'}, shape not recorded)"
    if dtype == "string":
        return "text" if not dims or dims == [1] else f"{_count(dims)} pieces of text"
    if dtype == "bool":
        return "a yes/no switch" if not dims else "yes/no values"
    picture = _picture_words(dims, dtype)
    if picture:
        return picture
    if not dims:
        return "a single number"
    body = dims[1:] if len(dims) > 1 and dims[0] in (None, 1) else dims
    if dtype in ("int32", "int64") and len(body) == 1:
        return f"a sequence of {_n(body[0])} word or token numbers"
    if len(body) == 1:
        return f"a list of {_n(body[0])} numbers"
    if len(body) == 2 and body[1] == 1:
        return f"a sequence of {_n(body[0])} numbers"    # one channel: a waveform, say
    if len(body) == 2:
        return f"a sequence of {_n(body[0])} steps, {_n(body[1])} numbers each"
    return f"a block of numbers shaped {shape}"


# ops that hand values on unchanged (only their layout): what is behind them is what comes out
_SAME_VALUES = frozenset({"Identity", "Reshape", "Squeeze", "ExpandDims", "StopGradient"})
# ops that read a vector as one score per category
_PICKS_A_CATEGORY = frozenset({"Softmax", "LogSoftmax", "ArgMax", "TopKV2", "InTopK",
                               "InTopKV2", "SparseSoftmaxCrossEntropyWithLogits",
                               "SoftmaxCrossEntropyWithLogits"})
_CATEGORY_NAME = re.compile(r"logit|class|categor|prob", re.IGNORECASE)


def _behind(graph: Graph, node):
    """The node whose values `node` hands on unchanged (through _SAME_VALUES), or itself."""
    for _ in range(8):
        if node.op not in _SAME_VALUES or not node.data_inputs:
            break
        source = graph.get(node.data_inputs[0].node)
        if source is None:
            break
        node = source
    return node


def _per_category(graph: Graph, node, k, class_count: int | None) -> bool:
    """Whether a vector of k values is one score per category: a labels file or class list
    of that length, a Softmax/ArgMax/TopK reading it, or a name that says so (logits,
    classes, probabilities)."""
    if class_count and k in (class_count, class_count + 1):
        return True
    seen, todo = set(), [node.name]
    while todo and len(seen) < 32:
        for edge in graph.data_consumers(todo.pop()):
            reader = graph.node(edge.dst)
            if reader.op in _PICKS_A_CATEGORY:
                return True
            if reader.op in _SAME_VALUES and reader.name not in seen:
                seen.add(reader.name)
                todo.append(reader.name)
    return any(_CATEGORY_NAME.search(n.name) for n in (node, _behind(graph, node)))


def describe_output(graph: Graph, name: str, dtype: str, shape: str,
                    class_count: int | None = None, batch: int | None = None) -> str:
    """What comes out, in plain words. A vector is called scores per category only where a
    softmax, a reader picking a category, a name or the model's class names (class_count)
    say so; else it is that many numbers. batch: the inputs' batch, when given above 1 (the
    first size of an output that equals it is that batch, as 1 or open is)."""
    node = graph.get(node_name_from_input(name))
    behind = _behind(graph, node).op if node is not None else ""
    dims = _dims(shape)
    if dims is None:
        return "numbers (their shape is known only when the model runs)"
    body = dims[1:] if len(dims) > 1 and dims[0] in (None, 1, batch) else dims
    if not body:
        return "a single number"
    if len(body) == 1:
        k = body[0]
        if behind == "Softmax":
            return f"{_n(k)} probabilities, one per category (they add up to 1)"
        if behind == "Sigmoid":
            return f"{_n(k)} independent yes/no scores between 0 and 1"
        if dtype in ("int32", "int64"):
            return f"{_n(k)} whole numbers (e.g. chosen categories)"
        if k == 1:
            return "one number"
        if node is not None and _per_category(graph, node, k, class_count):
            return f"{_n(k)} scores, one per category"
        return f"{_n(k)} numbers"
    if len(body) == 3 and body[0] and body[1] and body[0] > 4 and body[1] > 4:
        return f"a {body[0]}x{body[1]} map with {_n(body[2])} values per position " \
               "(e.g. a mask or feature map)"
    return f"a block of numbers shaped {shape}"


def _n(k) -> str:
    return "a variable number of" if k is None else f"{k:,}"


def _count(dims) -> str:
    total = 1
    for d in dims:
        if d is None:
            return "several"
        total *= d
    return f"{total:,}"


def _words(n: float) -> str:
    """12_300_000 -> '12.3 million' (plain words for big numbers)."""
    for size, word in ((1e12, "trillion"), (1e9, "billion"), (1e6, "million"),
                       (1e3, "thousand")):
        if n >= size:
            return f"{n / size:.3g} {word}"
    return f"{int(n):,}"


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
    shaped = [dims for dims in (_dims(s) for _, _, s in input_ports) if dims]
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
        Fact("learned numbers", f"{_words(params)} learned numbers", params,
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
            "arithmetic", f"{_words(flops.total)} arithmetic operations per input", flops.total,
            "FLOPs per run: floating-point operations, where one multiply and one add count "
            "as two (TF's convention, the same count as the Preview panel). Multiply-adds "
            f"(MACs) are about half: {_words(flops.total / 2)}." +
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


def _article(words: str) -> str:
    """'a' or 'an' before a size such as 8x8, 11x11, 224x224 or 'any-size'."""
    first = words.split("x")[0]
    spoken_vowel = first.startswith("8") or first in ("11", "18") or words.startswith("any")
    return "an" if spoken_vowel else "a"
