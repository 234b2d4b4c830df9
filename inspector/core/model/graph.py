"""Read-only model over a GraphDef: nodes, data and control edges, consumers, scopes, functions."""

from __future__ import annotations

import re
import sys
import threading
from collections import Counter
from typing import Iterator, NamedTuple

from inspector.core.model import attrs as attr_codec
from inspector.core.model.scopes import Scope, add_scope


class InputRef(NamedTuple):
    """One entry of NodeDef.input: `name`, `name:port` or `^name`."""

    node: str
    port: int
    control: bool

    def __str__(self) -> str:
        if self.control:
            return "^" + self.node
        return self.node if self.port == 0 else f"{self.node}:{self.port}"


INPUT_SYNTAX = re.compile(r"^\^?[^:^]+(:\d{1,9})?$")


def parse_input(text: str) -> InputRef:
    if text.startswith("^"):
        return InputRef(text[1:].split(":", 1)[0], -1, True)
    name, sep, port = text.partition(":")
    if sep:
        # function-body style `node:out_arg:index` keeps the trailing index as the port
        port = port.rsplit(":", 1)[-1]
        return InputRef(name, int(port) if port.isdigit() else 0, False)
    return InputRef(name, 0, False)


MAX_SCOPE_DEPTH = 64


def scope_parts(name: str) -> list:
    """The name scopes a node sits in, outermost first, at most MAX_SCOPE_DEPTH of them (a
    node named 5,000 scopes deep is shown in its 64th scope, with the rest of its name)."""
    return name.split("/", MAX_SCOPE_DEPTH)[:-1]


def scope_of(name: str) -> str:
    return "/".join(scope_parts(name))


def node_name_from_input(text: str) -> str:
    """TF's NodeNameFromInput: strip a leading ^ and everything from the first ':'."""
    return (text[1:] if text.startswith("^") else text).split(":", 1)[0]


class Edge(NamedTuple):
    src: str
    src_port: int
    dst: str
    dst_index: int
    control: bool


def _parse_inputs(texts, odd: list) -> tuple:
    """Parsed NodeDef inputs; texts that need the full syntax check are added to odd (a plain
    non-empty name without ':' or '^' is always well formed)."""
    out = []
    for text in texts:
        if not text or ":" in text or "^" in text:
            odd.append(text)
            out.append(parse_input(text))
        else:   # tuple.__new__ skips the named tuple's Python-level __new__ (5x faster)
            out.append(_new(InputRef, (_intern(text), 0, False)))
    return tuple(out)


_new = tuple.__new__
_FACTS_LOCK = threading.Lock()
_K, _K_MASK = 32, (1 << 32) - 1      # a consumer's place: node index << 32 | input position
# Names, op types and input names are interned: an input then shares its producer's name
# object and 300k copies of "Const" are one (about 45 MB less on a 300k-node graph).
_intern = sys.intern


class Node:
    """A view of one NodeDef with its inputs parsed. The NodeDef itself is fetched from the
    GraphDef when asked for (`proto`): holding a protobuf wrapper per node cost 46 MB on a
    300k-node graph that the window mostly never looks at."""

    __slots__ = ("index", "_protos", "name", "op", "inputs")
    # made by Graph.add_new_nodes (index, _protos: the GraphDef's repeated node field shared
    # by all nodes, name and op interned, inputs parsed)

    @property
    def proto(self):
        return self._protos[self.index]

    @property
    def device(self) -> str:
        return self.proto.device

    @property
    def scope(self) -> str:
        return scope_of(self.name)

    @property
    def short_name(self) -> str:
        return self.name.rpartition("/")[2]

    @property
    def data_inputs(self) -> tuple:
        return tuple(i for i in self.inputs if not i.control)

    @property
    def control_inputs(self) -> tuple:
        return tuple(i for i in self.inputs if i.control)

    def has_attr(self, key: str) -> bool:
        return key in self.proto.attr

    def attr(self, key: str, default=None):
        if key not in self.proto.attr:
            return default
        return attr_codec.decode(self.proto.attr[key])

    @property
    def attrs(self) -> dict:
        return attr_codec.decode_all(self.proto)

    def __repr__(self) -> str:
        return f"Node({self.name!r}, {self.op!r})"


