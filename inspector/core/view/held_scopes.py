"""The scopes (and groups) holding a member of a NodeSet, on a big graph's grouped tree as
columns (hierarchy.memo["columns"]: each node's leaf scope, each scope's parent): the leaf
scopes of the members, then their parents a level a step. Hierarchy.scopes_holding walks
every scope's node list instead (a strip preview's dimming at 1M nodes made each scope's
list: ~90 MB kept in the window)."""

from __future__ import annotations

from inspector.core.model import graph_index
from inspector.core.model.lazy_numpy import distinct
from inspector.core.runtime import pieces


def scopes_holding(columns, node_set) -> frozenset:
    """The paths of every scope of `columns` holding a member of `node_set` (a NodeSet of
    the same graph)."""
    np = graph_index.numpy()
    members = np.frombuffer(node_set.mask, np.uint8) == node_set.want
    holding = np.zeros(len(columns.paths), np.bool_)
    holding[columns.leaf[members[:len(columns.leaf)]]] = True
    todo = np.flatnonzero(holding)
    while len(todo):
        up = distinct(np, columns.parent[todo])
        up = up[up >= 0]
        todo = up[~holding[up]]
        holding[todo] = True
    return frozenset(pieces.mapped(columns.paths.__getitem__, np.flatnonzero(holding)))
