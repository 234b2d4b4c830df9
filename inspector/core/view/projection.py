"""What is drawn of a hierarchy: project(hierarchy, expanded, direction, shapes, cache) ->
Scene. Nodes and collapsed scopes become items, open scopes frames laid out one scope at a
time (layout.py), edges between collapsed scopes are aggregated. The only thing it keeps is
what it writes into the LayoutCache it is given: each scope's layout keyed by everything that
layout depends on, the badges made, the parameter counts."""

from __future__ import annotations

from collections import Counter

from inspector.core.analysis.glossary import scope_caption
from inspector.core.analysis.summary import tensor_label
from inspector.core.model import op_categories
from inspector.core.model.inputs import child_key, path_parts
from inspector.core.runtime import pieces
from inspector.core.runtime.job import NO_JOB, Job
from inspector.core.view.hierarchy import (
    Hierarchy,
    edge_groups,
    outermost_collapsed,
    scope_params,
)
from inspector.core.view.layout import LayoutResult, layered_layout
from inspector.core.view.owner_pairs import (
    _count,
    count_edges,
    in_graph_order,
    owner_pairs_on_arrays,
)
from inspector.core.view.scene import (
    Scene,
    VisibleEdge,
    VisibleItem,
    is_scope,
    scope_id,
)

NODE_H, SCOPE_H, HEADER, PAD, CHAR_W = 38.0, 46.0, 22.0, 14.0, 7.0


class LayoutCache:
    """What project() keeps between pictures of one hierarchy: scope layouts by key (path,
    direction, the children's sizes, the edges between them), badges by node (parameters by
    scope are counted once per hierarchy: hierarchy.scope_params). Written by one thread: a task works on a copy() and the owner takes
    it back when the task is done; freeze() makes a cache read-only (a copy is writable)."""

    __slots__ = ("hierarchy", "layouts", "badges", "frozen")

    def __init__(self, hierarchy: Hierarchy, layouts=None, badges=None):
        self.hierarchy = hierarchy
        self.layouts: dict = layouts if layouts is not None else {}
        self.badges: dict = badges if badges is not None else {}
        self.frozen = False

    def copy(self) -> LayoutCache:
        return LayoutCache(self.hierarchy, dict(self.layouts), dict(self.badges))

    def freeze(self) -> LayoutCache:
        self.frozen = True
        return self

    def _writable(self) -> None:
        if self.frozen:
            raise RuntimeError("this LayoutCache is frozen (shared): project into a copy()")

    def layout(self, key, make) -> LayoutResult:
        """The layout kept under `key`, else make() kept."""
        found = self.layouts.get(key)
        if found is None:
            self._writable()
            found = self.layouts[key] = make()
        return found

    def badges_of(self, name: str) -> list:
        """The badges node `name` shows (made once; [] for most nodes)."""
        found = self.badges.get(name)
        if found is None:
            if name not in self.hierarchy.badge_sources:
                return []
            self._writable()
            found = self.badges[name] = self.hierarchy.badges(name)
        return found

    def scope_params(self) -> dict:
        """{scope path: parameters}, counted once (reads every constant's facts)."""
        return scope_params(self.hierarchy)     # counted once per hierarchy, shared


def project(hierarchy: Hierarchy, expanded, direction: str = "TB", shapes: dict | None = None,
            cache: LayoutCache | None = None, job: Job = NO_JOB,
            count_params: bool = True) -> Scene:
    """The scene of `hierarchy` with the `expanded` scope paths open, laid out top to bottom
    ("TB") or left to right ("LR"); edges labelled with `shapes` (node -> output shapes) when
    known. Scope layouts found in `cache` are reused, new ones kept there. Without
    count_params scopes show no parameter count yet (params None, boxes sized for one)."""
    if cache is None:
        cache = LayoutCache(hierarchy)
    elif cache.hierarchy is not hierarchy:
        raise ValueError("this LayoutCache belongs to another hierarchy")
    elif cache.frozen:
        raise ValueError("this LayoutCache is frozen (shared): project into its copy()")
    job.check()
    made = _Projection(hierarchy, expanded, direction, shapes, cache, job, count_params)
    scene = made.scene()
    pieces.emptied(made.routes, made.exp)    # freed at once: 6 ms of the GIL at 30k scopes
    return scene


