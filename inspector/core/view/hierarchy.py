"""The hierarchy of one graph, built once and never changed afterwards (TensorBoard's seam):
its name scopes, with a scope too big to show flat cut into bands (grouping.py); constants
folded into badges on their readers (badges.py); every scope's statistics (nodes, op mix,
colour, repeated blocks "alike"); and every edge. What is shown of it (which scopes are open,
the direction, the known shapes) is not here: projection.project() takes those."""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from operator import itemgetter
from typing import NamedTuple

from inspector.core.model import op_categories
from inspector.core.model.graph import Graph, scope_parts
from inspector.core.model.parameters import VARIABLE_OPS, weight_homes
from inspector.core.model.scope_tree import ScopeTree
from inspector.core.model.scopes import scope_at  # noqa: F401 (the window's way to a scope)
from inspector.core.runtime import threads
from inspector.core.view import scope_stats, view_columns
from inspector.core.view.badges import (
    badge_of,
    const_sources,
    fold_constants_into_badges,
)
from inspector.core.view.grouping import Groups
from inspector.core.view.grouping_columns import ColumnGroups, ScopeMap
from inspector.core.view.scene import scope_id

_count_of = itemgetter(1)


class ScopeStats(NamedTuple):
    """What a scope's box says, counted once over every node under it."""

    count: int           # nodes under it, constants included
    signature: tuple     # ((op, nodes), ...) sorted: equal for repeated blocks
    mix: str             # its three main ops, constants and their reads aside
    category: str        # its colour (op_categories.main_category)
    reads_const: bool    # a node in it reads a constant or is a variable: its box has room
    #                      for a parameter count before the count is known
    shows: bool          # it holds a node that is drawn (not only constants folded away)
    alike: int = 1       # sibling scopes with the same signature, itself included


@dataclass(frozen=True, slots=True, eq=False)
class Hierarchy:
    """One graph's scopes, badges, groups, statistics and edges. Build it with
    build_hierarchy(); nothing changes it afterwards, so any thread may read it."""

    graph: Graph
    fold_constants: bool
    consts: dict         # name -> the Const behind it (a Const, or Const -> Identity): a
    #                      view_columns.ConstSources (views made on demand) or a dict
    folded: set          # constants drawn as badges (a set, or a big graph's FoldedSet);
    #                      never changed
    badge_sources: dict  # node -> [names of the constants it shows as badges], graph order
    root: object         # the scope tree (core.model.scopes.Scope), groups included
    scopes: dict         # path -> Scope, groups included (a big graph's: a ScopeMap)
    group_parts: dict    # node -> the group segments after its name scopes
    group_labels: dict   # group path -> its label ("first … last")
    stats: dict          # path -> ScopeStats
    edges: list          # (src, port, dst, control) of every edge not from a folded constant
    memo: dict = field(default_factory=dict)   # answers counted once (scope_params); the
    #                                            edges' node indexes (edge_index), the
    #                                            groups' bands of nodes (bands)

    # -- constants as badges ------------------------------------------------------------
    def const_source(self, name: str):
        """The Const behind a node that is a Const or a Const->Identity pair, else None."""
        return self.consts.get(name)

    def is_folded(self, name: str) -> bool:
        return name in self.folded

    def badges(self, name: str) -> list:
        """New Badge objects for the constants `name` shows (projection keeps them in its
        LayoutCache, so a picture reads each constant once)."""
        return [badge_of(self.consts[c]) for c in self.badge_sources.get(name, ())]

    def badge_host(self, name: str) -> str:
        """The node that shows `name`: itself, or for a constant folded into a badge, the first
        consumer carrying the badge (through Const->Identity pairs)."""
        seen, todo = {name}, [name]
        while todo:
            current = todo.pop(0)
            if current not in self.folded:
                return current
            for e in self.graph.consumers(current):
                if not e.control and e.dst not in seen:
                    seen.add(e.dst)
                    todo.append(e.dst)
        return name

    # -- scopes -------------------------------------------------------------------------
    def parts(self, name: str) -> list:
        """The scopes a node is drawn in, outermost first: its name scopes, then the groups
        of a scope too big to show flat (see grouping.py)."""
        extra = self.group_parts.get(name)
        return scope_parts(name) + list(extra) if extra else scope_parts(name)

    def owner(self, name: str, expanded) -> str:
        """The visible item that shows node `name` when `expanded` scopes are open: itself or
        its outermost collapsed scope."""
        return outermost_collapsed(self.parts(name), expanded) or name

    def children(self, path: str) -> list:
        """The items drawn directly in an open scope: its scopes that show anything, then its
        nodes that are not folded away."""
        scope, stats = self.scopes[path], self.stats
        out = [scope_id(c.path) for c in scope.children.values() if stats[c.path].shows]
        # a node named with a trailing '/' ("t/": an empty last part) has its scope's id:
        # its scope's box shows it ("/", at the root, is not drawn)
        out += [n for n in scope.nodes if n not in self.folded and n[-1:] != "/"]
        return out

    def nodes_under(self, path: str) -> list:
        """Every node name inside a scope (recursively)."""
        out, stack = [], [self.scopes[path]] if path in self.scopes else []
        while stack:
            scope = stack.pop()
            out.extend(scope.nodes)
            stack.extend(scope.children.values())
        return out

    def scopes_holding(self, names) -> frozenset:
        """The paths of every scope (and group) with at least one of `names` inside it: one
        pass over the scope tree, so a strip preview's dimming never walks a scope's nodes on
        the GUI thread."""
        names = names if isinstance(names, AbstractSet) else set(names)   # a NodeSet as is
        if len(names) <= 256:          # a selection: up from each name, not over the tree
            return self._scopes_above(names)
        holding = set()
        for scope in reversed(_preorder(self.root)):     # children before their parent
            if not names.isdisjoint(scope.nodes) or \
                    any(c.path in holding for c in scope.children.values()):
                holding.add(scope.path)
        return frozenset(holding)


    def _scopes_above(self, names) -> frozenset:
        holding, known, scopes = set(), self.graph.names(), self.scopes
        for name in names:
            if name not in known:
                continue
            parts = self.parts(name)
            holding.add(self.root.path)
            for i in range(1, len(parts) + 1):
                path = "/".join(parts[:i])
                if path in scopes:
                    holding.add(path)
        return frozenset(holding)


