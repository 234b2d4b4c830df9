"""fold_constants: evaluate constant subgraphs once and store the results.

Subgraphs whose ops all have bit-exact numpy versions (exact_ops.py) are computed without
TensorFlow; any other goes to TensorFlow (INSPECTOR_EXACT_FOLD=0: all of them).

Mirrors TF's fold_constants: feeds are the --inputs, fetches the --outputs; a node is
constant when its data inputs are (control inputs from other nodes move onto the folded
constant, as TF's ConstantFold does; nodes whose output passes max_constant_size_in_bytes are
not, where their size is known before computing them); a tensor is folded where a constant
node feeds one that is not; results are named `<node>/_<port>__cf__<k>`; afterwards only what
the outputs need is kept, the inputs go to the end of the node list, references to them read
`name:0`, and PlaceholderWithDefault inputs become Placeholders.
"""

from __future__ import annotations

import os

import numpy as np

from inspector.core.model import protos, safety
from inspector.core.model.graph import node_name_from_input
from inspector.core.model.humanize import count, human_bytes
from inspector.core.model.reachability import upstream
from inspector.core.model.tensors import to_numpy
from inspector.core.runtime.executor import tensorflow
from inspector.core.transforms.base import Param, TransformError, transform
from inspector.core.transforms.exact_ops import (
    EXACT_OPS,
    ExactEvaluator,
    NotExact,
    Oversized,
)
from inspector.core.transforms.graph_utils import copy_graph, port_of, tensor_const

# Only pure computation is ever evaluated while folding (safety.PURE_OPS, with call ops only
# when every function they reach is pure too); these pure ops are not folded either (TF's
# IsConstantFoldable: control flow, sends and receives; a PlaceholderWithDefault that is not
# an --inputs folds to its default, and a NoOp counts as constant, as in TF).
NEVER_FOLD = {"Placeholder", "Switch", "Merge", "Enter", "Exit",
              "NextIteration", "LoopCond", "RefSwitch", "RefMerge", "RefEnter", "RefExit",
              "RefNextIteration", "_Recv", "_Send", "_Arg", "_Retval", "ControlTrigger"}
_CODES = {np.dtype(np.float32): 1, np.dtype(np.float64): 2, np.dtype(np.int32): 3,
          np.dtype(np.uint8): 4, np.dtype(np.int16): 5, np.dtype(np.int8): 6,
          np.dtype(np.int64): 9, np.dtype(np.bool_): 10, np.dtype(np.float16): 19,
          np.dtype(np.uint16): 17, np.dtype(np.uint32): 22, np.dtype(np.uint64): 23}


def _identity_values(nodes: dict, fetch: list):
    """(tensor, value) for fetched tensors that are Identity chains over a Const."""
    for tensor in fetch:
        name, port = tensor.rsplit(":", 1)
        node = nodes[name]
        while node.op in ("Identity", "StopGradient", "Snapshot") and port == "0" and \
                len(node.input) == 1 and not node.input[0].startswith("^"):
            text = node.input[0]
            port = text.split(":")[1] if ":" in text else "0"
            node = nodes[node_name_from_input(text)]
        if node.op == "Const" and port == "0":
            try:
                yield tensor, to_numpy(node.attr["value"].tensor)
            except ValueError:
                continue


def _const_node(name: str, value):
    arr = np.asarray(value)
    if arr.dtype == object or arr.dtype.kind in ("S", "U"):
        node = protos.NodeDef(name=name, op="Const")
        node.attr["dtype"].type = 7
        t = node.attr["value"].tensor
        t.dtype = 7
        for d in arr.shape:
            t.tensor_shape.dim.add(size=d)
        t.string_val.extend(x if isinstance(x, bytes) else str(x).encode() for x in arr.ravel())
        return node
    code = _CODES.get(arr.dtype)
    if code is None:
        return None
    return tensor_const(name, arr, code)


class _StatefulOps:
    """Which ops TF registers as stateful. Ops of the exact numpy set are all stateless
    (tests/tf checks it against TF's registry); the others count as stateless until `ask()`,
    which the fold calls (TensorFlow) only once some subgraph has to go to TensorFlow anyway."""

    def __init__(self, ops: set):
        self.unknown = set(ops) - EXACT_OPS
        self.answer: set | None = None

    def ask(self) -> None:
        self.answer = tensorflow().stateful_ops(self.unknown)

    def __contains__(self, op: str) -> bool:
        return op not in EXACT_OPS and self.answer is not None and op in self.answer


def exact_folding_enabled() -> bool:
    """INSPECTOR_EXACT_FOLD=0 sends every constant subgraph to TensorFlow (for comparisons)."""
    return os.environ.get("INSPECTOR_EXACT_FOLD", "1") != "0"


@transform("fold_constants", "fold",
           "Computes parts of the graph that never change once, and stores the results as "
           "constants.",
           [Param("clear_output_shapes", "bool", "true"), Param("exclude_op", "op", repeated=True),
            Param("exclude_node", "node", repeated=True),
            Param("max_constant_size_in_bytes", "int", str(10 * 1024 * 1024), minimum=0)])
