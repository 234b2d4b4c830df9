"""Read-only model over a GraphDef: nodes, data and control edges, consumers, scopes, functions."""

from __future__ import annotations

import threading
from array import array
from collections import Counter
from itertools import compress, count
from typing import Iterator

from inspector.core.model import columns, const_columns, graph_index, scope_grouping
from inspector.core.model.graph_consumers import ConsumerLookups
from inspector.core.model.inputs import (  # noqa: F401  (the names code imports from here)
    INPUT_SYNTAX, MAX_SCOPE_DEPTH, Edge, InputRef, node_name_from_input, parse_input,
    scope_of, scope_parts)
from inspector.core.model.node_store import StoredGraphDef, protos_at
from inspector.core.model.node_view import Columns, Node, NodeList
from inspector.core.model.scope_tree import EveryScope
from inspector.core.model.scopes import Scope
from inspector.core.runtime import front_end, gc_policy
from inspector.core.runtime.lazy_import import later

presizing = later("inspector.core.runtime.presized", globals(), "presizing")   # (ctypes)


_FACTS_LOCK = threading.Lock()
WIRE_BELOW = 64 * 2 ** 20     # a GraphDef up to this size plus 400 bytes a node is read
TRIM_FROM = 50_000            # graphs this big hand the memory their opening freed back
WIRE_PER_NODE = 400           # through its wire bytes (columns.read_wire): a few copies
PRESIZE_FROM = 1 << 16        # nodes expected from which a streamed graph's name index is
# made with room for them (expect)


