"""Where the bytes of a GraphDef file go: the serialized size of every node (its NodeDef with
the field framing around it), grouped by name scope, op type or dtype; constants holding the
same bytes (duplicates worth sharing); and two graphs side by side (before and after a
pipeline step). Lazily opened models are sized from their structure and the lengths of the
values left in the file: no weight byte is read to size them."""

from __future__ import annotations

import heapq
from dataclasses import dataclass, field

from inspector.core.errors import InspectorError
from inspector.core.model import attrs as attr_codec
from inspector.core.model.dtypes import item_size
from inspector.core.model.tensors import element_count, to_numpy
from inspector.core.model.weights import LAZY_MARK
from inspector.core.runtime.job import NO_JOB, Job

BY = ("scope", "op", "dtype")
CHUNK = 1 << 16        # nodes between two checks of a job
PIECE = 2048           # nodes sliced a C call (a wrapper a node: 65k in one held the GIL
#                        ~10 ms, ~45 ms on the slow class, in the comparison's task)


def _vlen(n: int) -> int:
    """len(varint(n)), counted (a negative int64 takes ten bytes)."""
    return 10 if n < 0 else (n.bit_length() + 6) // 7 or 1


def _framed(n: int) -> int:
    """Bytes a length-delimited field of n bytes takes (one-byte tag + length + body)."""
    return 1 + _vlen(n) + n


def _lazy_growth(node_def, slot, marker: int) -> int:
    """Bytes a lazily read tensor adds to its NodeDef in the file: its value field (tag,
    length, bytes) and its own version instead of the lazy mark, and the longer lengths of
    the TensorProto, AttrValue and attr map entry around it. Computed from the lengths only."""
    value = node_def.attr[slot.attr]
    t0 = value.tensor.ByteSize()
    t1 = t0 - marker + _vlen(slot.field << 3 | 2) + _vlen(slot.length) + \
        slot.length + (1 + _vlen(slot.version) if slot.version else 0)
    a0 = value.ByteSize()
    a1 = a0 - _framed(t0) + _framed(t1)
    e0 = _framed(len(slot.attr.encode("utf-8"))) + _framed(a0)     # map entry: key, value
    e1 = e0 - _framed(a0) + _framed(a1)
    return _framed(e1) - _framed(e0)


def lazy_growth_of(graph) -> dict:
    """{node index: bytes its values left in the file add to its NodeDef} of a lazily
    opened graph (empty when its values are all read)."""
    out: dict = {}
    if graph.lazy:
        marker = 1 + _vlen(LAZY_MARK)            # the lazy mark that is not in the file
        nodes = graph.structure.node
        for slot in graph.weights.slots.values():
            out[slot.node] = out.get(slot.node, 0) + _lazy_growth(nodes[slot.node], slot,
                                                                  marker)
    return out


def node_sizes(graph, job: Job = NO_JOB) -> dict:
    """node name -> bytes it takes in the file (NodeDef + its framing in GraphDef.node).
    From the sizes the loader noted when it has them (values included: a big graph's
    NodeDefs, kept as bytes in the file, are not parsed to be sized), else from the
    NodeDefs, a chunk at a time between the job's checks."""
    stored, names = graph.stored_sizes, graph.name_list
    if stored is not None and len(stored) == len(names):
        job.check()
        if graph.sizes_in_file:         # a .tflite's: its place in the file counted
            return dict(zip(names, map(int, stored)))
        return dict(zip(names, map(_framed, stored)))
    sizes: list = []
    nodes, n = graph.structure.node, len(names)
    for lo in range(0, n, CHUNK):                    # no Node view a node
        job.check()
        job.progress(lo, n, "Sizing the nodes")
        for at in range(lo, min(n, lo + CHUNK), PIECE):     # a slice makes its nodes'
            sizes += [node.ByteSize() for node in nodes[at:at + PIECE]]  # wrappers in one C call
    for index, growth in lazy_growth_of(graph).items():
        sizes[index] += growth
    return dict(zip(names, map(_framed, sizes)))


@dataclass
class Sizes:
    total: int                       # bytes of all nodes, framed
    file_size: int                   # the file's size (0 when unknown)
    nodes: dict                      # node -> bytes
    other: int = 0                   # library, versions and framing not in any node

    @property
    def remainder(self) -> int:
        """File bytes no node or graph-level field accounts for (protobuf framing)."""
        return self.file_size - self.total - self.other if self.file_size else 0


def sizes(graph, file_size: int = 0, job: Job = NO_JOB) -> Sizes:
    nodes = node_sizes(graph, job)
    return Sizes(sum(nodes.values()), file_size, nodes, graph_fields(graph.structure))


