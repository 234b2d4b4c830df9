"""The input sizes Keras would build a Keras file's variables with, read from the config before
Keras builds anything: a Dense's kernel is [input width, units], a convolution's is [..., input
channels, filters], a normalisation's scale is [channels], a PReLU's alpha is the whole input
shape. A file declaring a 2**26-wide input into Dense(10) over a stored 144x10 kernel would have
Keras allocate 2.7 GB before it finds the weights do not fit.

Each layer's input shape comes from its `build_config` (Keras builds from it), from the shapes
Keras 3 wrote for a call's inputs, and from the declared inputs carried through the layers whose
output shape this module knows (the common ones); a layer after one it does not know is checked
only from what the file wrote for it. No Keras class is looked up and nothing is run."""

from __future__ import annotations

import math

from inspector.core.loaders.keras_layers import LayerGraph, _dim
from inspector.core.loaders.keras_weights import ELEMENT_FLOOR, declared_elements

# classes whose variables take the input's channel axis (`axis` for the normalisations)
_CHANNEL = frozenset({
    "Dense", "Conv1D", "Conv2D", "Conv3D", "Conv1DTranspose", "Conv2DTranspose",
    "Conv3DTranspose", "DepthwiseConv1D", "DepthwiseConv2D", "SeparableConv1D", "SeparableConv2D",
    "LSTM", "GRU", "SimpleRNN", "ConvLSTM1D", "ConvLSTM2D", "ConvLSTM3D", "MultiHeadAttention",
    "BatchNormalization", "LayerNormalization", "GroupNormalization", "EinsumDense",
    "TimeDistributed", "Bidirectional", "RNN"})
_WHOLE = frozenset({"PReLU"})       # alpha: the input's shape without the batch
_SAME = frozenset({
    "Activation", "Dropout", "SpatialDropout1D", "SpatialDropout2D", "SpatialDropout3D",
    "GaussianNoise", "GaussianDropout", "AlphaDropout", "BatchNormalization",
    "LayerNormalization", "GroupNormalization", "UnitNormalization", "ReLU", "LeakyReLU", "ELU",
    "Softmax", "PReLU", "ActivityRegularization", "Masking", "Identity", "Rescaling",
    "Normalization", "Add", "Subtract", "Multiply", "Average", "Maximum", "Minimum"})
MAX_LAYERS = 200_000


def wide_input(layers: LayerGraph, largest: int, floor: int,
               largest_elements: int | None = None) -> tuple | None:
    """(layer, size, None) of the first layer whose variables Keras would size from an input
    dimension larger than every stored weight's dimensions and than `floor`; with
    `largest_elements`, (layer, size, elements) of the first whose input channels times its
    size fields (Conv2D: kernel_size x filters) make more elements than the largest stored
    weight and ELEMENT_FLOOR (each size under the floor, 1024 channels into Conv2D(1024,
    [64, 64]) is a 16 GB kernel); None when there is neither."""
    limit = max(largest, floor)
    most = None if largest_elements is None else max(largest_elements, ELEMENT_FLOOR)
    owner = {}
    for (_, name), (nodes, cls, conf) in layers.layer_nodes.items():
        for node in nodes:
            owner[node] = (str(name), cls, conf if isinstance(conf, dict) else {})
    known: dict = {}        # node name -> its output shape (list, -1 for unknown sizes)
    for count, node in enumerate(layers.gd.node):
        if count > MAX_LAYERS:
            break
        if node.op == "Placeholder":
            dims = node.attr["shape"].shape.dim
            known[node.name] = [d.size for d in dims] if node.attr["shape"].HasField("shape") \
                else None
            continue
        if node.name not in owner:
            continue
        name, cls, conf = owner[node.name]
        ins = [known.get(i.partition(":")[0].lstrip("^")) for i in node.input]
        ins = [s for s in ins if isinstance(s, list)]
        inner, inner_conf = _wrapped(cls, conf)
        for shape in ins + _written(layers, node) + _built(conf):
            size = _variable_size(inner or cls, inner_conf if inner else conf, shape)
            if size > limit:
                return name, size, None
            elements = size * declared_elements(inner_conf if inner else conf) if size > 0 \
                and most is not None else 0
            if most is not None and elements > most:
                return name, size, elements
        if len(ins) != len([i for i in node.input if not i.startswith("^")]):
            known[node.name] = None         # an input of unknown shape
        elif cls == "Concatenate":
            known[node.name] = _joined(conf, ins)
        else:
            known[node.name] = _output(cls, conf, ins[0]) if len(ins) == 1 else \
                (ins[0] if ins and cls in _SAME else None)
    return None


