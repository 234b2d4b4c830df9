"""Bench inputs built from the cached corpus (bench/.cache, made by load_bench.py)."""

from __future__ import annotations

import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def structure_text() -> str | None:
    """Inception v3 without weight values, as text (like a training graph's .pbtxt)."""
    out = os.path.join(ROOT, "bench", ".cache", "inception_v3_structure.pbtxt")
    source = os.path.join(ROOT, "bench", ".cache", "inception_v3_jpeg.pb")
    if not os.path.exists(out) and os.path.exists(source):
        from google.protobuf import text_format

        from inspector.core.loaders import load

        gd = load(source).graph.graph_def
        for node in gd.node:
            if node.op == "Const":
                node.attr["value"].tensor.ClearField("tensor_content")
        with open(out, "w") as f:
            f.write(text_format.MessageToString(gd))
    return out if os.path.exists(out) else None
