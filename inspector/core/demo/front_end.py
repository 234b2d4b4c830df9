"""What a model expects to be fed, for demo runs: encoded photo bytes for a graph that decodes
itself, pixels for an image placeholder, WAV bytes for a speech graph, or a plain array; the
size, and the value range its first layer sees (read from the graph's own Sub/Mul front end
when there is one, else assumed from a small menu of conventions and said so)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from inspector.core.analysis.preprocessing import DECODERS, _const_value, find_preprocessing_chains
from inspector.core.analysis.summary import dtype_of
from inspector.core.errors import InspectorError
from inspector.core.model.graph import Graph, node_name_from_input
from inspector.core.runtime.lazy_import import later

np = later("numpy", globals(), "np")     # not imported before the app's first picture


@dataclass(frozen=True)
class Convention:
    """How pixel values 0..255 become the numbers the model sees: x * scale + offset, per
    channel (after swapping RGB to BGR when `bgr`)."""

    key: str
    label: str
    scale: tuple
    offset: tuple
    bgr: bool = False

    def apply(self, pixels: np.ndarray) -> np.ndarray:
        x = pixels.astype(np.float32)
        if self.bgr and x.shape[-1] == 3:
            x = x[..., ::-1]
        channels = x.shape[-1]
        scale = np.asarray(self.scale[:channels] if len(self.scale) > 1 else self.scale,
                           np.float32)
        offset = np.asarray(self.offset[:channels] if len(self.offset) > 1 else self.offset,
                            np.float32)
        return x * scale + offset

    @property
    def range(self) -> tuple:
        """The smallest and largest value pixels 0..255 become."""
        ends = self.apply(np.array([[0.0] * 3, [255.0] * 3], np.float32))
        return float(ends.min()), float(ends.max())


_MEAN, _STD = (0.485, 0.456, 0.406), (0.229, 0.224, 0.225)
CONVENTIONS = {
    "0_1": Convention("0_1", "[0, 1]: pixel / 255", (1 / 255.0,), (0.0,)),
    "-1_1": Convention("-1_1", "[-1, 1]: pixel / 127.5 - 1", (1 / 127.5,), (-1.0,)),
    "0_255": Convention("0_255", "[0, 255]: pixels as they are", (1.0,), (0.0,)),
    "imagenet": Convention("imagenet", "mean/std: (pixel / 255 - ImageNet mean) / std",
                           tuple(1 / (255.0 * s) for s in _STD),
                           tuple(-m / s for m, s in zip(_MEAN, _STD))),
    "caffe": Convention("caffe", "Caffe: BGR pixels minus the ImageNet mean",
                        (1.0, 1.0, 1.0), (-103.939, -116.779, -123.68), bgr=True),
}
# model-family words in node names -> the convention their published versions use
_FAMILIES = (("mobilenet", "-1_1"), ("inception", "-1_1"), ("xception", "-1_1"),
             ("nasnet", "-1_1"), ("resnet", "caffe"), ("vgg", "caffe"),
             ("densenet", "imagenet"))
_KEEPS_RANGE = {"Cast", "Identity", "ExpandDims", "Squeeze", "Reshape"}
_SCALING = {"Sub", "Mul", "RealDiv", "Div", "Add", "AddV2", "Cast", "Identity"}
DEFAULT_SIZE = 224
DEFAULT_RATE = 16000


@dataclass
class FrontEnd:
    """How to feed the model. `feed_format`: an encoded photo format the graph decodes
    ('jpeg', 'png', 'bmp', 'gif', 'image'), 'wav', 'pixels', 'samples' or 'array'."""

    kind: str                   # "image", "audio" or "array"
    feed: str                   # the tensor fed
    feed_format: str
    feed_dtype: str = "float"
    sees: str = ""              # the tensor that is "what the model sees"
    height: int = 0
    width: int = 0
    channels: int = 3
    layout: str = "NHWC"
    rank: int = 4
    convention: str = ""        # a CONVENTIONS key the presenter's pixels go through
    range: tuple = (0.0, 1.0)   # values the first layer expects
    range_how: str = ""         # plain words: detected from the graph, or assumed
    detected: bool = False      # the range came from the graph itself
    rate: int = 0               # sound: samples per second expected
    samples: int = 0            # sound: samples per run (0: any)
    dims: tuple = ()            # the fed tensor's declared dimensions (None: any)
    notes: list = field(default_factory=list)

    def describe(self) -> str:
        if self.kind == "image":
            colour = "colour" if self.channels == 3 else "black-and-white"
            size = f"{self.width}x{self.height} " if self.width else ""
            return f"a {size}{colour} photo, values in [{_num(self.range[0])}, " \
                   f"{_num(self.range[1])}] ({self.range_how})"
        if self.kind == "audio":
            secs = f"{self.samples / self.rate:g} s of " if self.samples and self.rate else ""
            return f"{secs}sound at {self.rate:,} samples per second"
        return f"an array for {self.feed}"


def _num(v: float) -> str:
    return f"{v:g}"


def _tensor(name: str) -> str:
    return name if ":" in name else f"{name}:0"


def _node_range(graph: Graph, chain: list, lo: float, hi: float):
    """Apply a chain of elementwise ops with constant operands to [lo, hi]; None if one of
    them is not simple arithmetic on a scalar or per-channel constant."""
    lo_v, hi_v = np.array([lo], np.float64), np.array([hi], np.float64)
    for name, via in chain:
        node = graph.get(name)
        if node.op in _KEEPS_RANGE or node.op.startswith("Resize"):
            continue
        others = [i for i in node.data_inputs if i.node != via]
        if len(others) != 1:
            return None
        value = _const_value(graph, others[0].node)
        if value is None or value.size > 4:
            return None
        c = value.astype(np.float64).reshape(-1)
        first = node.data_inputs[0].node == via
        if node.op == "Sub":
            lo_v, hi_v = (lo_v - c, hi_v - c) if first else (c - hi_v, c - lo_v)
        elif node.op in ("Add", "AddV2"):
            lo_v, hi_v = lo_v + c, hi_v + c
        elif node.op == "Mul":
            lo_v, hi_v = np.minimum(lo_v * c, hi_v * c), np.maximum(lo_v * c, hi_v * c)
        elif node.op in ("RealDiv", "Div") and first and np.all(c != 0):
            lo_v, hi_v = np.minimum(lo_v / c, hi_v / c), np.maximum(lo_v / c, hi_v / c)
        else:
            return None
    return float(lo_v.min()), float(hi_v.max())


def _scaling_chain(graph: Graph, start: str) -> list:
    """The Sub/Mul/Div/Add ops right after `start` that only rescale it: [(node, via)]."""
    chain, cur = [], start
    while len(chain) < 8:
        consumers = graph.data_consumers(cur)
        if len(consumers) != 1:
            break
        nxt = graph.get(consumers[0].dst)
        if nxt is None or nxt.op not in _SCALING:
            break
        if any(i.node != cur and _const_value(graph, i.node) is None for i in nxt.data_inputs):
            break
        chain.append((nxt.name, cur))
        cur = nxt.name
    return chain


def _dims(graph: Graph, name: str, shapes: dict | None):
    node = graph.get(name)
    declared = node.attr("shape") if node is not None else None
    if declared is not None and getattr(declared, "dims", None) is not None:
        return tuple(declared.dims)
    known = (shapes or {}).get(name)
    if known and all(isinstance(d, int) for d in known):   # given input shapes: {name: dims}
        return tuple(known)
    if known and known[0] is not None:                     # inferred: {name: [dims per output]}
        return tuple(known[0])
    return None


def _audio(graph: Graph) -> FrontEnd | None:
    nodes = graph.nodes       # views of the DecodeWav and Mfcc nodes only (the op column)
    for node in map(nodes.__getitem__, graph.nodes_of_op("DecodeWav")):
        if not node.data_inputs:
            continue
        source = graph.get(node.data_inputs[0].node)
        if source is None or source.op not in ("Placeholder", "PlaceholderWithDefault"):
            continue
        sees = node.name
        for edge in graph.data_consumers(node.name):
            if graph.node(edge.dst).op in ("AudioSpectrogram", "Mfcc"):
                sees = edge.dst
                break
        rate, how = DEFAULT_RATE, "assumed: speech models use 16 kHz"
        for n in map(nodes.__getitem__, graph.nodes_of_op("Mfcc")):
            if len(n.data_inputs) > 1:
                value = _const_value(graph, n.data_inputs[1].node)
                if value is not None and value.size == 1 and 0 < value.reshape(-1)[0] < 1e7:
                    rate, how = int(value.reshape(-1)[0]), "from the graph"
        samples = int(node.attr("desired_samples", -1) or -1)
        return FrontEnd("audio", _tensor(source.name), "wav", "string", _tensor(sees),
                        channels=int(node.attr("desired_channels", -1) or 1), rank=0,
                        rate=rate, samples=max(samples, 0), range=(-1.0, 1.0),
                        range_how=f"sample rate {how}", detected=True)
    return None


def _decoding_chain(graph: Graph, chains: list) -> FrontEnd | None:
    for chain in chains:
        source = graph.get(chain.source)
        if source is None or source.op not in ("Placeholder", "PlaceholderWithDefault"):
            continue
        decoder = graph.node(chain.nodes[0])
        dims = tuple(None if d == "?" else int(d)
                     for d in chain.feed_shape.strip("[]").split(",") if d) \
            if chain.feed_shape.startswith("[") else ()
        links = list(zip(chain.nodes[1:], chain.nodes[:-1]))
        rng = _node_range(graph, links, 0.0, 255.0)
        fe = FrontEnd("image", _tensor(source.name), DECODERS[decoder.op].lower()
                      if decoder.op != "DecodeImage" else "image", "string",
                      _tensor(chain.feed), channels=int(decoder.attr("channels", 0) or 3),
                      rank=0, detected=rng is not None)
        if len(dims) == 4:
            fe.height, fe.width = dims[1] or 0, dims[2] or 0
        if rng is not None:
            fe.range = rng
            fe.range_how = "detected from the graph's own " + " and ".join(
                dict.fromkeys(graph.node(n).op for n, _ in links
                              if graph.node(n).op not in ("Cast", "Identity", "ExpandDims")
                              and not graph.node(n).op.startswith("Resize"))) + " steps"
        else:
            fe.range, fe.range_how = (0.0, 255.0), "assumed: the decoder's pixels"
        return fe
    return None


def family_convention(graph: Graph) -> tuple[str, str]:
    """The convention a model family's published versions use, judged by its node names."""
    sample = " ".join(name.lower() for name in graph.name_list[:400])
    for word, key in _FAMILIES:
        if word in sample:
            return key, f"assumed: {word} models usually take {CONVENTIONS[key].label}"
    return "0_1", "assumed: the most common convention; change it if the answers look wrong"