class _Projection:
    """One call of project(): its inputs and what it works out on the way (which item owns
    each node, the routes of each scope), dropped when the scene is made."""

    def __init__(self, hierarchy, expanded, direction, shapes, cache, job, count_params):
        self.h, self.cache, self.job = hierarchy, cache, job
        self.exp = set(expanded) | {""}
        self.direction, self.lr, self.shapes = direction, direction == "LR", shapes
        self.count_params = count_params
        self.routes: dict = {}          # scope path -> {(child, child): bend points}

    def scene(self) -> Scene:
        pairs = self.owner_pairs()
        levels = self.edges_by_level(pairs)
        self.job.check()
        items, w, h = self.layout_scope("", levels)
        scene = Scene(items, self.visible_edges(items, pairs), w, h, self.direction)
        pieces.emptied(pairs, levels)   # not in one go: see pieces.emptied
        return scene

    # -- which item shows each node -------------------------------------------------------
    def owner_pairs(self) -> dict:
        """{(a, b, control): [edges, src, port of the first]} for edges between two different
        visible items, in graph order (one pass: the levels and the drawn edges both use it).
        Walks the edges grouped by where their ends are drawn (edge_groups, made once): a
        group between two collapsed scopes counts whole, only groups touching an open
        scope's own nodes are walked edge by edge."""
        containers, groups = edge_groups(self.h)
        if getattr(groups, "arrays", None) is not None:
            return owner_pairs_on_arrays(containers, groups, self.exp, self.h.edges,
                                         self.job or NO_JOB)
        exp, all_edges = self.exp, self.h.edges
        shown: list = [None] * len(containers)   # container -> its collapsed owner or ""
        pairs: dict = {}                         # (a, b, control) -> [n, src, port, first]
        check = (self.job or NO_JOB).check
        positions = groups.positions             # a group's edges: positions[lo:hi]
        for k, (ka, kb, control, lo, hi) in enumerate(groups.spans()):
            if not k & 1023:     # a superseded layout (n pressed again) stops here: it would
                check()          # compete with the GUI thread and the next one for the GIL
            oa = shown[ka]
            if oa is None:
                oa = shown[ka] = outermost_collapsed(containers[ka], exp) or ""
            ob = shown[kb]
            if ob is None:
                ob = shown[kb] = outermost_collapsed(containers[kb], exp) or ""
            if oa and ob:
                if oa != ob:
                    position = positions[lo]
                    src, port, _, _ = all_edges[position]
                    _count(pairs, (oa, ob, control), hi - lo, src, port, position)
                continue
            count_edges(pairs, positions[lo:hi], all_edges, oa, ob, control)
        return in_graph_order(pairs)

    def edges_by_level(self, pairs: dict) -> dict:
        """Aggregated data edges between visible items, grouped by the scope they live in."""
        levels: dict = {}
        for (a, b, control), (count, _, _) in pairs.items():
            if control:
                continue
            common = self.common_scope(a, b)
            ca, cb = self.child_under(common, a), self.child_under(common, b)
            if ca != cb:
                levels.setdefault(common, Counter())[(ca, cb)] += count
        return levels

    # -- items ----------------------------------------------------------------------------
    def node_item(self, name: str) -> VisibleItem:
        node = self.h.graph.node(name)
        short = node.short_name
        w = max(len(node.op) * 7.4, len(short) * 5.8, 48) + 2 * PAD
        badges = self.cache.badges_of(name)
        h = NODE_H + (12.0 if badges else 0.0)
        return VisibleItem(name, "node", node.op, short, op_categories.category(node.op),
                           w=min(w, 280.0), h=h, badges=badges)

    def scope_item(self, path: str) -> VisibleItem:
        stats = self.h.stats[path]
        name = self.h.group_labels.get(path) or child_key(path)   # "/x": not "x"
        if self.count_params:
            params = self.cache.scope_params().get(path, 0)
            params_shown = params > 0
        else:    # not counted yet: sized as it will be once counted
            params, params_shown = None, stats.reads_const
        mix = stats.mix
        sub = mix + (" · 000.00k params" if params_shown else "")
        w = max((len(name) + 6) * 7.4, len(sub) * 5.8, 80) + 2 * PAD
        caption = scope_caption(dict(stats.signature), stats.alike, name)
        return VisibleItem(scope_id(path), "scope", name, mix, stats.category, w=min(w, 320.0),
                           h=SCOPE_H, child_count=stats.count, params=params, op_mix=mix,
                           alike=stats.alike, caption=caption)

    # -- layout ---------------------------------------------------------------------------
    def layout_scope(self, path: str, levels: dict) -> tuple:
        """(items placed inside the scope, its width, its height); open child scopes first."""
        kids = self.h.children(path)
        items, sizes = {}, {}
        for kid in kids:
            if is_scope(kid):
                self.job.check()     # scope items cost a walk of their nodes
            if is_scope(kid) and kid[:-1] in self.exp:
                sub_items, w, h = self.layout_scope(kid[:-1], levels)
                frame = self.scope_item(kid[:-1])
                title = (len(frame.label) + len(str(frame.child_count)) + 9) * 8.2 + 16
                frame.kind, frame.w, frame.h = "frame", max(w + 2 * PAD, title), \
                    h + HEADER + 2 * PAD
                items[kid] = (frame, sub_items)
            elif is_scope(kid):
                items[kid] = (self.scope_item(kid[:-1]), {})
            else:
                items[kid] = (self.node_item(kid), {})
            sizes[kid] = (items[kid][0].w, items[kid][0].h)
        edges = list(levels.get(path, {}))
        key = (path, self.lr, tuple(sorted(sizes.items())), tuple(sorted(edges)))
        result = self.cache.layout(key, lambda: _layered(kids, sizes, edges, self.lr, self.job))
        placed = {}
        for kid, (item, sub) in items.items():
            x, y = result.positions[kid]
            item.x, item.y = x, y
            placed[kid] = item
            for sid, sitem in sub.items():
                sitem.x += x + PAD
                sitem.y += y + HEADER + PAD
                placed[sid] = sitem
        self.routes[path] = result.routes
        return placed, result.width, result.height

    def visible_edges(self, items: dict, pairs: dict) -> list:
        out = []
        for (a, b, control), (count, src, port) in pairs.items():
            if a not in items or b not in items:
                continue
            label = "" if control or count > 1 else tensor_label(self.h.graph, src, port,
                                                                 self.shapes)
            common = self.common_scope(a, b)
            route = self.routes.get(common, {}).get((self.child_under(common, a),
                                                     self.child_under(common, b)), [])
            offset = _frame_origin(items, common)
            pts = [(px + offset[0], py + offset[1]) for px, py in route]
            out.append(VisibleEdge(a, b, count, control, label if count == 1 else f"{count}x",
                                   pts))
        return out

    # -- where items sit in the scope tree --------------------------------------------------
    def parents(self, item: str) -> list:
        """Scopes containing a visible item (a node name or a scope id), outermost first."""
        return path_parts(item[:-1])[:-1] if is_scope(item) else self.h.parts(item)

    def common_scope(self, a: str, b: str) -> str:
        out = []
        for x, y in zip(self.parents(a), self.parents(b)):
            if x != y:
                break
            out.append(x)
        return "/".join(out)

    def child_under(self, scope: str, item: str) -> str:
        """The child of `scope` (a node name or scope id) that contains `item`."""
        depth = len(path_parts(scope))
        parents = self.parents(item)
        if len(parents) <= depth:
            return item  # the item sits directly in `scope`
        return "/".join(parents[:depth + 1]) + "/"


def _layered(kids: list, sizes: dict, edges: list, lr: bool, job: Job) -> LayoutResult:
    if not lr:
        return layered_layout(kids, sizes, edges, job)
    # left to right: laid out top to bottom with width and height swapped, then transposed
    flipped = layered_layout(kids, {k: (h, w) for k, (w, h) in sizes.items()}, edges, job)
    return LayoutResult({k: (y, x) for k, (x, y) in flipped.positions.items()}, flipped.height,
                        flipped.width, {e: [(y, x) for x, y in pts]
                                        for e, pts in flipped.routes.items()})


def _frame_origin(items: dict, path: str) -> tuple:
    if path == "":
        return 0.0, 0.0
    frame = items.get(scope_id(path))
    return (frame.x + PAD, frame.y + HEADER + PAD) if frame else (0.0, 0.0)