class Graph(ConsumerLookups):
    """A GraphDef with indexes, held as columns. Treat as immutable: transforms build new
    graphs.

    Columns (numpy views through the properties): node i's name (`name_list[i]`), op code
    (`op_codes[i]`, naming `op_names`), and its inputs at positions in_offsets[i] ..
    in_offsets[i + 1] of `in_src` (the producer's index, -1 when not a node of the graph)
    and `in_port` (-1 for a control input). `nodes` holds Node views made on demand.

    `structure` is the GraphDef as opened (read-only; for a streamed big graph a
    node_store.StoredGraphDef that parses nodes when asked); when the model was opened
    lazily (`weights` is a WeightStore) its large tensors have dtype and shape but no values.
    `graph_def` is the whole GraphDef: it makes the real one and reads those values into it
    on first use (TensorFlow work, transforms, saving), so the window, which only draws and
    inspects, never asks for it."""

    def __init__(self, graph_def, name: str = "", weights=None, complete: bool = True):
        """complete=False: a graph being streamed in (nodes appended to graph_def, then
        `add_new_nodes(their wire bytes)` after each batch and `finish()` once at the end)."""
        self.structure = graph_def
        self.weights = weights
        self.name = name
        self.malformed_inputs: list[tuple[str, str]] = []
        self.devices: dict = {}          # node index -> device, for nodes that name one
        # each node's NodeDef size in the file, values included (set by the loader when it
        # knows them without parsing the values: a lazily opened graph), else None
        self.stored_sizes = None
        # True: stored_sizes are each node's bytes of a file that is no GraphDef (a .tflite's
        # tensors and operators), its place in the file included: no NodeDef framing to add
        self.sizes_in_file = False
        self._names: list = []
        self._views: list = []
        self._index: dict = {}           # name -> index of the first node of that name
        self._op_code: dict = {}
        self.op_names: list = []
        self._ops = array("i")
        self._in_off = array("q", [0])
        self._src, self._port = array("i"), array("i")
        self._loose: dict = {}           # input position -> name, for inputs of no node
        self._big_ports: dict = {}       # input position -> port, past what an int32 holds
        self._lock = threading.Lock()    # the indexes built on first use
        self._wire, self._duplicates = True, False   # _wire: every batch read from wire bytes
        self._odd: set = set()           # node names that are empty or hold ':' or '^'
        self._scoping = None             # scope ids read ahead (read_scopes_ahead)
        self._every = None               # and their tree (scope_tree.EveryScope)
        # const_columns.ConstPart of each batch; None: not read while opening (the window's
        # first picture needs no constant, and they cost ~0.4 us a node before it:
        # Graph.const_facts reads them after it)
        self._const_parts: list | None = None if front_end.WINDOW else []
        self._cols = Columns(structure=graph_def, names=self._names, op_names=self.op_names,
                             ops=self._ops, in_off=self._in_off, src=self._src,
                             port=self._port, loose=self._loose, big_ports=self._big_ports,
                             devices=self.devices)
        self.nodes = NodeList(self._cols, self._views)
        self._complete = False
        self.add_new_nodes()
        if complete:
            self.finish(weights)

    def add_new_nodes(self, data=None, batch=None) -> None:
        """Index the NodeDefs appended to the GraphDef since the last call; `data`: their
        GraphDef wire bytes when the caller has them (read without a Python object a node),
        or `batch`: their columns, read by the caller (read_batch)."""
        protos, first = self.structure.node, len(self._names)
        count = len(protos) - first
        if count <= 0:
            return
        consts = first + count >= graph_index.NUMPY_FROM and self._const_parts is not None
        if batch is None and count >= 64:
            if data is None and first == 0 and \
                    self.structure.ByteSize() <= WIRE_BELOW + WIRE_PER_NODE * count:
                data = self.structure.SerializeToString()
            if data is not None:
                batch = self.read_batch(data, count)
        if batch is None:
            batch = columns.read_messages(protos[first:] if first else protos)
        graph_index.append(self, batch, first)
        if self._const_parts is not None:
            self._const_parts = const_columns.add_batch(self._const_parts, batch, first,
                                                         consts)

    def expect(self, nodes: int) -> None:
        """About `nodes` nodes are coming (a streamed graph, told before its first piece is
        added): from PRESIZE_FROM, its name index is made with room for them
        (runtime.presized) instead of growing from empty."""
        if not self._index and nodes >= PRESIZE_FROM:
            self._index = presizing.presized(nodes)

    def read_batch(self, data, count: int, lengths: list | None = None):
        """The columns of the next `count` nodes from their GraphDef wire bytes
        (columns.read_wire; `lengths` gets each one's NodeDef length), or None."""
        consts = len(self._names) + count >= graph_index.NUMPY_FROM and \
            self._const_parts is not None
        if lengths is None:
            return columns.read_wire(data, count, consts)
        return columns.read_wire(data, count, consts, lengths)

    def took_nodes(self, first: int, count: int, consts=None) -> None:
        """Nodes added from another process's columns (graph_index.take): their constants
        are `consts` (a const_columns.ConstPart read from their bytes), else read from their
        NodeDefs (const_columns.add_taken)."""
        if consts is not None and self._const_parts is not None:
            self._const_parts.append(consts)
        elif self._const_parts is not None:
            self._const_parts = const_columns.add_taken(self._const_parts, self, first,
                                                         count)

    def finish(self, weights=None) -> None:
        """Settle the indexes (names, references, problems); the graph is complete after."""
        self.weights = weights if weights is not None else self.weights
        graph_index.finish(self)
        if len(self._names) >= TRIM_FROM:
            gc_policy.give_back_memory()     # the parse's buffers, freed among the columns
        self._consumers = self._loose_at = None     # built on first use (consumer_index)
        self._scope_root: Scope | None = None
        self._scopes = None
        self._op_counts: dict | None = None
        self._const_facts: dict | None = None
        self._lazy_at_load = self.lazy
        self._complete = True

    @property
    def graph_def(self):
        if self.structure.__class__ is StoredGraphDef:    # a big graph's stand-in: made real
            with self._lock:
                stored = self.structure
                if stored.__class__ is StoredGraphDef:
                    self.structure = self._cols.structure = stored.to_graph_def()
                    stored.store.close()
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

    # -- columns ------------------------------------------------------------------------
    @property
    def name_list(self) -> list:
        return self._names

    def index(self, name: str) -> int:
        """The index of the (first) node of this name; KeyError when there is none."""
        return self._index[name]

    def _column(self, arr, dtype):
        np = graph_index.numpy()
        # a view while the graph can no longer grow, else a copy (an array exporting its
        # buffer cannot be extended)
        return np.frombuffer(arr, dtype) if self._complete and len(arr) else \
            np.array(arr, dtype)

    @property
    def op_codes(self):
        return self._column(self._ops, "int32")

    @property
    def in_offsets(self):
        return self._column(self._in_off, "int64")

    @property
    def in_src(self):
        return self._column(self._src, "int32")

    @property
    def in_port(self):
        return self._column(self._port, "int32")

    @property
    def in_control(self):
        return self.in_port < 0

    # -- lookup -------------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self._names)

    def __iter__(self) -> Iterator[Node]:
        return iter(self.nodes)

    def __contains__(self, name: str) -> bool:
        return name in self._index

    def names(self):
        """Every node name (a view: `set(graph.names())` is one C-level copy)."""
        return self._index.keys()

    def node(self, name: str) -> Node:
        return self.nodes[self._index[name]]

    def nodes_named(self, names) -> list:
        """The nodes of these names, in that order."""
        return list(map(self.nodes.__getitem__, map(self._index.__getitem__, names)))

    def get(self, name: str) -> Node | None:
        i = self._index.get(name)
        return None if i is None else self.nodes[i]

    def problems(self) -> list[str]:
        out = [f"node '{n}' has input '{m}', which is not in the graph"
               for n, m in self.dangling_inputs]
        out += [f"node '{n}' has a malformed input '{t}' (expected name, name:port or ^name)"
                for n, t in self.malformed_inputs]
        out += [f"duplicate node name '{n}'" for n in self.duplicate_names]
        if "" in self._index:
            out += [f"node #{i} has no name" for i, n in enumerate(self._names) if not n]
        if "" in self._op_code:
            code = self._op_code[""]
            out += [f"node '{n}' has no op" for n, c in zip(self._names, self._ops)
                    if n and c == code]
        return out

    def op_counts(self) -> dict:
        """{op type: nodes} over the graph's own nodes (counted once), in order of first
        sight."""
        if self._op_counts is None:
            # numpy on a big graph: Counter's one C-level pass held the GIL ~70 ms at 1M
            counts = graph_index.tally(self._ops, len(self.op_names)) \
                if len(self._ops) >= graph_index.NUMPY_FROM else Counter(self._ops)
            self._op_counts = {op: counts[c] for c, op in enumerate(self.op_names)
                               if counts[c]}
        return self._op_counts

    def nodes_of_op(self, op: str) -> list:
        """Indexes of the nodes of this op type, in graph order."""
        code = self._op_code.get(op)
        if code is None:
            return []
        if len(self._ops) >= graph_index.NUMPY_FROM:   # a few ms, not one long C-level pass
            return graph_index.chunked_list((self.op_codes == code).nonzero()[0])
        return list(compress(count(), map(code.__eq__, self._ops)))

    def nodes_of_op_in_parts(self, op: str):
        """nodes_of_op's indexes as lists of up to 64k (a big graph's one list of 400k ints
        is freed in one C call that held the GIL ~40 ms under load; each part is freed as
        the loop moves on)."""
        code = self._op_code.get(op)
        if code is None or len(self._ops) < graph_index.NUMPY_FROM:
            yield self.nodes_of_op(op)
            return
        found = (self.op_codes == code).nonzero()[0]
        for k in range(0, len(found), 1 << 16):
            yield found[k:k + (1 << 16)].tolist()

    def const_parts(self) -> list | None:
        """The facts of every Const (const_columns.ConstPart of each batch, in graph order)
        read from the bytes while opening, or None (a small graph; opened by the window;
        duplicate names; values read into the GraphDef since): then const_facts."""
        parts = self._const_parts
        if not parts or self.duplicate_names or self.lazy != self._lazy_at_load:
            return None
        return parts

    def const_columns(self):
        """const_parts as one ConstPart (joined once: the parts are let go), or None."""
        parts = self.const_parts()
        if parts is not None and len(parts) > 1:
            with self._lock:
                if len(self._const_parts) > 1:
                    self._const_parts = [const_columns.ConstPart.join(self._const_parts)]
            parts = self._const_parts
        return None if parts is None else parts[0]

    def const_facts(self) -> dict:
        """{name: tensors.Facts} of every Const with a value (one pass, kept): element
        counts, sizes and decodability without decoding anything."""
        if self._const_facts is None:
            from inspector.core.model.tensors import facts

            with _FACTS_LOCK:    # the layout and the summary may both ask at once: read once
                if self._const_facts is None:
                    cols = self.const_columns()
                    if cols is not None:
                        self._const_facts = const_columns.facts_dict(self, cols)
                        return self._const_facts
                    out, structure, names = {}, self.structure, self._names
                    for part in self.nodes_of_op_in_parts("Const"):
                        for i, proto in protos_at(structure, part):
                            attr = proto.attr
                            if "value" in attr:
                                out[names[i]] = facts(attr["value"].tensor)
                    self._const_facts = out
        return self._const_facts

    @property
    def const_facts_ready(self) -> bool:
        return self._const_facts is not None

    # -- structure ----------------------------------------------------------------------
    def scope_ids(self):
        """(scope paths, the scope id of each node: an array('i')), built once."""
        if self._scopes is None:
            with self._lock:
                if self._scopes is None:
                    ahead, self._scoping = self._scoping, None
                    self._scopes = ahead is not None and ahead.result(self._names) or \
                        scope_grouping.scope_groups(self._names)
        return self._scopes

    def read_scopes_ahead(self) -> None:
        """Group the nodes read so far by scope (a streamed graph waiting for its next
        piece: the window's first picture then does not wait for it)."""
        if self._scoping is None:
            self._scoping = scope_grouping.ScopeIds()
        self._scoping.advance(self._names)
        paths = getattr(self._scoping, "paths", None)       # and their tree, a piece a wait
        if paths is not None:
            self._every = self._every or EveryScope()
            self._every.advance(paths)        # a Python loop: the GIL goes round

    def scope_tree(self) -> Scope:
        """Name-scope hierarchy from '/' in node names (built once)."""
        if self._scope_root is None:
            paths, ids = self.scope_ids()
            with self._lock:     # the same tree for every thread (scopes are compared by
                if self._scope_root is None:    # identity)
                    self._scope_root = scope_grouping.scope_tree(self._names, paths, ids,
                                                              self._every)
        return self._scope_root

    # -- function library ---------------------------------------------------------------
    @property
    def functions(self) -> dict:
        return {f.signature.name: f for f in self.structure.library.function}
