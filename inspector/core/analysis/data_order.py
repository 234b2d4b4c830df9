"""Nodes in data order, each after the nodes it reads data from (Kahn's order; nodes in a
cycle last): the order static_shapes' propagation visits them in, from a graph's CSR input
arrays when it has them (shape_columns: by node index)."""

from __future__ import annotations

import numpy as np

from inspector.core.model.kahn import csr, lifo_kahn


def data_order(graph) -> list:
    """The nodes, each after its data inputs (nodes in a cycle come last, unordered)."""
    nodes = list(graph)
    if hasattr(graph, "in_src") and not graph.duplicate_names:
        pending, starts, readers = data_edges(graph)
    else:
        index = {n.name: k for k, n in enumerate(nodes)}
        pending = [0] * len(nodes)
        users: list = [[] for _ in nodes]
        for k, node in enumerate(nodes):
            for ref in node.data_inputs:
                j = index.get(ref.node)
                if j is not None:
                    pending[k] += 1
                    users[j].append(k)
        starts, readers = csr(users)
    return [nodes[k] for k in kahn_order(pending, starts, readers)]


def kahn_order(pending: list, starts, readers) -> list:
    """Node indexes, each after its data inputs (model.kahn's LIFO walk; nodes in a cycle come
    last, in index order). `pending` is consumed."""
    order = lifo_kahn(pending, starts, readers)
    if len(order) < len(pending):
        seen = set(order)
        order += [k for k in range(len(pending)) if k not in seen]
    return order


def data_edges(graph) -> tuple:
    """(pending[k]: node k's data inputs that are nodes, starts, readers: the nodes reading
    node j through one are readers[starts[j]:starts[j + 1]], in graph order) from the graph's
    CSR input arrays."""
    off, src, port = graph.in_offsets, graph.in_src, graph.in_port
    data = (port >= 0) & (src >= 0)
    reader, read = np.repeat(np.arange(len(off) - 1), np.diff(off))[data], src[data]
    readers = reader[np.argsort(read, kind="stable")].tolist()
    starts = [0] + np.cumsum(np.bincount(read, minlength=len(off) - 1)).tolist()
    return np.bincount(reader, minlength=len(off) - 1).tolist(), starts, readers