def build_hierarchy(graph: Graph, fold_constants: bool = True) -> Hierarchy:
    """The hierarchy of `graph` (about a second on 300k nodes: build it off the GUI thread).
    Its constants, badges and edges come from the graph's columns (view_columns: no Node
    object made), unless node names repeat (then by name, walking the nodes)."""
    columnar = not graph.duplicate_names
    # a big graph's scope tree made on another thread meanwhile: its numpy steps release
    # the GIL, and once the graph is read the reader's core is free (300k blocks: ~10 % of
    # this, which runs between the last piece read and the first picture)
    aside = _aside(graph.scope_tree) if columnar and len(graph) >= view_columns.NUMPY_FROM \
        and graph._scope_root is None else None
    if columnar:
        consts = view_columns.const_sources(graph)
        folded, readers, folded_at, reader_at = view_columns.fold(graph, consts)
    else:
        consts = const_sources(graph)
        folded, readers = fold_constants_into_badges(graph, consts)
    graph.op_counts()      # counted here, off the GUI thread (the legend shows them)
    badge_sources = readers
    if not fold_constants:
        folded, badge_sources, folded_at = set(), {}, []
    marks = _marks(graph, reader_at, folded_at) if columnar else None
    if aside is not None:
        aside.wait()
    root = graph.scope_tree()      # (made aside, or here: what failed there raises here)
    tree = ScopeTree.of(root) if columnar and marks is not None else None
    if tree is not None:      # a big graph: its scope tree, groups and statistics as columns
        groups = ColumnGroups(view_columns._numpy(), graph, tree, marks[1])
        scopes = ScopeMap(groups.root, len(groups.columns.paths))
    else:
        groups = Groups(graph, root, folded)
        scopes = {s.path: s for s in groups.root.walk()}
    memo: dict = {"bands": groups.bands, "columns": getattr(groups, "columns", None)}
    if columnar:
        edges, *memo["edge_index"] = view_columns.edges(graph, folded_at)
    else:
        known = graph.names()
        edges = [(ref.node, ref.port, node.name, ref.control) for node in graph.nodes
                 for ref in node.inputs if ref.node in known and ref.node not in folded]
    stats = scope_statistics(graph, groups.root, folded, readers, marks, memo["columns"])
    return Hierarchy(graph, fold_constants, consts, folded, badge_sources,
                     groups.root, scopes, groups.parts, groups.labels, stats, edges, memo)