@dataclass
class Group:
    name: str                        # scope path, op type or dtype ("" for the root)
    bytes: int = 0
    nodes: int = 0
    children: dict = field(default_factory=dict)
    node: str = ""                   # a single node's name (leaves of the scope tree)
    folded: int = 0                  # > 0: this many smaller groups, summed (trim)


def group_key(node, by: str) -> str:
    """The group a node falls in when grouping by op type or by dtype (constants by their
    value's dtype, everything else as graph structure)."""
    if by == "op":
        return node.op
    if node.op == "Const" and node.has_attr("value"):
        return node.attr("value").dtype.name
    return "(graph structure)"


def group_keys(graph, by: str) -> list:
    """Every node's group_key, from the op column (and the Const NodeDefs for dtypes): no
    Node view made."""
    if by == "op":
        return list(map(graph.op_names.__getitem__, graph._ops))
    keys = ["(graph structure)"] * len(graph)
    protos = graph.structure.node
    for i in graph.nodes_of_op("Const"):
        attr = protos[i].attr
        if "value" in attr:
            keys[i] = attr_codec.decode(attr["value"]).dtype.name
    return keys


def group(graph, node_bytes: dict, by: str = "scope", keys: list | None = None,
          job: Job = NO_JOB) -> Group:
    """A tree by name scope (nodes are leaves), or one level by op type or dtype (`keys`:
    group_keys when the caller has them). From the name column: each distinct scope path's
    chain of groups is found once, and summed once (children in order of first sight)."""
    if by not in BY:
        raise ValueError(f"group by one of {', '.join(BY)}")
    root = Group("")
    names, get = graph.name_list, node_bytes.get
    if by != "scope":
        children = root.children
        for name, key in zip(names, keys if keys is not None else group_keys(graph, by)):
            size = get(name, 0)
            g = children.get(key)
            if g is None:
                g = children[key] = Group(key)
            g.bytes += size
            g.nodes += 1
            root.bytes += size
            root.nodes += 1
        return root
    chains: dict = {}           # a name's scope path (None: no '/') -> [groups on the way]
    totals: dict = {}           # that path -> [bytes, nodes] of the names right in it
    for k, name in enumerate(names):
        if not k & (CHUNK - 1):
            job.check()
            job.progress(k, len(names), "Grouping the nodes by scope")
        add_leaf(root, chains, totals, name, get(name, 0))
    roll_up(root, chains, totals)
    return root


def add_leaf(root: Group, chains: dict, totals: dict, name: str, size: int) -> None:
    """Node `name` of `size` bytes as a leaf of the scope tree (a name given twice: one
    leaf), in the groups of its scope path (chains: path -> [groups], made at first sight);
    its bytes go to totals[path] (roll_up adds them to the groups once a path)."""
    head, sep, _ = name.rpartition("/")
    path = head if sep else None
    chain = chains.get(path)
    if chain is None:
        chain = chains[path] = _chain(root, name.split("/")[:-1])
        totals[path] = [0, 0]
    here = chain[-1] if chain else root
    leaf = here.children.get(name + "\0")
    if leaf is None:
        leaf = here.children[name + "\0"] = Group(name, node=name)
    leaf.bytes += size
    leaf.nodes += 1
    total = totals[path]
    total[0] += size
    total[1] += 1


def roll_up(root: Group, chains: dict, totals: dict) -> None:
    """add_leaf's totals added to every group on their paths and to the root."""
    for path, (size, count) in totals.items():
        add_to(root, chains[path], size, count)


def add_to(root: Group, chain: list, size: int, count: int) -> None:
    """`size` bytes of `count` nodes added to each group of `chain` and to the root."""
    for g in chain:
        g.bytes += size
        g.nodes += count
    root.bytes += size
    root.nodes += count


def more(nodes: int) -> str:
    """The name of a folded group."""
    return f"{nodes:,} more node{'s' if nodes != 1 else ''}"


