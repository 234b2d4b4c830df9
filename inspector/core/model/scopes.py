"""Name scopes: the hierarchy that '/' in node names makes (Graph.scope_tree builds it)."""

from __future__ import annotations

from typing import Iterator

from inspector.core.model.inputs import child_key, path_parts


class Scope:
    """A name-scope: child scopes and the nodes that sit directly in it. A big graph's
    scopes come from a columnar tree (scope_tree.ScopeTree): their `children` and `nodes`
    are made on first use, so a picture makes the scopes it draws, not every scope."""

    __slots__ = ("path", "_children", "_nodes", "_maker", "_k")

    def __init__(self, path: str, children: dict | None = None, nodes: list | None = None,
                 maker=None, k: int = -1):
        self.path = path
        self._children = {} if children is None and maker is None else children
        self._nodes = [] if nodes is None and maker is None else nodes
        self._maker, self._k = maker, k     # maker.children_of(k) / maker.nodes_of(k)

    @property
    def children(self) -> dict:
        found = self._children
        if found is None:      # two threads may both make it: the same scope objects
            found = self._children = self._maker.children_of(self._k)
        return found

    @children.setter
    def children(self, value: dict) -> None:
        self._children = value

    @property
    def nodes(self) -> list:
        found = self._nodes
        if found is None:
            found = self._nodes = self._maker.nodes_of(self._k)
        return found

    @nodes.setter
    def nodes(self, value: list) -> None:
        self._nodes = value

    @property
    def name(self) -> str:
        return self.path.rpartition("/")[2]

    def node_count(self) -> int:
        return len(self.nodes) + sum(c.node_count() for c in self.children.values())

    def walk(self) -> Iterator["Scope"]:
        """This scope and every scope under it, parents before children, in name order."""
        stack = [self]
        while stack:
            scope = stack.pop()
            yield scope
            stack.extend(reversed(scope.children.values()))

    def __eq__(self, other) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.path, self.children, self.nodes) == (other.path, other.children,
                                                           other.nodes)

    __hash__ = None

    def __repr__(self) -> str:
        return f"Scope({self.path!r})"


def scope_at(root: Scope, path: str, default=KeyError):
    """The scope at `path` under `root` (its parts' keys, inputs.path_parts: "//two" is
    "two" in "/"); `default` when there is none, else KeyError."""
    scope = root
    for part in path_parts(path):
        found = scope.children.get(part)
        if found is None:
            if default is KeyError:
                raise KeyError(path)
            return default
        scope = found
    return scope


def add_scope(by_path: dict, path: str) -> Scope:
    """The scope at `path`, made with any missing parents (by_path maps paths to scopes)."""
    parent_path, key = path.rpartition("/")[0], child_key(path)
    parent = by_path.get(parent_path)
    if parent is None:
        parent = add_scope(by_path, parent_path)
    scope = parent.children[key] = by_path[path] = Scope(path)
    return scope
