"""A big graph's hierarchy makes its scope tree on another thread while it folds the
constants (hierarchy._aside): the same hierarchy as with the tree made first, and what
fails there raises from build_hierarchy as before."""

from __future__ import annotations

import threading

import pytest

from inspector.core.model import scope_grouping
from inspector.core.model.graph import Graph
from inspector.core.view import view_columns
from inspector.core.view.hierarchy import build_hierarchy
from tests.core.test_view_columns import _graph_def


def test_the_scope_tree_is_made_aside_and_the_hierarchy_is_the_same(monkeypatch):
    where = []
    real = scope_grouping.scope_tree
    monkeypatch.setattr(scope_grouping, "scope_tree", lambda *a: where.append(
        threading.current_thread().name) or real(*a))
    gd = _graph_def(view_columns.NUMPY_FROM + 500, 3)
    aside = build_hierarchy(Graph(gd))
    assert where == ["hierarchy-aside"]
    first = Graph(gd)
    first.scope_tree()              # made before: nothing is made aside
    made_first = build_hierarchy(first)
    assert where[1:] == ["MainThread"]
    assert _facts(aside) == _facts(made_first)


def _facts(h) -> tuple:
    return ([(p, s.nodes, list(s.children)) for p, s in h.scopes.items()],
            list(h.stats.items()), h.edges, h.group_parts, h.group_labels,
            sorted(h.consts), sorted(h.badge_sources.items()))


def test_a_small_graph_makes_no_thread(monkeypatch):
    where = []
    real = scope_grouping.scope_tree
    monkeypatch.setattr(scope_grouping, "scope_tree", lambda *a: where.append(
        threading.current_thread().name) or real(*a))
    build_hierarchy(Graph(_graph_def(300, 3)))
    assert where == ["MainThread"]


def test_what_fails_aside_raises_from_build_hierarchy(monkeypatch):
    def broken(*args):
        raise ValueError("no tree")

    monkeypatch.setattr(scope_grouping, "scope_tree", broken)
    with pytest.raises(ValueError, match="no tree"):
        build_hierarchy(Graph(_graph_def(view_columns.NUMPY_FROM + 500, 3)))
