"""The dtype of one output of a node as TensorFlow's op registry defines it: the op's
output_arg (a fixed type, a type attr, a list(type) attr, N copies for a number attr) read
from the node's attrs, else from the attr's registered default (Dequantize's output is its
`dtype` attr, float by default, whatever its input `T` is). Facts from glossary.op_facts."""

from __future__ import annotations

from functools import lru_cache

from inspector.core.analysis.glossary import op_facts
from inspector.core.model.dtypes import dtype_name, dtype_value


@lru_cache(maxsize=None)
def _spec(op: str):
    """(outputs as (type, count attr), attr kinds, type defaults) of an op, None if unknown."""
    facts = op_facts(op)
    if facts is None:
        return None
    kinds = dict(a.split(": ", 1) for a in facts.get("attrs", []))
    outputs = []
    for arg in facts.get("outputs", []):
        kind = arg.split(": ", 1)[1].removeprefix("ref ")
        count, _, kind = kind.rpartition(" x ")
        if not count and kinds.get(kind) == "int":     # N copies of a fixed type: unknown
            count, kind = kind, ""
        outputs.append((kind, count))
    return tuple(outputs), kinds, facts.get("type_defaults", {})


def _name(tf_name: str) -> str:
    try:
        return dtype_name(dtype_value(tf_name))
    except KeyError:
        return ""


def registry_dtype(node, port: int) -> str:
    """dtype of output `port` of `node` by the op registry; '' if the op or the attr that
    decides it is unknown."""
    spec = _spec(node.op)
    if spec is None:
        return ""
    outputs, kinds, defaults = spec
    attrs = node.proto.attr
    for kind, count in outputs:
        if count:
            if count not in attrs:
                return ""
            width = attrs[count].i
        elif kinds.get(kind) == "list(type)":
            width = len(attrs[kind].list.type) if kind in attrs else 0
        else:
            width = 1
        if port >= width:
            port -= width
            continue
        if kinds.get(kind) == "list(type)":
            return dtype_name(attrs[kind].list.type[port]) if kind in attrs else ""
        if kinds.get(kind) == "type":
            if kind in attrs and attrs[kind].WhichOneof("value") == "type":
                return dtype_name(attrs[kind].type)
            return _name(defaults.get(kind, ""))
        return _name(kind)
    return ""