def _aside(work):
    """work() started on a thread of the runtime's pool (an Event set once it is over; what
    it raises is left to the caller's own call of it: a graph's scope tree is made once, by
    whichever call comes first)."""
    def run():
        try:
            work()
        except Exception:  # noqa: BLE001  (the caller's call raises it again)
            pass

    return threads.start(run, "hierarchy-aside")


def _marks(graph, reader_at, folded_at):
    """(is_reader, is_folded) by node index as numpy bools, for a big graph; else None."""
    if len(graph) < view_columns.NUMPY_FROM:
        return None
    np = view_columns._numpy()
    out = np.zeros(len(graph), bool), np.zeros(len(graph), bool)
    out[0][np.asarray(reader_at, np.int64)] = True
    out[1][np.asarray(folded_at, np.int64)] = True
    return out


def scope_statistics(graph: Graph, root, folded, readers, marks=None, columns=None) -> dict:
    """{path: ScopeStats} of every scope, children counted into their parents (readers: the
    nodes that read a constant by data; marks: the same and `folded` as node index masks,
    else made from the names; columns: the grouped tree's, else made from `root`). Op ties
    keep the order of nodes_under(path). One pass, children before their parent, plain
    dicts (a Counter per scope costs twice as much); a big graph's counts by whole-array
    steps (scope_stats.scope_statistics)."""
    if len(graph) >= view_columns.NUMPY_FROM:
        np = view_columns._numpy()
        if marks is None:
            index, n = graph._index, len(graph)
            marks = np.zeros(n, bool), np.zeros(n, bool)
            for mask, names in zip(marks, (readers, folded)):
                mask[np.fromiter(map(index.__getitem__, names), np.int64, len(names))] = True
        if columns is None:
            columns = scope_stats.columns_of(np, graph, root)
        found = scope_stats.scope_statistics(np, graph, columns, marks, summary_of,
                                             ScopeStats)
        if found is not None:
            return found
    reading = readers.keys() if isinstance(readers, dict) else set(readers)
    variables = VARIABLE_OPS
    index, codes, op_names = graph._index.__getitem__, graph._ops.__getitem__, graph.op_names
    counts: dict = {}        # path -> {op: nodes}, until its parent has taken it
    facts: dict = {}         # path -> (count, signature, mix, category, reads, shows)
    known: dict = {}         # {op: nodes} items in order -> (count, signature, mix, category)
    stats: dict = {}
    for scope in reversed(_preorder(root)):
        names, children = scope.nodes, scope.children
        ops: dict = {}
        get = ops.get
        for op in map(op_names.__getitem__, map(codes, map(index, names))):
            ops[op] = get(op, 0) + 1
        reads = shows = False
        if children:
            alike: dict = {}
            for child in reversed(children.values()):   # nodes_under's order
                for op, n in counts.pop(child.path).items():
                    ops[op] = get(op, 0) + n
                child_facts = facts[child.path]
                reads, shows = reads or child_facts[4], shows or child_facts[5]
                alike[child_facts[1]] = alike.get(child_facts[1], 0) + 1
            for child in children.values():      # the children's stats, now alike is known
                child_facts = facts.pop(child.path)
                stats[child.path] = ScopeStats(*child_facts, alike[child_facts[1]])
        # its own nodes, unless a child already answers (a walk of names: the costly part)
        reads = reads or not variables.isdisjoint(ops) or not reading.isdisjoint(names)
        shows = shows or not folded.issuperset(names)
        counts[scope.path] = ops
        ordered = tuple(ops.items())
        summary = known.get(ordered)
        if summary is None:    # repeated blocks share it
            summary = known[ordered] = summary_of(ordered)
        facts[scope.path] = summary + (reads, shows)
    stats[root.path] = ScopeStats(*facts[root.path])
    return stats


