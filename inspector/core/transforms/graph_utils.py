"""GraphDef helpers shared by transforms: names, renaming inputs, ordering, pattern matching."""

from __future__ import annotations

from dataclasses import dataclass, field

from inspector.core.errors import InspectorError
from inspector.core.model import dtypes, protos, tensors
from inspector.core.model.execution_order import execution_order
from inspector.core.model.graph import node_name_from_input
from inspector.core.transforms.base import TransformError


def canonical_input_name(text: str) -> str:
    """`a` -> `a:0`, `^a` -> `^a:0`, `a:1` unchanged."""
    prefix = "^" if text.startswith("^") else ""
    body = text[1:] if prefix else text
    return prefix + (body if ":" in body else body + ":0")


def port_of(text: str) -> int:
    body = text.lstrip("^")
    return int(body.split(":")[1]) if ":" in body else 0


def copy_graph(graph_def, nodes=None):
    """A new GraphDef with versions/library copied and the given nodes (default: all)."""
    out = protos.GraphDef()
    out.versions.CopyFrom(graph_def.versions)
    out.library.CopyFrom(graph_def.library)
    for node in (graph_def.node if nodes is None else nodes):
        out.node.add().CopyFrom(node)
    return out


def set_nodes(graph_def, nodes) -> None:
    """Make graph_def.node hold `nodes`, in this order, in place: a node already in graph_def
    is moved, not copied (nor are its weights); any other node (or one listed twice) is copied
    in. The nodes left out leave the graph; their messages still read as they were."""
    current = list(graph_def.node)
    mine = {id(n) for n in current}
    final, seen = [], set()
    for node in nodes:
        key = id(node)
        if key in mine and key not in seen:
            seen.add(key)
            final.append(node)
        else:
            added = graph_def.node.add()
            added.CopyFrom(node)
            final.append(added)
    if len(final) == len(current) and all(a is b for a, b in zip(final, current)):
        return
    rank = {id(n): i for i, n in enumerate(final)}
    last = len(final)
    graph_def.node.sort(key=lambda n: rank.get(id(n), last))
    del graph_def.node[last:]


def rebuild(graph_def, nodes) -> None:
    """copy_graph(graph_def, nodes), made in graph_def itself (for a pipeline that may
    change its graph in place, Context.in_place): the same message, field for field."""
    set_nodes(graph_def, nodes)
    graph_def.ClearField("version")         # copy_graph keeps versions and library only
    graph_def.versions.SetInParent()
    graph_def.library.SetInParent()


def node_map(graph_def) -> dict:
    return {n.name: n for n in graph_def.node}


def outputs_map(graph_def) -> dict:
    """node name -> list of nodes that take it as an input (any port, control included)."""
    out: dict = {}
    for node in graph_def.node:
        for text in node.input:     # node_name_from_input, written out (~10k calls less)
            out.setdefault((text[1:] if text[:1] == "^" else text).split(":", 1)[0],
                           []).append(node)
    return out


def rename_node_inputs(graph_def, mapping: dict, ignore: set = frozenset(),
                       in_place: bool = False, replace_changed: bool = False):
    """TF's RenameNodeInputs: keys compared as canonical names (`a` == `a:0`), a key `a:*`
    matches any port (keeping `^` and the port), applied until nothing matches. `in_place`
    rewrites graph_def itself (for a copy the caller just made: no second copy of the
    weights); `replace_changed` too, but puts changed copies of the nodes it changes in their
    places (their old messages stay as they were: a pipeline step's diff compares them)."""
    if not mapping:
        return graph_def
    by_node: dict = {}
    for src, dst in mapping.items():
        by_node.setdefault(node_name_from_input(src), []).append((src, dst))
    out = graph_def if in_place or replace_changed else copy_graph(graph_def)
    nodes, changed = [], False
    for node in out.node:
        nodes.append(node)
        if node.name in ignore:
            continue
        old = list(node.input)
        if not any((text[1:] if text[:1] == "^" else text).split(":", 1)[0] in by_node
                   for text in old):       # (node_name_from_input, written out)
            continue                        # no input of it is renamed
        new = [_renamed(text, by_node) for text in old]
        if new != old:
            if replace_changed:
                nodes[-1] = copy = protos.NodeDef()
                copy.CopyFrom(node)
                node, changed = copy, True
            del node.input[:]
            node.input.extend(new)
    if changed:
        set_nodes(out, nodes)
    return out


def _renamed(text: str, by_node: dict) -> str:
    visited = set()
    while node_name_from_input(text) in by_node:
        name = node_name_from_input(text)
        if name in visited:
            raise TransformError(f"RenameNodeInputs argument contains a cycle for {name}")
        visited.add(name)
        found = False
        for src, dst in by_node[name]:
            if src.endswith(":*"):
                prefix = "^" if text.startswith("^") else ""
                body = text.lstrip("^")
                suffix = body[body.index(":"):] if ":" in body else ""
                text, found = prefix + dst + suffix, True
            elif canonical_input_name(src) == canonical_input_name(text):
                text, found = dst, True
        if not found:
            break
    return text


