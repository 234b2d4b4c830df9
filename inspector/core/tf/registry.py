"""Facts from TensorFlow's op registry: which ops are stateful, attribute defaults."""

from __future__ import annotations

from inspector.core.tf.runtime import serialized, tf


@serialized
def stateful_ops(ops) -> set:
    """The op types among `ops` that TF registers as stateful (or does not know at all)."""
    tf()
    from tensorflow.python.framework import op_def_registry

    out = set()
    for op in ops:
        op_def = op_def_registry.get(op)
        if op_def is None or op_def.is_stateful:
            out.add(op)
    return out


@serialized
def default_attrs(ops) -> dict:
    """op type -> {attr name: serialized default AttrValue} for the ops TF knows."""
    tf()
    from tensorflow.python.framework import op_def_registry

    out = {}
    for op in ops:
        op_def = op_def_registry.get(op)
        if op_def is not None:
            out[op] = {a.name: a.default_value.SerializeToString()
                       for a in op_def.attr if a.HasField("default_value")}
    return out


def op_doc(op: str) -> str | None:
    """TensorFlow's own one-paragraph description of an op (the first paragraph of its
    tf.raw_ops docstring), for showing with credit; None when it has none."""
    t = tf()
    fn = getattr(t.raw_ops, op, None)
    doc = (getattr(fn, "__doc__", None) or "").strip()
    if not doc:
        return None
    first = doc.split("\n\n")[0]
    return " ".join(first.split())[:600] or None