def _pixels(graph: Graph, feed: str, shapes: dict | None) -> FrontEnd | None:
    name = node_name_from_input(feed)
    node = graph.get(name)
    if node is None:
        return None
    dims = _dims(graph, name, shapes)
    dtype = dtype_of(node) or "float"
    if dims is None or len(dims) not in (3, 4) or dtype not in ("float", "half", "double",
                                                                "uint8", "int32"):
        return None
    image_dims = dims[-3:]
    if len(dims) == 3 and (image_dims[0] is None) != (image_dims[1] is None):
        return None   # [?,43844,1] (basic-pitch's audio), [?,1024,3] points: a batch of rows
    layout = "NHWC"
    if image_dims[-1] not in (1, 3, 4) and image_dims[0] in (1, 3):
        layout = "NCHW"
        channels, height, width = image_dims
    elif image_dims[-1] in (1, 3, 4, None):
        height, width, channels = image_dims
    else:
        return None
    fe = FrontEnd("image", _tensor(feed), "pixels", dtype, _tensor(feed),
                  height=height or DEFAULT_SIZE, width=width or DEFAULT_SIZE,
                  channels=channels or 3, layout=layout, rank=len(dims), dims=tuple(dims))
    if height is None or width is None:
        fe.notes.append(f"the input accepts any size; {fe.width}x{fe.height} assumed")
    chain = _scaling_chain(graph, name)
    rng = _node_range(graph, chain, 0.0, 255.0) if chain else None
    if dtype == "uint8" or rng is not None:
        fe.convention = "0_255"
        fe.range = rng if rng is not None else (0.0, 255.0)
        fe.detected = True
        fe.range_how = ("detected from the graph's own " + " and ".join(
            dict.fromkeys(graph.node(n).op for n, _ in chain if graph.node(n).op
                          not in ("Cast", "Identity"))) + " steps") if rng is not None \
            else "the model takes 8-bit pixels"
        if rng is not None:
            fe.sees = _tensor(chain[-1][0])
    else:
        fe.convention, fe.range_how = family_convention(graph)
        fe.range = CONVENTIONS[fe.convention].range
    return fe


