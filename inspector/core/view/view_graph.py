"""The view of one graph as callers hold it: a thin facade over its Hierarchy (built once),
project() and the LayoutCache last handed back by whoever drew it. What is open lives in the
caller (the app's AppState.expanded) and is passed to scene()."""

from __future__ import annotations

from inspector.core.model.graph import Graph
from inspector.core.model.node_set import NodeSet
from inspector.core.runtime.job import NO_JOB, Job
from inspector.core.view import held_scopes
from inspector.core.view.hierarchy import build_hierarchy, params_deferred
from inspector.core.view.projection import LayoutCache, project
from inspector.core.view.scene import Scene, VisibleEdge, VisibleItem

__all__ = ["ViewModel", "Scene", "VisibleItem", "VisibleEdge", "DEFER_PARAMS_ABOVE"]

DEFER_PARAMS_ABOVE = 20_000   # constants: fewer are read with the first scene (~50 ms)


class ViewModel:
    """A graph's hierarchy, the layout cache its owner adopted last (frozen: scenes are
    projected into copies), and how it is shown by default: `direction` and the tensor
    `shapes` (set by the app state on its thread; the canvas passes its own)."""

    def __init__(self, graph: Graph, fold_constants: bool = True):
        self.hierarchy = build_hierarchy(graph, fold_constants)
        self.cache = LayoutCache(self.hierarchy).freeze()
        self.shapes: dict | None = None  # node -> output shapes, once inferred
        self.direction = "TB"            # or "LR" (left to right)
        self.caption = ""                # what the window says it shows, when not the model

    @property
    def graph(self) -> Graph:
        return self.hierarchy.graph

    @property
    def fold_constants(self) -> bool:
        return self.hierarchy.fold_constants

    @property
    def root(self):
        return self.hierarchy.root

    def scene(self, expanded=None, job: Job = NO_JOB, defer_params: bool = False,
              direction: str | None = None, shapes: dict | None = None,
              cache: LayoutCache | None = None) -> Scene:
        """project() with `expanded` scopes open ({""} if None), this view's direction and
        shapes unless given. Into `cache` when given (the caller may adopt() it afterwards);
        else into a copy of this view's cache, dropped afterwards: any thread may ask, and
        nothing here changes. With defer_params a big graph's scopes show no parameter
        count (params None) until its constants have been read (Graph.const_facts): the
        first picture does not wait for that pass."""
        return project(self.hierarchy, {""} if expanded is None else expanded,
                       self.direction if direction is None else direction,
                       self.shapes if shapes is None else shapes,
                       self.cache.copy() if cache is None else cache, job,
                       count_params=not (defer_params and self.params_deferred()))

    def adopt(self, cache: LayoutCache) -> None:
        """Keep `cache` (filled by scene(cache=...)) for the next scenes, frozen from now on.
        Only the view's owner calls it, on its thread (the app: the canvas, on the GUI's)."""
        self.cache = cache.freeze()

    def params_deferred(self) -> bool:
        """True when a scene asked with defer_params leaves parameter counts out: the graph
        has more than DEFER_PARAMS_ABOVE constants whose facts are not read yet."""
        return params_deferred(self.hierarchy, DEFER_PARAMS_ABOVE)

    # -- the hierarchy's answers ----------------------------------------------------------
    def const_source(self, name: str):
        return self.hierarchy.const_source(name)

    def is_folded(self, name: str) -> bool:
        return self.hierarchy.is_folded(name)

    def badges(self, name: str) -> list:
        return self.hierarchy.badges(name)

    def badge_host(self, name: str) -> str:
        return self.hierarchy.badge_host(name)

    def parts(self, name: str) -> list:
        return self.hierarchy.parts(name)

    def owner(self, name: str, expanded) -> str:
        return self.hierarchy.owner(name, expanded)

    def nodes_under(self, path: str) -> list:
        return self.hierarchy.nodes_under(path)

    def scopes_holding(self, names) -> frozenset:
        """The scopes with one of `names` inside: a NodeSet (a strip preview's) on a big
        graph's grouped tree as columns (held_scopes), else by the hierarchy's walk."""
        columns = self.hierarchy.memo.get("columns")
        if columns is not None and isinstance(names, NodeSet) and names.of(self.graph):
            return held_scopes.scopes_holding(columns, names)
        return self.hierarchy.scopes_holding(names)

    def alike(self, path: str) -> int:
        return self.hierarchy.stats[path].alike

    def group_label(self, path: str) -> str:
        """What the box of a group of a too-big scope says ("first … last"), else ''."""
        return self.hierarchy.group_labels.get(path, "")

    def scope_stats(self, path: str) -> tuple:
        """(nodes, parameters, main ops, category) of a scope (parameters counted now)."""
        stats = self.hierarchy.stats[path]
        params = self.cache.copy().scope_params().get(path, 0)
        return stats.count, params, stats.mix, stats.category
