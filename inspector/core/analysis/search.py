"""Find nodes by substring or regular expression over names, op types and attr values.

A SearchIndex holds each node's searchable text, built once per graph from its columns (names,
op codes) and its NodeDefs' attrs (each distinct attr value decoded once; 300k nodes: ~1.5 s,
a query over the index then takes a fraction of that). Attrs are in key order, so a query
gives the same answer in every run. Long loops check their job, so a superseded query stops
early."""

from __future__ import annotations

import re
import weakref
from array import array
from bisect import bisect_right
from itertools import accumulate
from dataclasses import dataclass

from inspector.core.errors import InspectorError, ModelLoadError
from inspector.core.model.attrs import decode
from inspector.core.model.graph import Graph
from inspector.core.runtime.job import NO_JOB, Job

CHECK_EVERY = 4096
SLICE = 1024          # nodes whose texts are made in one C call (the GIL is held meanwhile)
SEP = "\x00"          # between the texts of a block (never in a query: see find)
LIMIT = 5000
WALK = 4096           # NodeDefs read at once (a big model's are parsed from the file)


SKIPPED = ("value", "_output_shapes")


def _attr_text(node) -> str:
    """The node's attrs as `key=value` in key order (a map's own order is a hash order that
    changes from one process to the next: a query spanning two attrs would match in one run
    and not the next)."""
    codes, texts = _attr_texts([node.proto])
    return texts[codes[0]]


def _attr_texts(protos, job: Job = NO_JOB) -> tuple:
    """(code of each NodeDef's attr text, the distinct texts): each distinct (key, value)
    decoded once and each distinct text kept once, a code per node (an array: no Python
    object a node), as a big graph repeats a few thousand of them."""
    seen: dict = {}
    code_of: dict = {"": 0}
    codes = array("i")
    add = codes.append
    for i, node in enumerate(protos):
        job.every(i, CHECK_EVERY - 1)
        attr = node.attr if node is not None else None
        if not attr:
            add(0)
            continue
        parts = []
        for key in sorted(attr):
            if key in SKIPPED:
                continue
            value = attr[key]
            k = (key, value.SerializeToString())
            text = seen.get(k)
            if text is None:
                text = seen[k] = f"{key}={decode(value)}"
            parts.append(text)
        text = " ".join(parts)
        code = code_of.get(text)
        if code is None:
            code = code_of[text] = len(code_of)
        add(code)
    return codes, list(code_of)


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
    """Names, op types and attr text of every node of one graph, ready to search. Per node
    it keeps no Python object: names are the graph's own list, op types its op codes, attr
    texts a code each, and each block of texts is one string with its starts in an array."""

    def __init__(self, graph: Graph, job: Job = NO_JOB):
        names = self.names = graph.name_list
        self.op_names = graph.op_names
        op_of, self.op_codes = graph.op_names.__getitem__, graph._ops
        self.unreadable: list = []        # ModelLoadError of each NodeDef that does not parse
        self.attr_codes, self.attr_texts = _attr_texts(
            _readable(graph.structure.node, self.unreadable), job)
        text_of = self.attr_texts.__getitem__
        self.blocks = []
        for a in range(0, len(names), SLICE):    # slices: the GIL is let go between
            job.every(a, CHECK_EVERY - 1)
            b = a + SLICE
            lowered = list(map(str.lower, map("\n".join, zip(
                names[a:b], map(op_of, self.op_codes[a:b]),
                map(text_of, self.attr_codes[a:b])))))
            # the block's texts joined by SEP, and where each starts: a substring query
            # is one str.find a match instead of an `in` a node
            starts = array("q", accumulate(map(len, lowered), _after_sep, initial=0))
            self.blocks.append((a, SEP.join(lowered), starts))

    @property
    def attrs(self) -> list:
        """Each node's attr text (made on demand: the index keeps a code a node)."""
        return list(map(self.attr_texts.__getitem__, self.attr_codes))

    @property
    def lowered(self) -> list:
        """Each node's searched text: name, op type and attrs, lowercase."""
        return [text[starts[k]:starts[k + 1] - 1] for _, text, starts in self.blocks
                for k in range(len(starts) - 1)]

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
            # each op type and each distinct attr text is searched once
            op_hit = [bool(search(op)) for op in self.op_names]
            attr_hit: list = [None] * len(self.attr_texts)
            ops, attrs, texts = self.op_codes, self.attr_codes, self.attr_texts
            for i, name in enumerate(self.names):
                job.every(i, CHECK_EVERY - 1)
                if search(name) or op_hit[ops[i]] or _hit(attr_hit, search, texts, attrs[i]):
                    out.append(name)
                    if len(out) > limit:
                        return Found(out[:limit], True)
            return Found(out)
        needle = query.lower()
        if "\n" in needle:
            return Found([])
        names = self.names
        if SEP in needle:         # a match would span two nodes' texts: node by node
            for i, text in enumerate(self.lowered):
                job.every(i, CHECK_EVERY - 1)
                if needle in text:
                    out.append(names[i])
                    if len(out) > limit:
                        return Found(out[:limit], True)
            return Found(out)
        for k, (first, text, starts) in enumerate(self.blocks):
            job.every(k, 15)
            at = text.find(needle)
            while at >= 0:
                j = bisect_right(starts, at) - 1
                out.append(names[first + j])
                if len(out) > limit:
                    return Found(out[:limit], True)
                at = text.find(needle, starts[j + 1])      # each node once
        return Found(out)


def _readable(nodes, unreadable: list):
    """Each NodeDef in order, None for one that does not parse (a big model's nodes are read
    now: its error is kept, its name and op still searched)."""
    n = len(nodes)
    for a in range(0, n, WALK):
        try:
            got = nodes[a:a + WALK]
        except ModelLoadError:
            got = []
            for k in range(a, min(n, a + WALK)):
                try:
                    got.append(nodes[k])
                except ModelLoadError as exc:
                    if exc.node is None:        # the file, not a node (changed on disk)
                        raise
                    unreadable.append(exc)
                    got.append(None)
        yield from got


def _after_sep(start: int, length: int) -> int:
    return start + length + 1


def _hit(known: list, search, texts: list, code: int) -> bool:
    found = known[code]
    if found is None:
        found = known[code] = bool(search(texts[code]))
    return found


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
