"""Find nodes by substring or regular expression over names, op types and attr values.

A SearchIndex holds each node's searchable text, built once per graph (decoding every attr of a
300k-node graph takes over a second; a query over the index then takes a fraction of that).
Long loops check their job, so a superseded query stops early."""

from __future__ import annotations

import re
import weakref
from dataclasses import dataclass

from inspector.core.errors import InspectorError
from inspector.core.model.attrs import decode
from inspector.core.model.graph import Graph
from inspector.core.runtime.job import NO_JOB, Job

CHECK_EVERY = 4096
LIMIT = 5000


def _attr_text(node) -> str:
    parts = []
    for key, value in node.proto.attr.items():
        if key in ("value", "_output_shapes"):
            continue
        parts.append(f"{key}={decode(value)}")
    return " ".join(parts)


@dataclass
class Found:
    names: list          # matching node names in graph order (at most the limit)
    more: bool = False   # the limit was reached: there are more matches

    def describe(self) -> str:
        n = len(self.names)
        if not n:
            return "no matches"
        return f"{n}+ matches (showing the first {n})" if self.more else \
            f"{n} match" + ("" if n == 1 else "es")


class SearchIndex:
    """Names, op types and attr text of every node of one graph, ready to search."""

    def __init__(self, graph: Graph, job: Job = NO_JOB):
        self.names, self.ops, self.attrs, self.lowered = [], [], [], []
        for i, node in enumerate(graph):
            job.every(i, CHECK_EVERY - 1)
            attrs = _attr_text(node)
            self.names.append(node.name)
            self.ops.append(node.op)
            self.attrs.append(attrs)
            self.lowered.append(f"{node.name}\n{node.op}\n{attrs}".lower())

    def find(self, query: str, regex: bool = False, limit: int = LIMIT, job: Job = NO_JOB) -> Found:
        """Case-insensitive matches of `query` (a substring, or a regex searched in the name,
        op type and attr text separately); a bad regex raises InspectorError."""
        query = query.strip()
        if not query:
            return Found([])
        out = []
        if regex:
            try:
                search = re.compile(query, re.IGNORECASE).search
            except re.error as exc:
                raise InspectorError(f"bad regular expression: {exc}") from None
            for i, name in enumerate(self.names):
                job.every(i, CHECK_EVERY - 1)
                if search(name) or search(self.ops[i]) or search(self.attrs[i]):
                    out.append(name)
                    if len(out) > limit:
                        return Found(out[:limit], True)
            return Found(out)
        needle = query.lower()
        if "\n" in needle:
            return Found([])
        for i, text in enumerate(self.lowered):
            job.every(i, CHECK_EVERY - 1)
            if needle in text:
                out.append(self.names[i])
                if len(out) > limit:
                    return Found(out[:limit], True)
        return Found(out)


_indexes: "weakref.WeakKeyDictionary[Graph, SearchIndex]" = weakref.WeakKeyDictionary()


def index_for(graph: Graph, job: Job = NO_JOB) -> SearchIndex:
    """The graph's index, built on first use and kept as long as the graph lives."""
    index = _indexes.get(graph)
    if index is None:
        index = _indexes[graph] = SearchIndex(graph, job)
    return index


def find_nodes(graph: Graph, query: str, regex: bool = False, limit: int = LIMIT,
               job: Job = NO_JOB) -> list:
    """Names of matching nodes in graph order (case-insensitive)."""
    return index_for(graph, job).find(query, regex, limit, job).names
