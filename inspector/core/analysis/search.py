"""Find nodes by substring or regular expression over names, op types and attr values."""

from __future__ import annotations

import re

from inspector.core.errors import InspectorError
from inspector.core.model.attrs import decode
from inspector.core.model.graph import Graph


def _attr_text(node) -> str:
    parts = []
    for key, value in node.proto.attr.items():
        if key in ("value", "_output_shapes"):
            continue
        parts.append(f"{key}={decode(value)}")
    return " ".join(parts)


def find_nodes(graph: Graph, query: str, regex: bool = False, attrs: bool = True,
               limit: int = 5000) -> list:
    """Names of matching nodes in graph order (case-insensitive)."""
    query = query.strip()
    if not query:
        return []
    if regex:
        try:
            pattern = re.compile(query, re.IGNORECASE)
        except re.error as exc:
            raise InspectorError(f"bad regular expression: {exc}") from None
        match = pattern.search
    else:
        needle = query.lower()

        def match(text):
            return needle in text.lower()

    out = []
    for node in graph:
        if match(node.name) or match(node.op) or (attrs and match(_attr_text(node))):
            out.append(node.name)
            if len(out) >= limit:
                break
    return out
