"""Write inspector/core/analysis/op_facts.json.gz: the facts TensorFlow's op registry holds
about every op (input and output names with their types, attributes with their types, the
defaults of type attributes, whether it is stateful). Facts, not prose: the glossary's Tier 2
and the edges' dtypes are built from them,
and the app needs no TensorFlow to show it. Run with the TensorFlow the app is tested with:

    .venv/bin/python tools/make_op_facts.py
"""

from __future__ import annotations

import gzip
import json
import os
import sys

OUT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "inspector",
                   "core", "analysis", "op_facts.json.gz")


def _arg(arg) -> str:
    kind = arg.type_attr or arg.number_attr or arg.type_list_attr
    if not kind and arg.type:
        from tensorflow.python.framework import dtypes

        kind = dtypes.as_dtype(arg.type).name
    ref = "ref " if arg.is_ref else ""
    many = f"{arg.number_attr} x " if arg.number_attr and arg.type_attr else ""
    return f"{arg.name}: {ref}{many}{arg.type_attr or kind or '?'}"


def op_facts(op_def) -> dict:
    """The facts of one OpDef (tests regenerate a sample and compare with the file);
    `type_defaults` holds the defaults of its type attrs (Dequantize's `dtype: float32`)."""
    attrs = []
    defaults = {}
    for a in op_def.attr:
        if a.name.startswith("_"):
            continue
        attrs.append(f"{a.name}: {a.type}")
        if a.type == "type" and a.HasField("default_value") and a.default_value.type:
            from tensorflow.python.framework import dtypes

            defaults[a.name] = dtypes.as_dtype(a.default_value.type).name
    facts = {"inputs": [_arg(a) for a in op_def.input_arg],
             "outputs": [_arg(a) for a in op_def.output_arg],
             "attrs": attrs, "stateful": bool(op_def.is_stateful)}
    if defaults:
        facts["type_defaults"] = defaults
    return facts


def all_facts() -> dict:
    import tensorflow as tf
    from tensorflow.python.framework import op_def_registry

    ops = {}
    for name in sorted(dir(tf.raw_ops)):
        if name.startswith("_"):
            continue
        op_def = op_def_registry.get(name)
        if op_def is not None:
            ops[name] = op_facts(op_def)
    for name in ("_FusedConv2D", "_FusedMatMul", "_Arg", "_Retval"):
        op_def = op_def_registry.get(name)
        if op_def is not None:
            ops[name] = op_facts(op_def)
    return {"tensorflow": tf.__version__, "ops": ops}


def main() -> int:
    facts = all_facts()
    tmp = OUT + ".tmp"
    with gzip.open(tmp, "wt", encoding="utf-8", compresslevel=9) as fh:
        json.dump(facts, fh, sort_keys=True, separators=(",", ":"))
    os.replace(tmp, OUT)
    print(f"wrote {OUT}: {len(facts['ops'])} ops from TensorFlow {facts['tensorflow']}, "
          f"{os.path.getsize(OUT):,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