def summary_of(ordered: tuple) -> tuple:
    """(count, signature, mix, category) of a scope's ((op, nodes), ...) in nodes_under's
    order of first sight."""
    shown = [op for op, _ in sorted(ordered, key=_count_of, reverse=True)
             if op not in ("Const", "Identity")][:3]   # Counter.most_common's order
    return (sum(map(_count_of, ordered)), tuple(sorted(ordered)), ", ".join(shown),
            op_categories.main_category(dict(ordered)))


def scope_params(hierarchy: Hierarchy) -> dict:
    """{scope path: parameters under it}, each weight in one place (weight_homes), summed
    up the scopes the canvas draws (groups of a flat scope included). Reads every constant's
    facts (Graph.const_facts) the first time. Counted once per hierarchy: every layout
    cache copy and thread shares it (it depends on nothing else)."""
    found = hierarchy.memo.get("params")
    if found is not None:
        return found
    graph = hierarchy.graph
    index, extra = graph._index, hierarchy.group_parts
    paths, ids = graph.scope_ids()
    where: dict = {}      # (scope id, groups) -> [parameters, a home drawn there]
    for home, elements in weight_homes(graph).items():
        scope = ids[index[home]]
        key = (home,) if not paths[scope] and "/" in home else (scope, extra.get(home))
        place = where.get(key)    # the homes of one place summed first: its parts once
        if place is None:
            where[key] = [elements, home]
        else:
            place[0] += elements
    found = {}
    for elements, home in where.values():
        parts = hierarchy.parts(home)
        for depth in range(len(parts) + 1):
            key = "/".join(parts[:depth])
            found[key] = found.get(key, 0) + elements
    hierarchy.memo["params"] = found
    return found


def edge_groups(hierarchy: Hierarchy) -> tuple:
    """(containers, groups): every edge grouped by the scopes its two ends are drawn in,
    made once per hierarchy (any thread; a picture then walks groups, not 50k edges).
    containers: the parts (hierarchy.parts) of each place nodes are drawn in; groups: a
    view_columns.EdgeGroups {(container of src, container of dst, control): [position,
    ...]}, positions in hierarchy.edges, each group in edge order (a big graph's:
    view_columns.edge_groups)."""
    found = hierarchy.memo.get("edge_groups")
    if found is not None:
        return found
    columns = hierarchy.memo.get("edge_index")
    if columns is not None and len(hierarchy.edges) >= view_columns.NUMPY_FROM:
        found = hierarchy.memo["edge_groups"] = view_columns.edge_groups(hierarchy, *columns)
        return found
    containers: list = []
    index: dict = {}           # parts tuple -> its container's number
    where: dict = {}           # node -> its container's number
    groups: dict = {}
    parts = hierarchy.parts
    for position, (src, _, dst, control) in enumerate(hierarchy.edges):
        ends = []
        for name in (src, dst):
            k = where.get(name)
            if k is None:
                key = tuple(parts(name))
                k = index.get(key)
                if k is None:
                    k = index[key] = len(containers)
                    containers.append(key)
                where[name] = k
            ends.append(k)
        group = groups.get((ends[0], ends[1], control))
        if group is None:
            group = groups[(ends[0], ends[1], control)] = []
        group.append(position)
    positions, starts, stops = [], [], []
    for group in groups.values():
        starts.append(len(positions))
        positions += group
        stops.append(len(positions))
    keys = list(zip(*groups)) or [(), (), ()]
    found = (containers, view_columns.EdgeGroups(*map(list, keys), positions, starts, stops))
    hierarchy.memo["edge_groups"] = found
    return found


def params_deferred(hierarchy: Hierarchy, above: int) -> bool:
    """True when counting parameters would first read the facts of more than `above`
    constants (Graph.const_facts, not read yet)."""
    graph = hierarchy.graph
    return not graph.const_facts_ready and graph.op_counts().get("Const", 0) > above


def outermost_collapsed(parts: list, expanded) -> str | None:
    """The item id of the outermost scope among `parts` that is not expanded, if any."""
    for i in range(1, len(parts) + 1):
        path = "/".join(parts[:i])
        if path not in expanded:
            return scope_id(path)
    return None


def _preorder(root) -> list:
    """Every scope, each before its children (a stack: the last child first)."""
    order, stack = [], [root]
    while stack:
        scope = stack.pop()
        order.append(scope)
        stack.extend(scope.children.values())
    return order