def fold_constants(graph_def, ctx):
    clear = ctx.bool("clear_output_shapes", True)
    excluded_ops, excluded_nodes = set(ctx.values("exclude_op")), set(ctx.values("exclude_node"))
    max_bytes = ctx.int("max_constant_size_in_bytes", 10 * 1024 * 1024)
    work = copy_graph(graph_def)
    if clear:
        for node in work.node:
            if "_output_shapes" in node.attr:
                del node.attr["_output_shapes"]
    nodes = {n.name: n for n in work.node}
    inputs = [node_name_from_input(i) for i in ctx.inputs]
    outputs = [node_name_from_input(o) for o in ctx.outputs]
    for name in inputs + outputs:
        if name not in nodes:
            raise TransformError(f"node '{name}' from --inputs/--outputs is not in the graph")
    needed = upstream(work, outputs, inputs)
    stateful = _StatefulOps({nodes[n].op for n in needed})
    checker = safety.Checker(safety.library_of(work))
    impure = {n for n in needed if checker.node(nodes[n])}
    order = [n.name for n in work.node if n.name in needed]
    exact = ExactEvaluator(nodes, max_bytes) if exact_folding_enabled() else None
    oversized: set = set()   # nodes whose output passes the limit: not foldable, as in TF
    if exact is None:
        stateful.ask()
    while True:
        ctx.check()
        fetch, deps = _plan(nodes, order, inputs, lambda n: (
            n not in impure and n not in excluded_nodes and n not in oversized and
            nodes[n].op not in excluded_ops), stateful)
        values = dict(_identity_values(nodes, fetch))  # Identity chains need no TensorFlow
        rest = [t for t in fetch if t not in values]
        if exact is not None:
            values.update(_exact_values(exact, rest, ctx.check))
            if exact.oversized - oversized:  # TF's rule: not foldable; plan again without
                oversized |= exact.oversized
                continue
            rest = [t for t in rest if t not in values]
        if rest and stateful.answer is None:
            stateful.ask()  # TensorFlow is needed anyway: plan again with its answers
            continue
        break
    if not fetch:
        return _finish(work, nodes, inputs, outputs, {})
    if rest:
        sub = _constant_subgraph(work, nodes, order, rest)
        ctx.check()
        try:
            values.update(zip(rest, tensorflow().evaluate_tensors(sub, rest)))
        except Exception as exc:
            raise TransformError(f"cannot evaluate constant subgraph: "
                                 f"{str(exc).splitlines()[0]}") from None
    by_tf = set(rest)
    values = [values[t] for t in fetch]
    replaced: dict = {}
    for k, (tensor, value) in enumerate(zip(fetch, values)):
        src, port = tensor.rsplit(":", 1)
        if value is None or np.asarray(value).nbytes > max_bytes:
            continue  # None: a variant or resource TF made (no numpy array holds it)
        const = _const_node(f"{src}/_{port}__cf__{k}", value)
        if const is None:
            continue
        const.input.extend(f"^{d}" for d in sorted(deps[src]))  # as TF moves them
        replaced[tensor] = const
        ctx.note(const.name, f"folded value of {tensor}" +
                 (" (computed in TensorFlow)" if tensor in by_tf else ""))
    out = _finish(work, nodes, inputs, outputs, replaced)
    ctx.warning = _stored_twice(out, outputs, replaced) or ctx.warning
    return out


def _stored_twice(out, outputs: list, replaced: dict) -> str:
    """The warning when constants a folded node read stay beside their folded copy because a
    control input still reads that node (a Keras export's NoOp reads every ReadVariableOp:
    the emotion model of the fer package grew 76 % and its weights were stored twice);
    "" when none does."""
    nodes = {n.name: n for n in out.node}
    data = set()
    stack = [o for o in outputs if o in nodes]
    while stack:                      # what the outputs read through data edges
        name = stack.pop()
        if name in data:
            continue
        data.add(name)
        stack.extend(node_name_from_input(t) for t in nodes[name].input if t[:1] != "^")
    folded = {t.rsplit(":", 1)[0] for t in replaced}
    left = {n for n in folded if n in nodes and n not in data}
    stale = [nodes[node_name_from_input(t)] for n in left for t in nodes[n].input
             if t[:1] != "^" and nodes.get(node_name_from_input(t)) is not None and
             nodes[node_name_from_input(t)].op == "Const"]
    stale = list({n.name: n for n in stale}.values())
    size = sum(n.attr["value"].ByteSize() for n in stale)
    if not stale or size < 1024:
        return ""
    reader = next((n.name for n in out.node
                   if any(t[:1] == "^" and t[1:] in left for t in n.input)), "a node")
    one = len(stale) == 1
    return (f"{count(len(stale), 'constant')} ({human_bytes(size)}) {'is' if one else 'are'} "
            "now stored twice: folded into new constants, and kept as "
            f"{'it was' if one else 'they were'} because '{reader}' reads the nodes that read "
            f"{'it' if one else 'them'} as control "
            "inputs; run remove_control_dependencies before fold_constants to keep one copy")


