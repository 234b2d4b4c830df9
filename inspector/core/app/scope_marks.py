"""A comparison side's marks (added / removed / changed ...) and changed weights in a tree of
the scopes their nodes are drawn in, totalled once per scope: a picture walks the open scopes
only (a collapsed scope takes its totals whole), not every marked node or scope of a 50k-node
pair."""

from __future__ import annotations

from collections import Counter


class ScopeMarks:
    """Made once per side (in the comparing task): `marks` {parts: [(host, look)]} and
    `weights` {parts: changed elements}, keyed by the scope parts each node is drawn in."""

    def __init__(self, marks: dict, weights: dict):
        self.direct: dict = {}       # scope path -> [(host, look)] drawn directly in it
        self.looks: dict = {}        # scope path -> Counter of the looks under it
        self.weights: dict = {}      # scope path -> changed elements under it
        self.children: dict = {}     # scope path -> its sub-scopes with marks under them
        for parts, entries in marks.items():
            self.direct.setdefault("/".join(parts), []).extend(entries)
            for path in self._up(parts):
                self.looks.setdefault(path, Counter()).update(look for _, look in entries)
        for parts, changed in weights.items():
            for path in self._up(parts):
                self.weights[path] = self.weights.get(path, 0.0) + changed

    def _up(self, parts) -> list:
        """The scope paths holding `parts` (outermost first), linked as parent and child."""
        paths, parent = [], ""
        for i in range(1, len(parts) + 1):
            path = "/".join(parts[:i])
            self.children.setdefault(parent, set()).add(path)
            paths.append(path)
            parent = path
        return paths

    def shown(self, expanded) -> tuple:
        """(open, collapsed) for the scopes `expanded`: open [(host, look)] of the nodes in
        open scopes; collapsed {scope item id: (Counter of looks, changed elements)} of the
        outermost collapsed scopes with marks or changed weights under them (None: no
        weight under it changed)."""
        open_marks = list(self.direct.get("", ()))
        collapsed: dict = {}
        todo = [""]
        while todo:
            scope = todo.pop()
            for path in self.children.get(scope, ()):
                if path in expanded:
                    open_marks.extend(self.direct.get(path, ()))
                    todo.append(path)
                else:
                    collapsed[path + "/"] = (self.looks.get(path, Counter()),
                                             self.weights.get(path))
        return open_marks, collapsed
