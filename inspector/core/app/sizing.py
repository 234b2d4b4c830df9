"""Where a model's bytes go, as use cases: `graphdef-inspector sizes` and the Sizes panel's
treemap measure alike (measure: each node's bytes in the file, grouped by scope, op type or
dtype), and constants stored twice are looked for on request (it reads their bytes). In the
window the results go to the state (`state.sizes`, `state.duplicates`)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from inspector.core.model.humanize import count
from inspector.core.runtime import gc_policy
from inspector.core.runtime.job import NO_JOB, Job
from inspector.core.view.treemap import DEPTH, inside

BY = ("scope", "op", "dtype")


NO_SCOPES = "no name scopes in this graph: grouped by op type"
KEEP = 1000        # groups a group of the window's tree keeps (the rest: "N more nodes")
LEAST = 1 / 20000  # nor a group under this share of the map (6 x 6 px of a 1200 x 600 map)


@dataclass
class Measured:
    """One graph's bytes: the group tree, node -> op, the biggest node of each group (op
    type or dtype), the node bytes' total and the whole count (sizes.Sizes); `by`: the
    grouping made (op type for "scope" when no name has a scope: `note` says so)."""
    root: object
    ops: dict
    biggest: dict
    total: int
    sizes: object = None
    by: str = "scope"
    note: str = ""


def grouping(graph, by: str) -> tuple:
    """(the grouping to make, why it is not `by`): a graph without name scopes is grouped
    by op type, not as one scope of single nodes in name order."""
    if by == "scope" and not any(graph.scope_ids()[0]):
        return "op", NO_SCOPES
    return by, ""


def measure(graph, by: str = "scope", file_size: int = 0, job: Job = NO_JOB,
            keep: int | None = None, depth: int | None = None) -> Measured:
    """The bytes of every node of `graph`, grouped `by` scope, op type or dtype (see
    grouping). `keep` (the window's panel): from the columns (size_columns), the tree only as
    deep and as fine as a treemap shows (at most `keep` groups a group, none under LEAST of
    the map), node -> op only for the nodes left in it, no per-node dict. `depth` (the
    command line): from the columns too, the tree only `depth` scope levels down, with
    biggest_groups' very rows; no node -> op, no biggest node, no per-node dict."""
    from inspector.core.analysis import size_columns, sizes as sz

    by, note = grouping(graph, by)
    if keep is not None:
        return _measure_shown(size_columns, sz, graph, by, note, file_size, job, keep)
    if depth is not None and not graph.duplicate_names:    # (group sizes a name once)
        sizes = size_columns.size_array(graph, job)
        root = size_columns.by_scope_to(graph, sizes, depth, job) if by == "scope" else \
            size_columns.by_key_in_order(graph, sizes, by)
        if root is not None:
            whole = sz.Sizes(int(sizes.sum()), file_size, {}, sz.graph_fields(graph.structure))
            return Measured(root, {}, {}, whole.total, whole, by, note)
    whole = sz.sizes(graph, file_size, job)
    nodes = whole.nodes
    names = graph.name_list       # the columns: no Node view made here
    keys = sz.group_keys(graph, by) if by != "scope" else None
    job.check()
    root = sz.group(graph, nodes, by, keys, job)
    biggest: dict = {}
    if keys is not None:
        get = nodes.get
        for lo in range(0, len(names), sz.CHUNK):
            job.check()
            for name, key in zip(names[lo:lo + sz.CHUNK], keys[lo:lo + sz.CHUNK]):
                if get(name) > get(biggest.get(key, ""), -1):
                    biggest[key] = name
    ops = dict(zip(names, map(graph.op_names.__getitem__, graph._ops)))
    return Measured(root, ops, biggest, whole.total, whole, by, note)


def _measure_shown(sc, sz, graph, by: str, note: str, file_size: int, job: Job, keep: int):
    """measure's `keep` case (sc, sz: the size_columns and sizes modules)."""
    sizes = sc.size_array(graph, job)
    whole = sz.Sizes(int(sizes.sum()), file_size, {}, sz.graph_fields(graph.structure))
    job.check()
    if by != "scope":
        root, biggest = sc.by_key(graph, sizes, by)
        return Measured(root, {}, biggest, whole.total, whole, by, note)
    root = sc.by_scope(graph, sizes, lambda root: int(inside(root)[-1].bytes * LEAST), job)
    chain = inside(root)
    leaves = sz.trim(root, keep, job, int(chain[-1].bytes * LEAST), DEPTH, len(chain) - 1)
    op_names, ops_of, index = graph.op_names, graph._ops, graph.index
    ops = {name: op_names[ops_of[index(name)]] for name in leaves}
    return Measured(root, ops, {}, whole.total, whole, by, note)


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


def file_size_for(model) -> int:
    """The file size a measure's nodes add up to (0: none): a GraphDef's, or a .tflite's,
    whose nodes' sizes are its tensors' and operators' bytes (tflite_bytes); a model read
    from other files (SavedModel, Keras, TF.js, .meta) is measured as its GraphDef."""
    return model.file_size if model.kind in ("graphdef", "tflite") else 0


def rest_of_file(model) -> str:
    """What the file's bytes outside every node are (the CLI's `sizes` and the Sizes panel
    alike). A .tflite's nodes are its main subgraph's: the bytes of its other subgraphs
    (loop and branch bodies, not drawn) are outside them, and said with their share."""
    if model.kind != "tflite":
        return "graph-level fields (versions, library)"
    text = "the model's own fields (operator codes, signatures, metadata) and padding"
    found = getattr(model, "tflite", None)
    others = found.subgraphs[1:] if found is not None else []
    if not others:
        return text
    theirs = sum(p.file_bytes for g in others for p in (*g.tensors, *g.operators))
    return f"{text}, and its {count(len(others), 'other subgraph')} (loop and branch " \
        f"bodies, not drawn" + (f": {theirs:,} bytes)" if found.sized else ")")


def start_sizes(state, tasks, by: str) -> bool:
    """Measure the open model (and the shown pipeline step) in a task -> `state.sizes`; its
    progress and Cancel are the status line's; a failure is said in one line (the error)
    and sets `state.sizes` to None."""
    model, original, view = state.model, state.original_view, state.view
    if model is None or original is None:
        return False
    step = view.graph if view is not None and view is not original else None
    graph, size = original.graph, file_size_for(model)

    def work(job):
        with gc_policy.paused():     # a full collection over a big graph stalls the GUI
            before = measure(graph, by, size, job, KEEP)
            after = measure(step, by, 0, job.part("{} (after the step)"), KEEP) \
                if step is not None else None
            return SizesResult(model, by, before, after, size)

    def failed(exc):
        state.set_sizes(None)        # the panel says it is not measured
        state.fail(f"Could not measure where the bytes go: "
                   f"{exc.one_line() if hasattr(exc, 'one_line') else exc}")

    tasks.submit("sizes", work, state.set_sizes, failed, label="Measuring where the bytes go")
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