def _wrapped(cls: str, conf: dict) -> tuple:
    """The layer class and config inside TimeDistributed / Bidirectional, or (None, None)."""
    inner = conf.get("layer")
    if cls in ("TimeDistributed", "Bidirectional") and isinstance(inner, dict):
        inner_conf = inner.get("config")
        return str(inner.get("class_name") or ""), \
            inner_conf if isinstance(inner_conf, dict) else {}
    return None, None


def _written(layers: LayerGraph, node) -> list:
    """The shapes Keras 3 wrote for this call's inputs (kept as the inputs' _output_shapes)."""
    found = []
    by_name = getattr(layers, "_by_name", None)
    if by_name is None:
        by_name = layers._by_name = {n.name: n for n in layers.gd.node}
    for ref in node.input:
        name, _, port = ref.partition(":")
        source = by_name.get(name)
        if source is None or "_output_shapes" not in source.attr:
            continue
        shapes = source.attr["_output_shapes"].list.shape
        port = int(port) if port.isdigit() else 0
        if port < len(shapes) and not shapes[port].unknown_rank:
            found.append([d.size for d in shapes[port].dim])
    return found


def _built(conf: dict) -> list:
    """The input shape(s) in the layer's build_config: Keras builds the layer from them."""
    build = conf.get("build_config")
    shape = build.get("input_shape") if isinstance(build, dict) else None
    if not isinstance(shape, (list, dict)):
        return []
    values = list(shape.values()) if isinstance(shape, dict) else \
        (shape if shape and isinstance(shape[0], (list, dict)) else [shape])
    out = []
    for value in values[:64]:
        if isinstance(value, dict):
            value = value.get("shape")
        if isinstance(value, list):
            out.append([_dim(d) for d in value[:64]])
    return out


def _variable_size(cls: str, conf: dict, shape: list) -> int:
    """The input-derived size of the layer's variables, for one input shape (0: none)."""
    if not shape:
        return 0
    if cls in _WHOLE:
        rest = shape[1:]
        return math.prod(rest) if rest and all(d > 0 for d in rest) else 0
    if cls not in _CHANNEL:
        return 0
    axis = conf.get("axis", -1)
    if isinstance(axis, list):
        axis = axis[0] if axis and isinstance(axis[0], int) else -1
    if cls not in ("BatchNormalization", "LayerNormalization", "GroupNormalization"):
        axis = 1 if conf.get("data_format") == "channels_first" else -1
    if not isinstance(axis, int) or not -len(shape) <= axis < len(shape):
        return 0
    return max(shape[axis], 0)


def _output(cls: str, conf: dict, shape: list) -> list | None:
    """The layer's output shape for one input shape, for the layers this module knows."""
    if cls in _SAME:
        return shape
    if cls == "InputLayer":
        return shape
    if cls == "Dense":
        units = _dim(conf.get("units"))
        return shape[:-1] + [units] if shape and units > 0 else None
    if cls == "Flatten":
        rest = shape[1:]
        return shape[:1] + [math.prod(rest) if all(d > 0 for d in rest) else -1]
    if cls == "Reshape":
        target = conf.get("target_shape")
        if not isinstance(target, list):
            return None
        target = [_dim(d) if d != -1 else -1 for d in target[:64]]
        if target.count(-1) == 1 and all(d > 0 for d in shape[1:]):
            known = math.prod(d for d in target if d > 0)
            target[target.index(-1)] = math.prod(shape[1:]) // known if known else -1
        return shape[:1] + target
    if cls in ("GlobalAveragePooling1D", "GlobalAveragePooling2D", "GlobalAveragePooling3D",
               "GlobalMaxPooling1D", "GlobalMaxPooling2D", "GlobalMaxPooling3D") and \
            not conf.get("keepdims") and conf.get("data_format") != "channels_first":
        return [shape[0], shape[-1]] if len(shape) >= 2 else None
    if conf.get("data_format") == "channels_first":
        return None
    if cls.startswith("Conv") and cls[-2:] in ("1D", "2D", "3D") or \
            cls.startswith(("MaxPooling", "AveragePooling")):
        return _sliding(cls, conf, shape)
    if cls in ("Resizing", "CenterCrop"):     # to height x width, channels kept
        h, w = _dim(conf.get("height")), _dim(conf.get("width"))
        return [shape[0], h, w, shape[-1]] if len(shape) == 4 and h > 0 and w > 0 else None
    if conf.get("dilation_rate") not in (None, 1, [1], [1, 1], [1, 1, 1]):
        return None
    if cls.startswith("Conv") and cls.endswith("Transpose"):
        return _transposed(conf, shape)
    return _reshaped(cls, conf, shape)


