"""Name scopes: the hierarchy that '/' in node names makes (Graph.scope_tree builds it)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator


@dataclass
class Scope:
    """A name-scope: child scopes and the nodes that sit directly in it."""

    path: str
    children: dict = field(default_factory=dict)
    nodes: list = field(default_factory=list)

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


def add_scope(by_path: dict, path: str) -> Scope:
    """The scope at `path`, made with any missing parents (by_path maps paths to scopes)."""
    parent_path, _, key = path.rpartition("/")
    parent = by_path.get(parent_path)
    if parent is None:
        parent = add_scope(by_path, parent_path)
    scope = parent.children[key] = by_path[path] = Scope(path)
    return scope