def trim(root: Group, keep: int, job: Job = NO_JOB, least: int = 0, depth: int | None = None,
         start_depth: int = 0) -> list:
    """What a treemap can show of the tree, in place: a group keeps its `keep` biggest
    children of `least` bytes or more, the others become one folded group "N more nodes" (a
    flat scope of 1M nodes laid out 1M tiles on the GUI thread); the groups `depth` levels
    below the one the map starts in (`start_depth` levels below the root) keep no children.
    The kept leaves' node names."""
    leaves, stack, k = [], [(root, -start_depth)], 0
    while stack:
        g, level = stack.pop()
        kids = g.children
        if depth is not None and level >= depth:
            g.children = {}
            continue
        fit = [(key, c) for key, c in kids.items() if c.bytes >= least and key != "\0more"]
        if len(fit) > keep:
            fit = heapq.nlargest(keep, fit, key=lambda kv: kv[1].bytes)
        if len(fit) < len(kids):
            out = dict(fit)
            rest = [c for key, c in kids.items() if key not in out]
            if len(rest) == 1 and rest[0].folded:
                folded = rest[0]
            else:
                nodes = sum(c.nodes for c in rest)
                folded = Group(more(nodes), sum(c.bytes for c in rest), nodes,
                               folded=len(rest))
            out["\0more"] = folded       # (no name holds a NUL: never a scope's key)
            g.children = kids = out
        for c in kids.values():
            if c.children:
                stack.append((c, level + 1))
            elif c.node:
                leaves.append(c.node)
        k += 1
        job.every(k, 1023)
    return leaves


def graph_fields(structure) -> int:
    """Bytes of the GraphDef's library and versions fields (framed; written when set, even
    empty: 2 bytes)."""
    return sum(_framed(getattr(structure, part).ByteSize()) for part in ("library", "versions")
               if structure.HasField(part))


def _chain(root: Group, parts: list) -> list:
    """The groups of the scopes a name sits in, outermost first (made where missing)."""
    out, here = [], root
    for k in range(1, len(parts) + 1):
        path = "/".join(parts[:k])
        here = here.children.setdefault(path, Group(path))
        out.append(here)
    return out


def top(root: Group, depth: int = 1) -> list:
    """(name, bytes, nodes) of the groups `depth` levels down, biggest first."""
    level = [root]
    for _ in range(depth):
        nxt = []
        for g in level:
            nxt.extend(g.children.values() if g.children else [g])
        level = nxt
    return sorted(((g.name, g.bytes, g.nodes) for g in level), key=lambda t: -t[1])


@dataclass
class Duplicates:
    groups: list                     # [(bytes each, [node names])], biggest saving first

    @property
    def tensors(self) -> int:
        return sum(len(names) for _, names in self.groups)

    @property
    def wasted(self) -> int:
        """Bytes a graph sharing one copy per group would save."""
        return sum(size * (len(names) - 1) for size, names in self.groups)


def duplicates(graph, job: Job = NO_JOB) -> Duplicates:
    """Constants whose values are byte-for-byte equal. A constant is read and hashed only
    when another one has its dtype and byte length (dtype size x elements from its shape, so
    a reshaped copy counts too); the rest are never read (meant for a worker thread)."""
    import hashlib  # (here, not with the module: OpenSSL's start costs the app's start ~10 ms)

    candidates: dict = {}
    protos, names, first = graph.structure.node, graph.name_list, graph.index
    for i in graph.nodes_of_op("Const"):      # the op column: no Node view made
        attr = protos[i].attr
        if "value" not in attr or (graph.duplicate_names and first(names[i]) != i):
            continue       # (a second node of a name: its value is not read by name)
        proto = attr["value"].tensor
        length = element_count(proto) * item_size(proto.dtype)
        if element_count(proto) > 1 and length > 0:       # strings: no declared length
            candidates.setdefault((proto.dtype, length), []).append(i)
    found = []
    for same_size in candidates.values():
        if len(same_size) < 2:
            continue
        by_hash: dict = {}
        for i in same_size:
            job.check()
            try:
                value = _value(graph, protos[i], i)
            except (InspectorError, ValueError):     # a damaged tensor is not a duplicate
                continue
            digest = hashlib.blake2b(value.tobytes(), digest_size=16).digest()
            by_hash.setdefault(digest, (value.nbytes, []))[1].append(names[i])
        found.extend((size, same) for size, same in by_hash.values() if len(same) > 1)
    found.sort(key=lambda g: -g[0] * (len(g[1]) - 1))
    return Duplicates(found)


def _value(graph, proto, i: int):
    """Const node i's value as numpy, as graph.tensor_value reads it by name (from the
    file when the graph was opened lazily): no Node view."""
    if graph.lazy:
        return to_numpy(graph.weights.full_tensor(proto, i, "value"))
    return to_numpy(proto.attr["value"].tensor)


def compare(before: Group, after: Group) -> list:
    """(name, bytes before, bytes after) of the first-level groups of two graphs."""
    names = list(dict.fromkeys(list(before.children) + list(after.children)))
    rows = [(n.rstrip("\0"), before.children[n].bytes if n in before.children else 0,
             after.children[n].bytes if n in after.children else 0) for n in names]
    return sorted(rows, key=lambda r: -max(r[1], r[2]))
