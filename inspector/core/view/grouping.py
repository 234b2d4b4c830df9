"""Groups for scopes that hold too many nodes directly (a flat graph with no name scopes, or one
scope of thousands of nodes): the nodes, in dataflow order, are cut into contiguous bands that
show as collapsed scopes labelled by their first and last node, nested when a band is still
too big. Group names start with '#', which TensorFlow forbids in node names, so they never
collide with a real scope."""

from __future__ import annotations

import math

from inspector.core.model.scopes import Scope
from inspector.core.runtime import pieces

GROUP_ABOVE = 400   # a scope showing more nodes than this directly is grouped
LEAF = 200          # nodes a band aims at
FANOUT = 40         # bands at most per level


def dataflow_order(graph, names: list) -> list:
    """`names` with each node after its inputs among them (depth first from the graph's
    order, so a constant lands next to its first consumer); cycles keep graph order. Walks
    the graph's input columns by node index (no Node object made)."""
    every, src, off = graph._names, graph._src, graph._in_off
    look, order, members = graph._index.__getitem__, [], set()
    for lo, hi in pieces.bounds(len(names)):   # a C call a piece: one over a flat 1M-node
        part = list(map(look, names[lo:hi]))       # root held the GIL ~340 ms before the
        order += part                              # first picture (stall_watch)
        members.update(part)
    seen, out = set(), []
    for start in order:
        if start in seen:
            continue
        seen.add(start)
        stack = [(start, iter(src[off[start]:off[start + 1]]))]
        while stack:
            i, inputs = stack[-1]
            for s in inputs:      # -1 (an input naming no node) is never a member
                if s in members and s not in seen:
                    seen.add(s)
                    stack.append((s, iter(src[off[s]:off[s + 1]])))
                    break
            else:
                stack.pop()
                out.append(every[i])
    return out


def _bands(order: list, shown: set) -> list:
    """Cut `order` into contiguous bands holding about equal numbers of shown nodes."""
    count = sum(1 for n in order if n in shown)
    k = max(1, min(FANOUT, math.ceil(count / LEAF)))
    per = math.ceil(count / k)
    bands, current, in_band = [], [], 0
    for name in order:
        if name in shown and in_band == per:
            bands.append(current)
            current, in_band = [], 0
        current.append(name)
        in_band += name in shown
    if current:
        if bands and not any(n in shown for n in current):
            bands[-1].extend(current)   # trailing nodes that are not drawn join the last band
        else:
            bands.append(current)
    return bands


def _any_big(root: Scope) -> bool:
    """True when some scope holds more than GROUP_ABOVE nodes directly (else nothing is
    grouped and the tree is used as it is)."""
    stack = [root]
    while stack:
        scope = stack.pop()
        if len(scope.nodes) > GROUP_ABOVE:
            return True
        stack.extend(scope.children.values())
    return False


class Groups:
    """The grouped copy of a scope tree, each grouped node's extra scope segments, and the
    labels of the groups."""

    def __init__(self, graph, root: Scope, folded: set):
        self.parts: dict = {}    # node name -> tuple of group segments after its real scopes
        self.labels: dict = {}   # group path -> label
        self.bands: list = []    # (names, group segments) of each innermost group
        self.root = self._copy(graph, root, folded) if _any_big(root) else root

    def _copy(self, graph, scope: Scope, folded: set) -> Scope:
        """scope itself when nothing in it is grouped (shared, never changed), else a copy
        with its big scopes cut into groups."""
        children = {k: self._copy(graph, c, folded) for k, c in scope.children.items()}
        shown = {n for n in scope.nodes if n not in folded} \
            if len(scope.nodes) > GROUP_ABOVE else ()
        if len(shown) <= GROUP_ABOVE and all(children[k] is c
                                             for k, c in scope.children.items()):
            return scope
        new = Scope(scope.path, children, list(scope.nodes))
        if len(shown) > GROUP_ABOVE:
            new.nodes = []
            self._split(graph, new, dataflow_order(graph, scope.nodes), shown, ())
        return new

    def _split(self, graph, parent: Scope, order: list, shown: set, segments: tuple) -> None:
        for i, band in enumerate(_bands(order, shown), 1):
            segment = f"#{i}"
            path = f"{parent.path}/{segment}" if parent.path else segment
            group = parent.children[segment] = Scope(path)
            here = segments + (segment,)
            visible = [n for n in band if n in shown]
            first, last = graph.node(visible[0]).short_name, graph.node(visible[-1]).short_name
            self.labels[path] = first if first == last else f"{first} … {last}"
            if len(visible) > GROUP_ABOVE:
                self._split(graph, group, band, shown, here)
            else:
                group.nodes = band
                self.parts.update(dict.fromkeys(band, here))
                self.bands.append((band, here))