def _plan(nodes: dict, order: list, inputs: list, allowed, stateful) -> tuple[list, dict]:
    """TF's rule: a node folds when its data inputs all fold (control inputs from anything are
    allowed). Returns the tensors to fold (outputs of foldable nodes read by nodes that are
    not) and, per fetched node, the non-foldable control dependencies of its subgraph, which
    TF moves onto the replacement constant."""
    foldable: dict = {}
    input_set = set(inputs)

    def can_fold(name: str) -> bool:
        if name in foldable:
            return foldable[name]
        foldable[name] = False  # guards against cycles
        node = nodes.get(name)
        data = [i for i in node.input if not i.startswith("^")] if node is not None else []
        ok = (node is not None and name not in input_set and node.op not in NEVER_FOLD
              and allowed(name)
              and all(can_fold(node_name_from_input(i)) for i in data)
              and node.op not in stateful)  # last: may ask TensorFlow
        foldable[name] = ok
        return ok

    fetch = []
    for name in order:
        node = nodes[name]
        if name in input_set or can_fold(name):
            continue
        for text in node.input:
            src = node_name_from_input(text)
            if text.startswith("^") or not can_fold(src) or nodes[src].op == "Const":
                continue
            tensor = f"{src}:{port_of(text)}"
            if tensor not in fetch:
                fetch.append(tensor)
    fetched = {t.rsplit(":", 1)[0] for t in fetch}
    return fetch, _control_deps(nodes, fetched, can_fold)


def _control_deps(nodes: dict, roots: set, can_fold) -> dict:
    """node -> the non-foldable sources of control inputs anywhere in its foldable subgraph
    (TF's constant_control_deps), for the given foldable nodes; iterative (deep chains)."""
    deps: dict = {}
    for root in roots:
        stack, expanded = [root], set()
        while stack:
            name = stack[-1]
            if name in deps:
                stack.pop()
                continue
            parents = [node_name_from_input(t) for t in nodes[name].input]
            pending = [p for p in parents if can_fold(p) and p not in deps]
            if pending and name not in expanded:
                expanded.add(name)
                stack.extend(pending)
                continue
            stack.pop()
            out = set()
            for text, src in zip(nodes[name].input, parents):
                if can_fold(src):
                    out |= deps.get(src, set())
                elif text.startswith("^"):
                    out.add(src)
            deps[name] = out
    return {r: deps[r] for r in roots}


def _constant_subgraph(work, nodes: dict, order: list, tensors: list):
    """The foldable nodes the tensors need through data inputs, their control inputs dropped
    (TF's constant graph has none)."""
    wanted, stack = set(), [t.rsplit(":", 1)[0] for t in tensors]
    while stack:
        name = stack.pop()
        if name not in wanted:
            wanted.add(name)
            stack.extend(node_name_from_input(t) for t in nodes[name].input
                         if not t.startswith("^"))
    sub = copy_graph(work, [nodes[n] for n in order if n in wanted])
    for node in sub.node:
        node.input[:] = [t for t in node.input if not t.startswith("^")]
    return sub


def _exact_values(exact: ExactEvaluator, tensors: list, check) -> dict:
    """tensor -> value for the tensors numpy computes exactly; the others are left out (for
    TensorFlow), after every exact node of their subgraph is sized (and computed): a huge
    Fill or Range on its way to TensorFlow is found here. Nodes found oversized are listed in
    `exact.oversized` for the caller to plan again without them."""
    out = {}
    for tensor in tensors:
        check()
        try:
            out[tensor] = exact.value(tensor)
        except NotExact:
            exact.probe(tensor.rsplit(":", 1)[0])
        except Oversized:
            continue
    return out


def _finish(work, nodes: dict, inputs: list, outputs: list, replaced: dict):
    """Rewire consumers to folded constants, prune to the outputs, move inputs to the end."""
    rewired = copy_graph(work, [])
    for node in work.node:
        new = rewired.node.add()
        new.CopyFrom(node)
        if node.name in inputs:
            continue
        for i, text in enumerate(node.input):
            if text.startswith("^"):
                continue
            key = f"{node_name_from_input(text)}:{port_of(text)}"
            if key in replaced:
                new.input[i] = replaced[key].name
    for const in replaced.values():
        rewired.node.add().CopyFrom(const)
    keep = upstream(rewired, outputs, inputs)
    out = copy_graph(work, [])
    input_set = set(inputs)
    for node in rewired.node:
        if node.name in keep and node.name not in input_set:
            new = out.node.add()
            new.CopyFrom(node)
            new.input[:] = [f"{t}:0" if t in input_set else t for t in node.input]
    for name in dict.fromkeys(inputs):
        node = nodes[name]
        if node.op == "PlaceholderWithDefault":
            ph = protos.NodeDef(name=name, op="Placeholder")
            ph.attr["dtype"].CopyFrom(node.attr["dtype"])
            if "shape" in node.attr:
                ph.attr["shape"].CopyFrom(node.attr["shape"])
            out.node.add().CopyFrom(ph)
        elif node.op == "Placeholder":
            out.node.add().CopyFrom(node)
        else:
            raise TransformError(f"input '{name}' is a {node.op}, not a Placeholder "
                                 "(run strip_unused_nodes first)", node=name)
    return out