def detect(graph: Graph, inputs: list, shapes: dict | None = None) -> FrontEnd | None:
    """How to feed this graph a photo, sound or array. `inputs`: tensor names to feed in
    order of preference (marks first, then the ranked suggestions); a graph that decodes
    its own JPEG or WAV is fed the file's bytes."""
    audio = _audio(graph)
    if audio is not None:
        return audio
    chosen = {node_name_from_input(i) for i in inputs}
    chains = find_preprocessing_chains(graph)
    decoding = _decoding_chain(graph, [c for c in chains if not chosen or c.source in chosen
                                       or c.feed in chosen])
    if decoding is not None:
        return decoding
    for feed in inputs:
        fe = _pixels(graph, feed, shapes)
        if fe is not None:
            return fe
    if inputs:
        node = graph.get(node_name_from_input(inputs[0]))
        dtype = dtype_of(node) if node is not None else "float"
        dims = tuple(_dims(graph, node_name_from_input(inputs[0]), shapes) or ())
        return FrontEnd("array", _tensor(inputs[0]), "array", dtype or "float",
                        _tensor(inputs[0]), rank=len(dims), dims=dims)
    return None


MAX_FEED_ELEMENTS = 50_000_000   # 200 MB of float: far past any photo a model takes


def check_size(fe: FrontEnd) -> None:
    """Refuse a declared input size no demo input could fill, before anything allocates."""
    elements = fe.height * fe.width * max(fe.channels, 1) if fe.kind == "image" else 0
    if fe.kind == "audio":
        elements = fe.samples * max(fe.channels, 1)
    if elements > MAX_FEED_ELEMENTS or fe.height > 65_536 or fe.width > 65_536:
        raise InspectorError(f"the input declares {fe.width}x{fe.height}x{fe.channels} "
                             f"values ({elements:,}), more than a demo run feeds "
                             f"({MAX_FEED_ELEMENTS:,})", node=fe.feed.split(":")[0])


def with_convention(fe: FrontEnd, key: str) -> FrontEnd:
    """The presenter's choice from the menu replaces an assumed (or detected) convention."""
    if fe.feed_format != "pixels" or key not in CONVENTIONS:
        return fe
    conv = CONVENTIONS[key]
    how = f"chosen by the presenter: {conv.label}"
    if fe.detected and fe.sees != fe.feed:   # the graph rescales: it still expects its range
        return replace(fe, convention=key, range_how=fe.range_how + "; pixels fed as " +
                       conv.label)
    return replace(fe, convention=key, range=conv.range, detected=False, range_how=how,
                   sees=fe.feed)
