"""Kahn's topological walk with a LIFO ready stack, the walk TensorFlow's SortByExecutionOrder
makes: one loop for execution order (model.execution_order) and data order
(analysis.data_order), which differ only in what a node waits for."""

from __future__ import annotations


def lifo_kahn(pending: list, starts, readers) -> list:
    """Node indexes, each after what it waits for: node i waits for pending[i] more of its
    inputs (consumed) and is read by readers[starts[i]:starts[i + 1]]. Ready nodes start in
    index order and the last made ready goes first. Nodes that never become ready (a cycle,
    or waiting on one) are left out: the caller says what that means."""
    ready = [i for i, k in enumerate(pending) if not k]
    order = []
    pop, push, add = ready.pop, ready.append, order.append
    while ready:
        i = pop()
        add(i)
        for c in readers[starts[i]:starts[i + 1]]:
            pending[c] -= 1
            if not pending[c]:
                push(c)
    return order


def csr(users: list) -> tuple:
    """(starts, readers) of a list of per-node reader lists."""
    starts, total = [0], 0
    for u in users:
        total += len(u)
        starts.append(total)
    return starts, [c for u in users for c in u]