class Graph:
    """A GraphDef with indexes. Treat as immutable: transforms build new graphs.

    `structure` is the GraphDef as opened; when the model was opened lazily (`weights` is a
    WeightStore) its large tensors have dtype and shape but no values. `graph_def` is the
    whole GraphDef: it reads those values into `structure` on first use (TensorFlow work,
    transforms, saving), so the window, which only draws and inspects, never asks for it."""

    def __init__(self, graph_def, name: str = "", weights=None, complete: bool = True):
        """complete=False: a graph being streamed in (nodes appended to graph_def, then
        `add_new_nodes()` after each batch and `finish()` once at the end)."""
        self.structure = graph_def
        self.weights = weights
        self.name = name
        self.nodes: list = []
        self.malformed_inputs: list[tuple[str, str]] = []
        self._by_name: dict = {}
        self._referenced: set = set()    # every name some input refers to
        self.devices: dict = {}          # node index -> device, for nodes that name one
        # each node's NodeDef size in the file, values included (set by the loader when it
        # knows them without parsing the values: a lazily opened graph), else None
        self.stored_sizes = None
        self.add_new_nodes()
        if complete:
            self.finish(weights)

    def add_new_nodes(self) -> None:
        """Make Node objects for the NodeDefs appended to the GraphDef since the last call."""
        nodes, odd = self.nodes, self.malformed_inputs
        protos, intern, ref_of, make = self.structure.node, _intern, InputRef, Node.__new__
        first = len(nodes)
        append, referenced, devices = nodes.append, self._referenced, self.devices
        for i, proto in enumerate(protos[first:] if first else protos, first):
            texts = proto.input
            if not texts:
                inputs = ()
            elif len(texts) == 1 and (text := texts[0]) and ":" not in text and \
                    "^" not in text:    # the common case: one plain input
                inputs = (_new(ref_of, (intern(text), 0, False)),)
            else:
                before = len(odd)
                inputs = _parse_inputs(texts, odd)
                if len(odd) > before:
                    bad = [t for t in odd[before:] if not INPUT_SYNTAX.match(t)]
                    del odd[before:]
                    odd.extend((proto.name, t) for t in bad)
            node = make(Node)     # Node.__init__ written out: 300k calls less on 300k nodes
            node.index, node._protos, node.inputs = i, protos, inputs
            node.name, node.op = intern(proto.name), intern(proto.op)
            if proto.device:
                devices[i] = proto.device
            append(node)
        # indexed as they come (a streamed graph does this while the rest is being read)
        new = nodes[first:] if first else nodes
        self._by_name.update({node.name: node for node in new})
        referenced.update({ref.node for node in new for ref in node.inputs})

    def finish(self, weights=None) -> None:
        """Index the nodes (names, references, problems); the graph is complete after."""
        self.weights = weights if weights is not None else self.weights
        nodes, by_name = self.nodes, self._by_name
        self.duplicate_names: list[str] = []
        if len(by_name) < len(nodes):      # the first node of a name is the one looked up
            by_name.clear()
            for node in nodes:
                if node.name in by_name:
                    self.duplicate_names.append(node.name)
                else:
                    by_name[node.name] = node
        self._consumers: dict | None = None   # built on first use (consumer_index)
        referenced = self._referenced
        self.dangling_inputs: list[tuple[str, str]] = []
        # a loop, not `referenced <= by_name.keys()`: one C call of 35 ms at 300k nodes holds
        # the GIL that long, and the GUI thread waits for it in each of its calls into Python
        if any(name not in by_name for name in referenced):
            self.dangling_inputs = [(node.name, ref.node) for node in nodes
                                    for ref in node.inputs if ref.node not in by_name]
        self._scope_root: Scope | None = None
        self._op_counts: dict | None = None
        self._const_facts: dict | None = None

    @property
    def graph_def(self):
        if self.weights is not None and not self.weights.filled:
            self.weights.materialize(self.structure)
        return self.structure

    @property
    def lazy(self) -> bool:
        """True while some tensor values are still only in the file."""
        return self.weights is not None and not self.weights.filled

    def tensor(self, name: str, attr: str = "value"):
        """The node's tensor attribute with its values (read from the file if needed)."""
        node = self.node(name)
        if self.weights is not None and not self.weights.filled:
            return self.weights.full_tensor(node.proto, node.index, attr)
        return node.proto.attr[attr].tensor

    def tensor_value(self, name: str, attr: str = "value"):
        """The node's tensor attribute decoded into a numpy array."""
        from inspector.core.model.tensors import to_numpy

        return to_numpy(self.tensor(name, attr))

    # -- lookup -------------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self.nodes)

    def __iter__(self) -> Iterator[Node]:
        return iter(self.nodes)

    def __contains__(self, name: str) -> bool:
        return name in self._by_name

    def names(self):
        """Every node name (a view: `set(graph.names())` is one C-level copy)."""
        return self._by_name.keys()

    def node(self, name: str) -> Node:
        return self._by_name[name]

    def nodes_named(self, names) -> list:
        """The nodes of these names, in that order (one C-level pass)."""
        return list(map(self._by_name.__getitem__, names))

    def get(self, name: str) -> Node | None:
        return self._by_name.get(name)

    def consumers(self, name: str) -> list[Edge]:
        """Edges leaving `name`, data and control, in graph order of the consumers."""
        readers = self.consumer_index().get(name)
        if readers is None:
            return []
        nodes, out = self.nodes, []
        for at in ((readers,) if readers.__class__ is int else readers):
            node, k = nodes[at >> _K], at & _K_MASK
            ref = node.inputs[k]
            out.append(_new(Edge, (name, ref.port, node.name, k, ref.control)))
        return out

    def consumer_index(self) -> dict:
        """{name: where it is read} (built on first use: opening a graph does not need it).
        A place is one int, node index << 32 | input position; a name read once maps to
        that int, else to a list of them in graph order (ints, not Edge objects: about
        15 MB instead of 57 MB on a 300k-node graph)."""
        index = self._consumers
        if index is None:
            index = {}
            for i, node in enumerate(self.nodes):
                base = i << _K
                for k, ref in enumerate(node.inputs):
                    src = ref.node
                    readers = index.get(src)
                    if readers is None:
                        index[src] = base | k
                    elif readers.__class__ is int:
                        index[src] = [readers, base | k]
                    else:
                        readers.append(base | k)
            self._consumers = index
        return index

    def consumer_names(self, name: str) -> list:
        """Names of the nodes reading `name` (each once), in graph order."""
        readers = self.consumer_index().get(name)
        if readers is None:
            return []
        nodes = self.nodes
        if readers.__class__ is int:
            return [nodes[readers >> _K].name]
        return list(dict.fromkeys(nodes[at >> _K].name for at in readers))

    def data_consumers(self, name: str) -> list[Edge]:
        return [e for e in self.consumers(name) if not e.control]

    def edges(self) -> Iterator[Edge]:
        for node in self.nodes:
            for k, ref in enumerate(node.inputs):
                yield Edge(ref.node, ref.port, node.name, k, ref.control)

    def problems(self) -> list[str]:
        out = [f"node '{n}' has input '{m}', which is not in the graph"
               for n, m in self.dangling_inputs]
        out += [f"node '{n}' has a malformed input '{t}' (expected name, name:port or ^name)"
                for n, t in self.malformed_inputs]
        out += [f"duplicate node name '{n}'" for n in self.duplicate_names]
        out += [f"node #{n.index} has no name" for n in self.nodes if not n.name]
        out += [f"node '{n.name}' has no op" for n in self.nodes if n.name and not n.op]
        return out

    def op_counts(self) -> dict:
        """{op type: nodes} over the graph's own nodes (counted once)."""
        if self._op_counts is None:
            self._op_counts = dict(Counter(n.op for n in self.nodes))
        return self._op_counts

    def const_facts(self) -> dict:
        """{name: tensors.Facts} of every Const with a value (one pass, kept): element
        counts, sizes and decodability without decoding anything."""
        if self._const_facts is None:
            from inspector.core.model.tensors import facts

            with _FACTS_LOCK:    # the layout and the summary may both ask at once: read once
                if self._const_facts is None:
                    out = {}
                    for node in self.nodes:
                        if node.op == "Const":
                            attr = node.proto.attr
                            if "value" in attr:
                                out[node.name] = facts(attr["value"].tensor)
                    self._const_facts = out
        return self._const_facts

    @property
    def const_facts_ready(self) -> bool:
        return self._const_facts is not None

    def has_consumers(self, name: str) -> bool:
        """True when any node reads `name` (data or control)."""
        return name in self._referenced

    # -- structure ----------------------------------------------------------------------
    def scope_tree(self) -> Scope:
        """Name-scope hierarchy from '/' in node names (built once)."""
        if self._scope_root is None:
            root = Scope("")
            by_path = {"": root}
            for node in self.nodes:
                name = node.name
                # nodes of one scope share it: one dict look-up, the scope made on first sight
                path = name.rpartition("/")[0] if name.count("/") <= MAX_SCOPE_DEPTH \
                    else "/".join(scope_parts(name))
                scope = by_path.get(path)
                if scope is None:
                    scope = add_scope(by_path, path)
                scope.nodes.append(name)
            self._scope_root = root
        return self._scope_root

    # -- function library ---------------------------------------------------------------
    @property
    def functions(self) -> dict:
        return {f.signature.name: f for f in self.structure.library.function}
