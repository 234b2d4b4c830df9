"""What the Properties panel shows beyond the node itself, as use cases that write into the
state: a selected scope's facts (what it holds, what crosses its border), a constant's values
described (they may still be in the model file, and a 16 MB tensor takes longer than a frame
to describe: a task, a newer selection superseding the last) and TensorFlow's own
description of an op (asked where TensorFlow lives, the worker; kept per op)."""

from __future__ import annotations

from dataclasses import dataclass

from inspector.core.runtime.executor import installed
from inspector.core.view.scope_facts import scope_facts


@dataclass(frozen=True)
class Described:
    shown: str               # the node the panel showed when the values were asked for
    const: str               # the constant described
    values: object = None    # analysis.tensor_stats' description; None when unreadable
    why: str = ""            # why it could not be read


def start_describe(state, tasks, const: str, shown: str) -> None:
    """Describe the constant `const`'s values in a task -> `state.described`."""
    view = state.view
    if view is None:
        return
    graph = view.graph

    def work(job):
        # imported here: off the first picture's path (a selection's first description)
        from inspector.core.analysis.tensor_stats import describe_tensor


        return Described(shown, const, describe_tensor(graph, const, job))

    def failed(exc):
        why = getattr(exc, "message", None) or str(exc)
        state.set_described(Described(shown, const, None, why))
        state.say(f"Cannot show the values of {const}: {why}")

    tasks.submit("tensor", work, state.set_described, failed, label="Reading values",
                 quiet=True)


def start_scope_facts(state, tasks, shown: str) -> None:
    """What the selected scope `shown` ("a/b/") holds and what crosses its border, counted in
    a task (a big graph's top scope: a pass over every edge) -> `state.scope_facts`. A newer
    selection's request supersedes it; the panel drops facts of a scope no longer shown."""
    view = state.view
    if view is None or not shown.endswith("/") or shown[:-1] not in view.hierarchy.stats:
        return
    shapes = view.shapes

    def failed(exc):
        why = getattr(exc, "message", None) or str(exc) or type(exc).__name__
        state.say(f"Cannot count what is in {shown[:-1]}: {why}")

    tasks.submit("scope-facts", lambda job: scope_facts(view, shown, shapes, job),
                 state.set_scope_facts, failed, label="Counting the scope", quiet=True)


def start_op_doc(state, tasks, name) -> None:
    """TensorFlow's own description of the selected node's op -> `state.op_docs[op]` and
    `op_doc_changed` (at once when known; nothing without a TensorFlow executor). A failure
    is not said: the description is an extra under the glossary's sentence, which the panel
    shows anyway, nothing waits for it (no "reading…" row), and it is asked again at the
    next selection of the op (a worker that died is started again by that request; the
    work a user asks of it reports its own failures)."""
    view = state.view
    node = view.graph.get(name) if view is not None and name else None
    if node is None or installed() is None:
        return
    op = node.op
    if op in state.op_docs:
        state.set_op_doc(op, state.op_docs[op])
        return
    tasks.submit("op-doc", lambda job: installed().op_doc(op),
                 lambda text: state.set_op_doc(op, text), lambda exc: None, quiet=True)


def start_consumers(state, tasks, graph, done, failed) -> None:
    """A big graph's consumer index made in a task (sorting every input held the GUI thread
    ~90 ms at the first click of a 300k-node graph), then done() on the front end's thread;
    when it cannot be made, failed(why) (the panel's "listing…" row says it) and the status
    line says it in one line."""
    def on_error(exc):
        why = getattr(exc, "message", None) or str(exc) or type(exc).__name__
        failed(why)
        state.tell(f"Cannot list the consumers: {why}")   # (kept past later work)

    tasks.submit("consumers", lambda job: graph.consumer_index(), lambda _: done(),
                 on_error, label="Listing consumers", quiet=True)
