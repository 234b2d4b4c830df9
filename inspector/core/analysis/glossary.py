"""What an op does, in two tiers. Tier 1 (`plain`): one sentence for people who are not
specialists, ours, from glossary_plain.txt, with a sentence per category for every op it does
not name. Tier 2 (`technical`): the op registry's facts (inputs, outputs, attributes; made
by tools/make_op_facts.py from TensorFlow, shipped as op_facts.json.gz, so no TensorFlow
import is needed). `scope_caption` says what a block does from its op mix."""

from __future__ import annotations

import gzip
import json
import os
import re
from functools import lru_cache

from inspector.core.model.op_categories import category

_HERE = os.path.dirname(os.path.abspath(__file__))

# one sentence per category, for the ops glossary_plain.txt does not name
FALLBACK = {
    "input": "Where data comes into the model.",
    "constant": "A fixed set of numbers stored inside the model.",
    "variable": "A set of numbers the model can change while it learns.",
    "convolution": "Looks for small patterns at every position of the picture.",
    "matmul": "Mixes many numbers together with learned weights.",
    "normalization": "Evens out values to a steady range.",
    "activation": "Decides how strongly each value passes on, like a switch or a dimmer.",
    "pooling": "Shrinks the data by summarising small windows.",
    "math": "Simple arithmetic on the numbers, position by position.",
    "shape": "Rearranges, cuts or joins the numbers without changing them.",
    "control": "Decides which steps run, and in what order.",
    "quantization": "Works with compact 8-bit numbers to save space and time.",
    "io": "Reads, writes or unpacks files and other outside data.",
    "training": "Only used while the model learns; not needed to use it.",
}
# plain words for the kinds of work in a block, and the role each kind suggests
_KIND_WORDS = {"convolution": "pattern detection", "matmul": "weighted mixing",
               "normalization": "normalisation", "activation": "letting strong values through",
               "pooling": "shrinking", "math": "arithmetic", "shape": "rearranging",
               "quantization": "8-bit arithmetic", "io": "file decoding",
               "control": "flow control", "input": "input", "variable": "learned numbers",
               "training": "training steps"}
_CLIPPING = {"Relu6", "ClipByValue", "Minimum", "Maximum"}
# what a block's activations do, in plain words, by the first of these ops it holds
_ACTIVATION_WORDS = [({"Softmax", "LogSoftmax"}, "turning scores into chances"),
                     (_CLIPPING, "clipping"),
                     ({"Sigmoid", "Tanh"}, "squeezing values into a range"),
                     ({"Relu", "QuantizedRelu"}, "keeping positive values"),
                     ({"Elu", "Selu", "LeakyRelu", "Gelu", "Softplus"}, "quieting weak values")]
# names people give the part of a model that picks the category (slim's Logits, ...)
_CLASSIFIER_NAME = re.compile(r"logit|classif|prediction", re.IGNORECASE)
_QUIET = {"Identity", "NoOp", "CheckNumerics", "Assert", "Print", "PrintV2", "StopGradient"}
_WEIGHT = ["convolution", "matmul", "normalization", "activation", "pooling", "quantization",
           "io", "math", "shape", "control", "variable", "input", "training"]


@lru_cache(maxsize=1)
def _plain_table() -> dict:
    table = {}
    with open(os.path.join(_HERE, "glossary_plain.txt"), encoding="utf-8") as fh:
        for line in fh:
            if line.startswith("#") or ":" not in line:
                continue
            op, _, text = line.partition(":")
            table[op.strip()] = text.strip()
    return table


def has_plain(op: str) -> bool:
    """Whether Tier 1 has a sentence written for this op (not a category fallback)."""
    return op in _plain_table()


def plain(op: str) -> str:
    """One jargon-free sentence (never empty)."""
    text = _plain_table().get(op)
    if text:
        return text
    return FALLBACK.get(category(op), f"A step called {op}; it has no plain description yet.")


_TABLE_START = '{"ops":{'


