"""Where a shape walk stops: the node whose inputs' shapes are known but whose output's is
not, found by walking back from a node left without a shape. The summary's likely outputs
(output_shapes) and a FLOP count that counted nothing (flops.finished) both say it; a count
also names the while loop whose result hides the shapes (a TF 1 loop's Exit, or a While
node), as in a TF.js detector that resizes its input in a loop before every convolution."""

from __future__ import annotations

from inspector.core.model.origin import is_tflite

LOOP_OPS = frozenset({"Enter", "Exit", "Merge", "Switch", "NextIteration", "LoopCond",
                      "RefEnter", "RefExit", "RefMerge", "RefSwitch", "RefNextIteration"})
WHILE_OPS = frozenset({"While", "StatelessWhile"})


def stop_path(shapes, inputs_of, name: str, port: int = 0) -> list:
    """[(name, port), ...] from output `port` of `name` back to the first node on the way
    whose inputs' shapes are all known but its own output's is not (an op the walk does not
    know, a size only a run tells): at each step, the first input whose shape is unknown.
    `shapes.get(name)`: that node's output shapes; `inputs_of(name)`: its data inputs as
    (node, port)."""
    path, seen = [(name, port)], {name}
    while True:
        for node, k in inputs_of(name):
            if node in shapes and not known(_port(shapes.get(node), k)):
                name, port = node, k
                break
        else:
            return path
        path.append((name, port))
        if name in seen:
            return path
        seen.add(name)


def node_inputs(graph):
    """inputs_of for stop_path: a node's data inputs as (node, port), by name."""
    def inputs_of(name: str) -> list:
        node = graph.get(name)
        return [] if node is None else [(r.node, r.port) for r in node.data_inputs]

    return inputs_of


def op_of(graph, name: str) -> str:
    node = graph.get(name)
    return node.op if node is not None else "?"


STEPS = 20_000     # nodes walked back, at most, to say why nothing was counted (a Node view
#                    a step: ~10 us; past it the count says only that no shapes are known)


def why_nothing_counted(graph, shapes, names: list) -> str:
    """Why the arithmetic ops `names` (graph order) have no shapes, in one clause: the stop
    that the walks back from most of them reach (each walk as stop_path's, shared where
    they meet): the while loop whose result or body they reach, the input whose sizes are
    open, or the node whose output's shape is not known. '' when none is found."""
    if not names or graph is None:
        return ""
    try:
        found = _stops(graph, shapes, node_inputs(graph), names)
    except (KeyError, IndexError, TypeError, ValueError, RecursionError):
        return ""
    if not found:
        return ""
    kind, loop, name, op = max(found, key=found.get)   # the first of the most reached
    if kind == "result":
        return (f"the while loop '{loop}' hides them (the shape walk stops at node "
                f"'{name}' ({op}), which reads its result)")
    if kind == "body":
        return (f"the while loop '{loop}' hides them (the shape walk stops at node "
                f"'{name}' ({op}), in its body)")
    if kind == "input":
        return f"input '{name}' has open sizes" + \
            ("" if is_tflite(graph) else " (give the inputs' shapes)")
    return f"the shape walk stops at node '{name}' ({op}), whose output has no known shape"


def _stops(graph, shapes, inputs_of, names: list) -> dict:
    """{(kind, loop, node, op): how many of `names` reach it} (empty past STEPS). A walk
    takes the loop nearest the inputs on its way: a node that reads a loop's result (an
    Exit, a While; rather than a node of that loop's body the walk went on to) or sits in
    its body (reads an Enter, a Merge...); else where it stops."""
    memo, found, steps = {}, {}, 0
    for start in names:
        path, on, name = [], set(), start
        while name not in memo and name not in on:
            steps += 1
            if steps > STEPS:
                return {}
            on.add(name)
            path.append(name)
            nxt = next((n for n, k in inputs_of(name)
                        if n in shapes and not known(_port(shapes.get(n), k))), None)
            if nxt is None:
                break
            name = nxt
        reason = memo[name] if name in memo else _end(graph, inputs_of, path[-1] if
                                                      name not in on else name)
        for node in reversed(path):
            here = _in_loop(graph, inputs_of, node)
            if here is not None and (reason[0] not in ("result", "body") or (
                    reason[0] == "body" and here[:2] == ("result", reason[1]))):
                reason = here      # (a loop's result is said rather than its body)
            memo[node] = reason
        found[reason] = found.get(reason, 0) + 1
    return found


def _end(graph, inputs_of, name: str) -> tuple:
    op = op_of(graph, name)
    if op in LOOP_OPS:
        return ("body", name.rpartition("/")[0] or name, name, op)
    if op == "Placeholder":
        return ("input", "", name, op)
    return _in_loop(graph, inputs_of, name) or ("node", "", name, op)


def _in_loop(graph, inputs_of, name: str):
    """("result" or "body", the loop, name, op) when `name` reads a loop's result (an Exit:
    the loop is its scope; a While node) or a node of its body; else None."""
    for node, _ in inputs_of(name):
        op = op_of(graph, node)
        if op in WHILE_OPS:
            return ("result", node, name, op_of(graph, name))
        if op in LOOP_OPS:
            kind = "result" if op in ("Exit", "RefExit") else "body"
            return (kind, node.rpartition("/")[0] or node, name, op_of(graph, name))
    return None


class ByIndex:
    """Shapes by node index (a columnar walk's) looked up by name, as stop_path reads them."""

    def __init__(self, graph, out: list):
        self.graph, self.out = graph, out

    def get(self, name: str):
        try:
            return self.out[self.graph.index(name)]
        except (KeyError, IndexError, TypeError):
            return None

    def __contains__(self, name: str) -> bool:
        return self.get(name) is not None


def known(dims) -> bool:
    return dims is not None and None not in dims


def _port(outs, k: int):
    return outs[k] if outs and k < len(outs) else None
