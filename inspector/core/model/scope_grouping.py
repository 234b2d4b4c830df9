"""Grouping a graph's nodes by name scope: each node's scope id (scope_groups, or ScopeIds a
batch at a time while a streamed graph comes in, or TakenScopes from a reader process) and
the scope tree made from them (scope_tree). C-level passes graph_index.PIECE names at
a time (its PIECE and NUMPY_FROM read when used: one setting for both modules)."""

from __future__ import annotations

from array import array
from bisect import bisect_left
from itertools import accumulate, count, filterfalse, repeat
from operator import itemgetter, le

from inspector.core.model import graph_index
from inspector.core.model.inputs import MAX_SCOPE_DEPTH, scope_parts
from inspector.core.model.lazy_numpy import numpy
from inspector.core.model.scope_tree import ScopeTree
from inspector.core.model.scopes import Scope, add_scope
from inspector.core.runtime import gc_policy


def scope_groups(names: list):
    """(scope paths in order of first sight, the scope id of each node: an array('i')).
    Each C-level pass goes PIECE names at a time: it holds the GIL throughout, and a
    graph is grouped off the GUI thread while the window answers."""
    piece = graph_index.PIECE
    bounds = range(0, len(names), piece)
    paths: list = []
    for lo in bounds:
        paths += map(itemgetter(0), map(str.rpartition, names[lo:lo + piece], repeat("/")))
    ids = _first_seen(paths, bounds)
    # a name over MAX_SCOPE_DEPTH deep has a path of at least that many '/': the distinct
    # paths say whether any name is (fewer than the names: a pass over them, not the names)
    keys = list(ids)
    if keys and max(max(map(str.count, keys[lo:lo + piece], repeat("/")))
                    for lo in range(0, len(keys), piece)) >= MAX_SCOPE_DEPTH:
        paths = ["/".join(scope_parts(name)) for name in names]
        ids = _first_seen(paths, bounds)
    for k, path in enumerate(ids):
        ids[path] = k
    out = array("i")
    for lo in bounds:
        out.extend(map(ids.__getitem__, paths[lo:lo + piece]))
    return list(ids), out


class ScopeIds:
    """scope_groups' answer built a batch of names at a time (while a streamed graph waits
    for its next piece): the same paths in the same order and the same ids, or None when a
    name is deeper than MAX_SCOPE_DEPTH (scope_groups then goes over every name)."""

    def __init__(self):
        self.ids: dict | None = {}      # path -> id, in order of first sight
        self.paths: list = []           # the same paths, a list (only grows)
        self.out, self.done = array("i"), 0

    def advance(self, names: list) -> None:
        """Take names[self.done:]."""
        ids, lo, piece = self.ids, self.done, graph_index.PIECE
        while ids is not None and lo < len(names):
            paths = list(map(itemgetter(0), map(str.rpartition, names[lo:lo + piece],
                                                repeat("/"))))
            fresh = list(filterfalse(ids.__contains__, dict.fromkeys(paths)))
            if fresh:
                if max(map(str.count, fresh, repeat("/"))) >= MAX_SCOPE_DEPTH:
                    self.ids = ids = None
                    break
                ids.update(zip(fresh, count(len(ids))))
                self.paths += fresh
            self.out.fromlist(list(map(ids.__getitem__, paths)))
            lo += len(paths)
        self.done = lo

    def result(self, names: list):
        """(paths, ids) of every name, or None."""
        self.advance(names)
        return None if self.ids is None else (self.paths, self.out)


def take_scopes(graph, scopes, first: bool) -> None:
    """A reader process's scope ids of the nodes just taken (TakenScopes; first: the
    graph's first batch), or None."""
    if first and getattr(graph._scoping, "done", 0) == 0:       # none read ahead yet
        graph._scoping = TakenScopes()
    if graph._scoping.__class__ is TakenScopes:
        graph._scoping.take(scopes)


class TakenScopes:
    """ScopeIds' answer sent by a reader process with each batch (wire_columns): the same
    paths and ids; None when a batch came without them (then scope_groups)."""

    def __init__(self):
        self.paths: list = []
        self.out, self.whole = array("i"), True

    def take(self, scopes) -> None:
        """A batch's (new paths, ids as array('i') bytes), or None."""
        if scopes is None:
            self.whole = False
        elif self.whole:
            self.paths += scopes[0]
            self.out.frombytes(scopes[1])

    def advance(self, names: list) -> None:
        """(Nothing to do: the reader did it.)"""

    def result(self, names: list):
        return (self.paths, self.out) if self.whole and len(self.out) == len(names) \
            else None


def _first_seen(paths: list, bounds) -> dict:
    ids: dict = {}
    for lo in bounds:
        ids.update(dict.fromkeys(paths[lo:lo + graph_index.PIECE]))
    return ids


def scope_tree(names: list, paths: list, ids, ahead=None) -> Scope:
    """The name-scope hierarchy: each scope's nodes in graph order. A big graph's is a
    columnar ScopeTree (its Scope objects made on first use; ahead: its scopes walked while
    the graph streamed in, scope_tree.EveryScope); a small one's is made whole (no sort
    when the graph is written scope by scope, each scope's nodes a run)."""
    if len(names) >= graph_index.NUMPY_FROM:
        return ScopeTree(numpy(), names, paths, ids, ahead).root
    with gc_policy.paused():    # 3 objects a scope: collections would walk them again and
        return _scope_tree(names, paths, ids)       # again (40 % of the time at 30k scopes)


def _scope_tree(names: list, paths: list, ids) -> Scope:
    root = Scope("")
    by_path = {"": root}
    scopes = [by_path.get(path) or add_scope(by_path, path) for path in paths]
    if len(scopes) == 1:
        scopes[0].nodes = list(names)
        return root
    piece = graph_index.PIECE
    n, pieces = len(ids), range(0, len(ids), piece)
    if all(all(map(le, ids[lo:lo + piece], ids[lo + 1:lo + piece + 1])) for lo in pieces):
        ordered = names       # written scope by scope: each scope's nodes are a run
        ends = [bisect_left(ids, k) for k in range(1, len(scopes))] + [n]
    else:
        order, counts = graph_index.stable_order(ids, len(scopes))
        ordered = []
        for lo in pieces:
            ordered += map(names.__getitem__, order[lo:lo + piece])
        ends = list(accumulate(counts))
    start = 0
    for scope, end in zip(scopes, ends):
        scope.nodes = ordered[start:end]
        start = end
    return root
