"""Where a model's bytes go, as use cases: `graphdef-inspector sizes` and the Sizes panel's
treemap measure alike (measure: each node's bytes in the file, grouped by scope, op type or
dtype), and constants stored twice are looked for on request (it reads their bytes). In the
window the results go to the state (`state.sizes`, `state.duplicates`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from inspector.core.runtime import gc_policy
from inspector.core.runtime.job import NO_JOB, Job

BY = ("scope", "op", "dtype")


@dataclass
class Measured:
    """One graph's bytes: the group tree, node -> op, the biggest node of each group (op
    type or dtype), the node bytes' total and the whole count (sizes.Sizes)."""
    root: object
    ops: dict
    biggest: dict
    total: int
    sizes: object = None


def measure(graph, by: str = "scope", file_size: int = 0) -> Measured:
    """The bytes of every node of `graph`, grouped `by` scope, op type or dtype."""
    from inspector.core.analysis import sizes as sz

    whole = sz.sizes(graph, file_size)
    nodes = whole.nodes
    names = graph.name_list       # the columns: no Node view made here
    keys = sz.group_keys(graph, by) if by != "scope" else None
    root = sz.group(graph, nodes, by, keys)
    biggest: dict = {}
    if keys is not None:
        for name, key in zip(names, keys):
            if nodes[name] > nodes.get(biggest.get(key, ""), -1):
                biggest[key] = name
    ops = dict(zip(names, map(graph.op_names.__getitem__, graph._ops)))
    return Measured(root, ops, biggest, whole.total, whole)


def biggest_groups(measured: Measured, depth: int = 1) -> list:
    """(name, bytes, nodes) of the groups `depth` levels down, biggest first."""
    from inspector.core.analysis.sizes import top

    return top(measured.root, depth)


def duplicates(graph, job: Job = NO_JOB):
    """Constants whose values are byte-for-byte equal (analysis.sizes.Duplicates)."""
    from inspector.core.analysis.sizes import duplicates as find

    return find(graph, job)


@dataclass(frozen=True)
class SizesResult:
    model: object
    by: str
    before: Measured
    after: Measured | None = None      # the shown pipeline step's graph, beside it
    file_size: int = 0
    extra: dict = field(default_factory=dict)


def start_sizes(state, tasks, by: str) -> bool:
    """Measure the open model (and the shown pipeline step) in a task -> `state.sizes`."""
    model, original, view = state.model, state.original_view, state.view
    if model is None or original is None:
        return False
    step = view.graph if view is not None and view is not original else None
    graph, size = original.graph, model.file_size if model.kind == "graphdef" else 0

    def work(job):
        with gc_policy.paused():     # a full collection over a big graph stalls the GUI
            return SizesResult(model, by, measure(graph, by, size),
                               measure(step, by) if step is not None else None, size)

    tasks.submit("sizes", work, state.set_sizes, lambda exc: None, label="Sizing the graph",
                 quiet=True)
    return True


def start_duplicates(state, tasks) -> None:
    """Constants stored twice in the open model, in a task -> `state.duplicates`."""
    original = state.original_view
    if original is None:
        return
    graph = original.graph
    tasks.submit("duplicates", lambda job: duplicates(graph, job), state.set_duplicates,
                 lambda exc: state.fail(getattr(exc, "message", str(exc))),
                 label="Looking for constants stored twice")