@lru_cache(maxsize=1)
def _facts_text() -> str:
    """op_facts.json.gz as text (compact, keys sorted: tools/make_op_facts.py), '' if absent."""
    try:
        with gzip.open(os.path.join(_HERE, "op_facts.json.gz"), "rt", encoding="utf-8") as fh:
            return fh.read()
    except OSError:
        return ""


@lru_cache(maxsize=None)
def op_facts(op: str) -> dict | None:
    """The registry's facts for an op: inputs, outputs, attrs, stateful (None if unknown).
    Only this op's entry is decoded: the whole table (1.5k ops) took ~7 ms here, ~25 ms on
    the slow class, of the first layout of every model (its edges' dtypes)."""
    text, key = _facts_text(), json.dumps(op) + ":{"
    at = text.find(key)
    while at > 0 and not (at == len(_TABLE_START) and text.startswith(_TABLE_START) or
                          text[at - 2:at] == "},"):
        at = text.find(key, at + 1)    # an op's entry starts the table or follows another's
    if at <= 0:
        return None
    try:
        facts, _ = json.JSONDecoder().raw_decode(text, at + len(key) - 1)
    except ValueError:
        return None
    return facts if isinstance(facts, dict) else None


def facts_version() -> str:
    """The TensorFlow version the facts were read from."""
    text = _facts_text()
    at = text.rfind('"tensorflow":')
    try:
        version, _ = json.JSONDecoder().raw_decode(text, at + 13) if at >= 0 else ("", 0)
    except ValueError:
        return ""
    return version if isinstance(version, str) else ""


def technical(op: str) -> str | None:
    """Tier 2: 'Conv2D(input: T, filter: T) -> output: T; attrs T, strides, ...'."""
    facts = op_facts(op)
    if facts is None:
        return None
    ins = ", ".join(facts.get("inputs", []))
    outs = ", ".join(facts.get("outputs", [])) or "nothing"
    attrs = [a.split(":")[0] for a in facts.get("attrs", [])]
    text = f"{op}({ins}) -> {outs}"
    if attrs:
        text += "; attrs " + ", ".join(attrs)
    if facts.get("stateful"):
        text += "; stateful"
    return text


def scope_caption(op_counts: dict, repeat: int = 1, name: str = "") -> str:
    """'feature extractor block x13: pattern detection + normalisation + clipping'. A block
    named for the answer (Logits, Predictions, classifier) or mixing into a softmax is a
    classifier, whatever it computes with."""
    kinds: dict = {}
    for op, n in op_counts.items():
        cat = category(op)
        if cat in ("constant",) or op in _QUIET:
            continue
        kinds[cat] = kinds.get(cat, 0) + n
    ops = set(op_counts)
    if kinds.get("io") and ops & {"DecodeJpeg", "DecodePng", "DecodeWav", "DecodeImage",
                                  "DecodeBmp", "DecodeGif", "DecodeAndCropJpeg"}:
        role = "input preparation"
    elif kinds.get("matmul") and ops & {"Softmax", "Sigmoid", "LogSoftmax"} or \
            kinds.get("convolution") and ops & {"Softmax", "LogSoftmax"} or \
            _CLASSIFIER_NAME.search(name):
        role = "classifier"
    elif kinds.get("convolution"):
        role = "feature extractor"
    elif kinds.get("matmul"):
        role = "dense layer"
    elif kinds.get("pooling") and len(kinds) <= 2:
        role = "shrinking step"
    elif kinds.get("normalization"):
        role = "normalisation step"
    elif kinds.get("control"):
        role = "loop or branch"
    elif kinds.get("training"):
        role = "training part"
    else:
        role = "processing step"
    shown = []
    rank = {c: i for i, c in enumerate(_WEIGHT)}
    for cat, _ in sorted(kinds.items(), key=lambda kv: (-kv[1], rank.get(kv[0], 99))):
        word = _KIND_WORDS.get(cat)
        if cat == "activation":
            word = next((w for names, w in _ACTIVATION_WORDS if ops & names), word)
        if word and word not in shown:
            shown.append(word)
    block = f"{role} block" if role != "processing step" else role
    times = f" x{repeat}" if repeat > 1 else ""
    return f"{block}{times}: {' + '.join(shown[:3])}" if shown else f"{block}{times}"