def sort_by_execution_order(graph_def):
    """TF's SortByExecutionOrder: Kahn's algorithm with a LIFO ready stack."""
    try:
        order = execution_order(graph_def)
    except InspectorError as exc:
        raise TransformError(exc.message, node=exc.node) from None
    return copy_graph(graph_def, order)


@dataclass
class Pattern:
    """An op-type pattern: op is '*', one op, or 'A|B'; inputs are matched positionally."""

    op: str
    inputs: list = field(default_factory=list)

    def accepts(self, op: str) -> bool:
        return self.op == "*" or op == self.op or "|" in self.op and op in self.op.split("|")


@dataclass
class Match:
    node: object
    inputs: list = field(default_factory=list)

    def names(self) -> list:
        out = [self.node.name]
        for m in self.inputs:
            out += m.names()
        return out


def _match(pattern: Pattern, name: str, nodes: dict, used: set):
    node = nodes.get(name)
    if node is None or name in used or not pattern.accepts(node.op):
        return None
    if not pattern.inputs:
        return Match(node)
    data = [t for t in node.input if not t.startswith("^")]
    if len(data) != len(pattern.inputs):
        return None
    subs = []
    for sub_pattern, text in zip(pattern.inputs, data):
        sub = _match(sub_pattern, node_name_from_input(text), nodes, used)
        if sub is None:
            return None
        subs.append(sub)
    return Match(node, subs)


def replace_matching(graph_def, pattern: Pattern, replace, allow_inconsistencies: bool = False,
                     applied: list | None = None, check=None, in_place: bool = False,
                     known_order: bool = False):
    """TF's ReplaceMatchingOpTypes: greedy non-overlapping matches in execution order.

    `replace(match, outside) -> list of NodeDefs, or None to keep the original`; `outside` is
    the set of matched node names that something outside the match consumes.
    The result keeps the original node order, with replacements at the head node's place.
    The head names of the replacements actually made go to `applied` (a replacement that would
    lose a node consumed outside the match is cancelled, as TF does); `check()` is called now
    and then so that a cancelled request stops. `in_place`: the result is graph_def itself,
    rebuilt (see rebuild), instead of a copy. `known_order`: this very graph, unchanged, was
    put in execution order before (by an earlier pass that changed nothing).
    """
    if pattern.op != "*" and not any(pattern.accepts(n.op) for n in graph_def.node):
        if not known_order:
            execution_order(graph_def)        # TF sorts first: a graph in a cycle is refused
        return graph_def                      # nothing can match: no indexes, no copy
    ordered = execution_order(graph_def)
    nodes = node_map(graph_def)
    consumers = outputs_map(graph_def)
    used: set = set()
    replacements: dict = {}
    dropped: set = set()
    for k, node in enumerate(ordered):
        if check is not None and k % 512 == 0:
            check()
        if node.name in used:
            continue
        m = _match(pattern, node.name, nodes, used)
        if m is None:
            continue
        names = m.names()
        if len(set(names)) != len(names):
            continue
        inside = set(names)
        outside = {n for n in names if any(c.name not in inside for c in consumers.get(n, []))}
        new_nodes = replace(m, outside)
        used.update(names)  # matched nodes stay claimed even when the originals are kept
        if new_nodes is None:
            continue
        new_names = {n.name for n in new_nodes}
        if not allow_inconsistencies and any(n not in new_names for n in outside):
            continue
        replacements[m.node.name] = new_nodes
        dropped.update(n for n in names if n != m.node.name)
        if applied is not None:
            applied.append(m.node.name)
    if not replacements:
        return graph_def  # nothing matched: no copy of a possibly huge graph
    nodes = []
    for node in graph_def.node:
        if node.name in replacements:
            nodes.extend(replacements[node.name])
        elif node.name not in dropped:
            nodes.append(node)
    if in_place:
        rebuild(graph_def, nodes)
        return graph_def
    return copy_graph(graph_def, nodes)


def tensor_const(name: str, array, dtype: int | None = None):
    """A Const NodeDef holding a numpy array (float32 unless dtype says otherwise)."""
    import numpy as np

    node = protos.NodeDef(name=name, op="Const")
    if dtype is None:
        dtype = {np.dtype(np.float32): 1, np.dtype(np.int32): 3, np.dtype(np.uint8): 4,
                 np.dtype(np.int64): 9}[np.asarray(array).dtype]
    arr = np.array(array, dtype=dtypes.numpy_dtype(dtype), order="C")
    node.attr["dtype"].type = dtype
    t = node.attr["value"].tensor
    t.dtype = dtype
    t.tensor_shape.SetInParent()
    for d in arr.shape:
        t.tensor_shape.dim.add(size=d)
    t.tensor_content = arr.astype(arr.dtype.newbyteorder("<")).tobytes()
    return node


def const_value(node):
    return tensors.to_numpy(node.attr["value"].tensor)