def _transposed(conf: dict, shape: list) -> list | None:
    """A transposed convolution's output shape (channels last, no output_padding)."""
    rank = len(shape) - 2
    size, strides = _ints(conf.get("kernel_size"), rank), _ints(conf.get("strides") or 1, rank)
    if rank < 1 or size is None or strides is None or min(strides) < 1 or \
            conf.get("output_padding") not in (None, [None] * rank):
        return None
    same = conf.get("padding") == "same"
    spatial = [-1 if n < 0 else n * s if same else n * s + max(k - s, 0)
               for n, k, s in zip(shape[1:-1], size, strides)]
    return [shape[0]] + spatial + [_dim(conf.get("filters"))]


def _joined(conf: dict, shapes: list) -> list | None:
    """Concatenate's output: the inputs' sizes along its axis added up."""
    axis = conf.get("axis", -1)
    rank = len(shapes[0])
    if not isinstance(axis, int) or not -rank <= axis < rank or \
            any(len(s) != rank for s in shapes):
        return None
    axis %= rank
    out = list(shapes[0])
    out[axis] = sum(s[axis] for s in shapes) if all(s[axis] > 0 for s in shapes) else -1
    return out


def _reshaped(cls: str, conf: dict, shape: list) -> list | None:
    """The output shape of the layers that move, repeat, pad or learn a size (channels last)."""
    rest = shape[1:]
    if cls == "Permute":
        dims = conf.get("dims")
        if isinstance(dims, list) and sorted(dims) == list(range(1, len(shape))):
            return shape[:1] + [shape[d] for d in dims]
        return None
    if cls == "RepeatVector":
        n = _dim(conf.get("n"))
        return [shape[0], n] + rest if n > 0 else None
    if cls == "Embedding":
        return shape + [_dim(conf.get("output_dim"))]
    if cls in ("LSTM", "GRU", "SimpleRNN"):
        units = _dim(conf.get("units"))
        return (shape[:-1] if conf.get("return_sequences") else shape[:1]) + [units] \
            if units > 0 and len(shape) >= 2 else None
    rank = len(shape) - 2
    if cls.startswith("UpSampling"):
        size = _ints(conf.get("size"), rank)
        return None if size is None else \
            shape[:1] + [n * k if n > 0 else -1 for n, k in zip(rest, size)] + shape[-1:]
    if cls.startswith(("ZeroPadding", "Cropping")):
        pad = conf.get("padding" if cls.startswith("Zero") else "cropping")
        pairs = [pad] * rank if isinstance(pad, int) else pad if isinstance(pad, list) and \
            len(pad) == rank else None
        if pairs is None:
            return None
        sign = 1 if cls.startswith("Zero") else -1
        widths = [2 * p if isinstance(p, int) else sum(p) if isinstance(p, list) and all(
            isinstance(v, int) for v in p) else None for p in pairs]
        if None in widths:
            return None
        return shape[:1] + [n + sign * w if n > 0 else -1 for n, w in zip(rest, widths)] + \
            shape[-1:]
    return None


def _sliding(cls: str, conf: dict, shape: list) -> list | None:
    """A convolution's or pooling's output shape (channels last; a dilated kernel spans
    (size - 1) * dilation + 1)."""
    rank = len(shape) - 2
    pool = not cls.startswith("Conv")
    size = _ints(conf.get("pool_size" if pool else "kernel_size"), rank)
    strides = _ints(conf.get("strides"), rank) if conf.get("strides") is not None else \
        (size if pool else [1] * rank)
    dilation = [1] * rank if pool else _ints(conf.get("dilation_rate") or 1, rank)
    if rank < 1 or size is None or strides is None or dilation is None or \
            min(strides) < 1 or min(dilation) < 1:
        return None
    size = [(k - 1) * d + 1 for k, d in zip(size, dilation)]
    same = conf.get("padding") == "same"
    spatial = []
    for n, k, s in zip(shape[1:-1], size, strides):
        if n < 0:
            spatial.append(-1)
        else:
            spatial.append(-(-n // s) if same else max((n - k) // s + 1, 0))
    channels = shape[-1] if pool else _dim(conf.get("filters"))
    return [shape[0]] + spatial + [channels]


def _ints(value, rank: int) -> list | None:
    if isinstance(value, int) and not isinstance(value, bool):
        return [value] * rank
    if isinstance(value, list) and len(value) == rank and \
            all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        return value
    return None
