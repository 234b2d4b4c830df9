"""What the canvas shows: nodes and name-scope boxes given which scopes are expanded,
constants folded into badges, edges aggregated between collapsed scopes, and a compound
layout computed one scope at a time and cached."""

from __future__ import annotations

import threading
from collections import Counter
from operator import attrgetter

from inspector.core.analysis.summary import tensor_label
from inspector.core.model import op_categories
from inspector.core.model.graph import MAX_SCOPE_DEPTH, Graph, scope_parts
from inspector.core.model.parameters import VARIABLE_OPS, weight_homes
from inspector.core.runtime.job import NO_JOB, Job
from inspector.core.view.badges import (
    Badge,
    badge_of,
    const_sources,
    fold_constants_into_badges,
)
from inspector.core.view.grouping import Groups
from inspector.core.view.layout import LayoutResult, layered_layout
from inspector.core.view.scene import (
    Scene,
    VisibleEdge,
    VisibleItem,
    is_scope,
    scope_id,
)

NODE_H, SCOPE_H, HEADER, PAD, CHAR_W = 38.0, 46.0, 22.0, 14.0, 7.0


class ViewModel:
    """Graph + expansion state -> Scene. Layouts of each expanded scope are cached."""

    def __init__(self, graph: Graph, fold_constants: bool = True):
        self.graph = graph
        self.fold_constants = fold_constants
        self.expanded: set = {""}
        self._cache: dict = {}
        self._consts = const_sources(graph)   # name -> Const behind it (Const, Const->Identity)
        graph.op_counts()      # counted here, off the GUI thread (the legend shows them)
        self._folded, self._badges = fold_constants_into_badges(graph, self._consts) if fold_constants else (set(), {})
        groups = Groups(graph, graph.scope_tree(), self._folded)
        self.root, self._group_parts, self._group_labels = groups.root, groups.parts, \
            groups.labels
        self._scopes = {s.path: s for s in self.root.walk()}
        self._stats: dict = {}
        self._lock = threading.Lock()
        self._exp: set = self.expanded
        # (src, src_port, dst, control) of every edge, without per-edge objects
        folded, known = self._folded, graph.names()
        if graph.dangling_inputs:
            self._edges = [(ref.node, ref.port, node.name, ref.control) for node in graph.nodes
                           for ref in node.inputs if ref.node in known and ref.node not in folded]
        else:
            self._edges = [(ref.node, ref.port, node.name, ref.control) for node in graph.nodes
                           for ref in node.inputs if ref.node not in folded]
        self._defer = False              # this scene leaves parameter counts out
        self._owner_cache: dict = {}
        self._scope_owner: dict = {}     # scope path -> its owner under self._exp ("" none)
        self.shapes: dict | None = None  # node -> output shapes, once inferred
        self.direction = "TB"            # or "LR" (left to right)

    # -- constants as badges ------------------------------------------------------------
    def const_source(self, name: str):
        """The Const behind a node that is a Const or a Const->Identity pair, else None."""
        return self._consts.get(name)

    def nodes_under(self, path: str) -> list:
        """Every node name inside a scope (recursively)."""
        out, stack = [], [self._scopes[path]] if path in self._scopes else []
        while stack:
            scope = stack.pop()
            out.extend(scope.nodes)
            stack.extend(scope.children.values())
        return out

    def scopes_holding(self, names) -> frozenset:
        """The paths of every scope (and group) with at least one of `names` inside it: one
        pass over the scope tree, so a strip preview's dimming never walks a scope's nodes on
        the GUI thread."""
        names = names if isinstance(names, (set, frozenset)) else set(names)
        order, stack = [], [self.root]
        while stack:
            scope = stack.pop()
            order.append(scope)
            stack.extend(scope.children.values())
        holding = set()
        for scope in reversed(order):     # children before their parent
            if not names.isdisjoint(scope.nodes) or \
                    any(c.path in holding for c in scope.children.values()):
                holding.add(scope.path)
        return frozenset(holding)

    def badges(self, name: str) -> list:
        found = self._badges.get(name)
        if not found:
            return []
        if not isinstance(found[0], Badge):   # made once; a race makes equal ones twice
            found = self._badges[name] = [badge_of(self._consts[c]) for c in found]
        return found

    def is_folded(self, name: str) -> bool:
        return name in self._folded

    def badge_host(self, name: str) -> str:
        """The node that shows `name`: itself, or for a constant folded into a badge, the first
        consumer carrying the badge (through Const->Identity pairs)."""
        seen, todo = {name}, [name]
        while todo:
            current = todo.pop(0)
            if current not in self._folded:
                return current
            for e in self.graph.consumers(current):
                if not e.control and e.dst not in seen:
                    seen.add(e.dst)
                    todo.append(e.dst)
        return name

    # -- expansion ----------------------------------------------------------------------
    def set_expanded(self, path: str, on: bool) -> None:
        if path == "":
            return
        if on:
            parts = path.split("/")
            for i in range(1, len(parts) + 1):
                self.expanded.add("/".join(parts[:i]))
        else:
            self.expanded = {p for p in self.expanded if p != path and not p.startswith(path + "/")}

    def parts(self, name: str) -> list:
        """The scopes a node is drawn in, outermost first: its name scopes, then the groups
        of a scope too big to show flat (see grouping.py)."""
        extra = self._group_parts.get(name)
        return scope_parts(name) + list(extra) if extra else scope_parts(name)

    def expand_to(self, node_name: str) -> None:
        scope = "/".join(self.parts(node_name))
        if scope:
            self.set_expanded(scope, True)

    def expand_all(self) -> None:
        self.expanded = set(self._scopes)

    def owner(self, name: str, expanded: set | None = None) -> str:
        """The visible item that shows node `name` (itself or its outermost collapsed scope)."""
        if expanded is None:
            hit = self._owner_cache.get(name)
            if hit is None:
                hit = self._owner_cache[name] = self._owner(name, self._exp)
            return hit
        return self._owner(name, expanded)

    def _owner(self, name: str, expanded: set) -> str:
        if expanded is self._exp and name not in self._group_parts \
                and name.count("/") <= MAX_SCOPE_DEPTH:
            # nodes of one scope share their owner: look it up by the scope's path
            scope = name.rpartition("/")[0]
            hit = self._scope_owner.get(scope)
            if hit is None:
                hit = self._scope_owner[scope] = _outermost_collapsed(
                    scope.split("/") if scope else [], expanded) or ""
            return hit or name
        return _outermost_collapsed(self.parts(name), expanded) or name

    # -- items --------------------------------------------------------------------------
    def scope_stats(self, path: str) -> tuple:
        """(nodes, parameters, main ops, category) of a scope. Each weight counts once, in
        one scope (parameters.weight_homes): a variable where it sits, a constant at its
        first reader, where its badge is drawn (slim keeps weights under variable scopes
        apart from the ops using them; a training graph's gradients read them again)."""
        if path not in self._stats:
            consts = self._consts
            nodes = self.graph.nodes_named(self.nodes_under(path))
            ops = Counter(map(_op_of, nodes))
            shown = [op for op, _ in ops.most_common() if op not in ("Const", "Identity")][:3]
            self._stats[path] = (sum(ops.values()), None, ", ".join(shown),
                                 op_categories.main_category(ops))
            self._stats[("signature", path)] = tuple(sorted(ops.items()))
            # whether it will show a parameter count (its item is sized for one): the first
            # read of a constant answers; which constants, once they are counted
            self._stats[("reads-const", path)] = any(
                node.op in VARIABLE_OPS for node in nodes) or any(
                ref.node in consts and not ref.control
                for node in nodes if node.name not in consts for ref in node.inputs)
        stats = self._stats[path]
        if stats[1] is None and not self._defer:
            params = self._weights_by_scope().get(path, 0)
            stats = self._stats[path] = (stats[0], params, stats[2], stats[3])
        return stats

    def _weights_by_scope(self) -> dict:
        """{scope path: parameters under it}, each weight in one place (weight_homes), summed
        up the scopes the canvas draws (groups of a flat scope included)."""
        found = self._stats.get("weights")
        if found is None:
            found = {}
            for home, elements in weight_homes(self.graph).items():
                parts = self.parts(home)
                for depth in range(len(parts) + 1):
                    key = "/".join(parts[:depth])
                    found[key] = found.get(key, 0) + elements
            self._stats["weights"] = found
        return found

    def params_deferred(self) -> bool:
        """True when a scene asked with defer_params leaves parameter counts out: the graph
        has more than DEFER_PARAMS_ABOVE constants whose facts are not read yet."""
        graph = self.graph
        return not graph.const_facts_ready and \
            graph.op_counts().get("Const", 0) > DEFER_PARAMS_ABOVE

    def alike(self, path: str) -> int:
        """How many sibling scopes (this one included) have exactly the same op mix: repeated
        blocks such as block_1..block_16 or Mixed_5b..Mixed_7c."""
        parent_path = path.rpartition("/")[0]
        key = ("alike-counts", parent_path)
        if key not in self._stats:     # once per parent: signatures of all its children
            counts = Counter()
            for sibling in self._scopes[parent_path].children.values():
                self.scope_stats(sibling.path)
                counts[self._stats[("signature", sibling.path)]] += 1
            self._stats[key] = counts
        self.scope_stats(path)
        return self._stats[key][self._stats[("signature", path)]]

    def _node_item(self, name: str) -> VisibleItem:
        node = self.graph.node(name)
        short = node.short_name
        w = max(len(node.op) * 7.4, len(short) * 5.8, 48) + 2 * PAD
        badges = self.badges(name)
        h = NODE_H + (12.0 if badges else 0.0)
        return VisibleItem(name, "node", node.op, short, op_categories.category(node.op),
                           w=min(w, 280.0), h=h, badges=badges)

    def _scope_item(self, path: str) -> VisibleItem:
        count, params, mix, cat = self.scope_stats(path)
        name = self._group_labels.get(path) or path.rpartition("/")[2]
        if params is None:    # not counted yet: sized as it will be once counted
            params_shown = self._stats[("reads-const", path)]
        else:
            params_shown = params > 0
        sub = mix + (" · 000.00k params" if params_shown else "")
        w = max((len(name) + 6) * 7.4, len(sub) * 5.8, 80) + 2 * PAD
        from inspector.core.analysis.glossary import scope_caption

        alike = self.alike(path)
        caption = scope_caption(dict(self._stats[("signature", path)]), alike, name)
        return VisibleItem(scope_id(path), "scope", name, mix, cat, w=min(w, 320.0), h=SCOPE_H,
                           child_count=count, params=params, op_mix=mix, alike=alike,
                           caption=caption)

    def _children(self, path: str) -> list:
        scope = self._scopes[path]
        out = [scope_id(c.path) for c in scope.children.values() if self._shows_anything(c.path)]
        out += [n for n in scope.nodes if n not in self._folded]
        return out

    def _shows_anything(self, path: str) -> bool:
        """True when a scope holds a node that is not folded away (a scope of constants
        shows nothing); stops at the first such node."""
        key = ("shows", path)
        hit = self._stats.get(key)
        if hit is None:
            scope, folded = self._scopes[path], self._folded
            hit = self._stats[key] = any(n not in folded for n in scope.nodes) or any(
                self._shows_anything(c.path) for c in scope.children.values())
        return hit

    # -- layout -------------------------------------------------------------------------
    def _owner_pairs(self) -> dict:
        """{(a, b, control): [edges, src, port of the first]} for edges between two different
        visible items, in graph order (one pass: the levels and the drawn edges both use it)."""
        cache, owner_of, exp = self._owner_cache, self._owner, self._exp
        pairs: dict = {}
        for src, port, dst, control in self._edges:
            a = cache.get(src)
            if a is None:
                a = cache[src] = owner_of(src, exp)
            b = cache.get(dst)
            if b is None:
                b = cache[dst] = owner_of(dst, exp)
            if a != b:
                hit = pairs.get((a, b, control))
                if hit is None:
                    pairs[(a, b, control)] = [1, src, port]
                else:
                    hit[0] += 1
        return pairs

    def _edges_by_level(self, pairs: dict) -> dict:
        """Aggregated data edges between visible items, grouped by the scope they live in."""
        levels: dict = {}
        for (a, b, control), (count, _, _) in pairs.items():
            if control:
                continue
            common = self._common_scope(a, b)
            ca, cb = self._child_under(common, a), self._child_under(common, b)
            if ca != cb:
                levels.setdefault(common, Counter())[(ca, cb)] += count
        return levels

    def _layout_scope(self, path: str, levels: dict, job: Job) -> tuple:
        kids = self._children(path)
        items, sizes = {}, {}
        for kid in kids:
            if is_scope(kid):
                job.check()     # scope items cost a walk of their nodes
            if is_scope(kid) and kid[:-1] in self._exp:
                sub_items, w, h = self._layout_scope(kid[:-1], levels, job)
                frame = self._scope_item(kid[:-1])
                title = (len(frame.label) + len(str(frame.child_count)) + 9) * 8.2 + 16
                frame.kind, frame.w, frame.h = "frame", max(w + 2 * PAD, title), \
                    h + HEADER + 2 * PAD
                items[kid] = (frame, sub_items)
            elif is_scope(kid):
                items[kid] = (self._scope_item(kid[:-1]), {})
            else:
                items[kid] = (self._node_item(kid), {})
            sizes[kid] = (items[kid][0].w, items[kid][0].h)
        edges = list(levels.get(path, {}))
        lr = self.direction == "LR"
        key = (path, lr, tuple(sorted(sizes.items())), tuple(sorted(edges)))
        result = self._cache.get(key)
        if result is None:
            if lr:  # lay out top-to-bottom with width and height swapped, then transpose
                flipped = layered_layout(kids, {k: (h, w) for k, (w, h) in sizes.items()},
                                         edges, job)
                result = LayoutResult(
                    {k: (y, x) for k, (x, y) in flipped.positions.items()}, flipped.height,
                    flipped.width, {e: [(y, x) for x, y in pts]
                                    for e, pts in flipped.routes.items()})
            else:
                result = layered_layout(kids, sizes, edges, job)
            self._cache[key] = result
        placed = {}
        for kid, (item, sub) in items.items():
            x, y = result.positions[kid]
            item.x, item.y = x, y
            placed[kid] = item
            for sid, sitem in sub.items():
                sitem.x += x + PAD
                sitem.y += y + HEADER + PAD
                placed[sid] = sitem
        self._routes[path] = result.routes
        return placed, result.width, result.height

    def scene(self, expanded=None, job: Job = NO_JOB, defer_params: bool = False) -> Scene:
        """Lay out what is visible (only changed scopes are laid out again). Thread-safe:
        pass a snapshot of the expanded scopes when calling from a worker. With defer_params
        a big graph's scopes show no parameter count (params None) until its constants have
        been read (Graph.const_facts): the first picture does not wait for that pass."""
        with self._lock:
            job.check()      # a request superseded while it waited for the lock
            self._defer = defer_params and self.params_deferred()
            self._exp = set(self.expanded if expanded is None else expanded) | {""}
            self._owner_cache, self._scope_owner = {}, {}
            self._routes: dict = {}
            pairs = self._owner_pairs()
            levels = self._edges_by_level(pairs)
            job.check()
            items, w, h = self._layout_scope("", levels, job)
            return Scene(items, self._visible_edges(items, pairs), w, h, self.direction)

    def _visible_edges(self, items: dict, pairs: dict) -> list:
        out = []
        for (a, b, control), (count, src, port) in pairs.items():
            if a not in items or b not in items:
                continue
            label = "" if control or count > 1 else tensor_label(self.graph, src, port,
                                                                 self.shapes)
            common = self._common_scope(a, b)
            route = self._routes.get(common, {}).get((self._child_under(common, a),
                                                      self._child_under(common, b)), [])
            offset = self._frame_origin(items, common)
            pts = [(px + offset[0], py + offset[1]) for px, py in route]
            out.append(VisibleEdge(a, b, count, control, label if count == 1 else f"{count}x",
                                   pts))
        return out

    def _parents(self, item: str) -> list:
        """Scopes containing a visible item (a node name or a scope id), outermost first."""
        return item[:-1].split("/")[:-1] if is_scope(item) else self.parts(item)

    def _common_scope(self, a: str, b: str) -> str:
        out = []
        for x, y in zip(self._parents(a), self._parents(b)):
            if x != y:
                break
            out.append(x)
        return "/".join(out)

    def _child_under(self, scope: str, item: str) -> str:
        """The child of `scope` (a node name or scope id) that contains `item`."""
        depth = len(scope.split("/")) if scope else 0
        parents = self._parents(item)
        if len(parents) <= depth:
            return item  # the item sits directly in `scope`
        return "/".join(parents[:depth + 1]) + "/"

    @staticmethod
    def _frame_origin(items: dict, path: str) -> tuple:
        if path == "":
            return 0.0, 0.0
        frame = items.get(scope_id(path))
        return (frame.x + PAD, frame.y + HEADER + PAD) if frame else (0.0, 0.0)


_op_of = attrgetter("op")
DEFER_PARAMS_ABOVE = 20_000   # constants: fewer are read with the first scene (~50 ms)


def _outermost_collapsed(parts: list, expanded: set) -> str | None:
    """The item id of the outermost scope among `parts` that is not expanded, if any."""
    for i in range(1, len(parts) + 1):
        path = "/".join(parts[:i])
        if path not in expanded:
            return scope_id(path)
    return None
