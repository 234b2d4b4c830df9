"""A model's inputs and outputs in plain words, for the model card (model_card.build_card):
what a person would hand an input ("a 224x224 colour photo", "a WAV sound recording", "a
sequence of 16 word or token numbers") and what comes out ("1,001 probabilities, one per
category"), read from the port's dtype, its shape and the ops around it; and big numbers in
words ("12.3 million")."""

from __future__ import annotations

import re

from inspector.core.model.graph import Graph, node_name_from_input

ENCODED_IMAGE_OPS = {"DecodeJpeg": "JPEG", "DecodePng": "PNG", "DecodeBmp": "BMP",
                     "DecodeImage": "image", "DecodeAndCropJpeg": "JPEG", "DecodeGif": "GIF"}


def parsed_dims(shape: str) -> list | None:
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
    dims = parsed_dims(shape)
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
    dims = parsed_dims(shape)
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


def in_words(n: float) -> str:
    """12_300_000 -> '12.3 million' (plain words for big numbers)."""
    for size, word in ((1e12, "trillion"), (1e9, "billion"), (1e6, "million"),
                       (1e3, "thousand")):
        if n >= size:
            return f"{n / size:.3g} {word}"
    return f"{int(n):,}"


def _article(words: str) -> str:
    """'a' or 'an' before a size such as 8x8, 11x11, 224x224 or 'any-size'."""
    first = words.split("x")[0]
    spoken_vowel = first.startswith("8") or first in ("11", "18") or words.startswith("any")
    return "an" if spoken_vowel else "a"
