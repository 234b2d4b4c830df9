"""The window's side of a reader process's frames (reader_process): one piece of a big
GraphDef added to the graph being streamed in, from the columns the reader read (plain
columns, or with its node fields' places: wire_columns) or read here."""

from __future__ import annotations

import marshal
from array import array

from inspector.core.model import columns, graph_index, piece_inputs, scope_grouping, wire_columns


def loaded(payload: bytes) -> tuple:
    """A P frame's items (marshal), with its node sizes, its NodeDef lengths and a split
    batch's input counts made arrays where they came as array bytes (as lists they were
    ~50k int objects a 16k-node piece for marshal to make and numpy to read back)."""
    pieces, sizes, read, lengths, places, batch, *consts = marshal.loads(payload)
    if sizes.__class__ is bytes:
        sizes = _ints("I", sizes)
    if lengths.__class__ is bytes and places is None:
        lengths = _ints("q", lengths)
    if batch.__class__ is tuple and len(batch) > 3 and batch[3].__class__ is bytes:
        batch = batch[:3] + (_ints("q", batch[3]),) + batch[4:]
    return (pieces, sizes, read, lengths, places, batch, *consts)


def _ints(code: str, data: bytes) -> array:
    out = array(code)
    out.frombytes(data)       # (ValueError for a garbled length: the frame is not taken)
    return out


def add(graph, store, pieces: list, data, count: int, read, lengths, places,
        batch=None, fetch=None, consts=None) -> bool:
    """One piece into the graph: merged into its GraphDef, or (a store) its nodes' places
    recorded; its columns from the reader (`read`), else read here (for a store, the one
    split of the bodies gives both, unless the reader sent that split: `batch`, a
    columns.Batch's fields, with `lengths`). False when it does not parse. places: the node
    fields' places the reader found (_SendingSink._wire; data is None when a store needs
    no more, or, with the reader's `lengths`, until they do not place the nodes: fetch()
    reads it then). consts: the constants' facts the reader read with `read`
    (wire_columns.packed), for a command's graph."""
    if places is not None:
        return _add_placed(graph, store, pieces, data, read, places)
    first = len(graph)
    # the reader's split of the bodies (unless this graph reads its constants while opening)
    sent = batch is not None and read is None and graph._const_parts is None
    if sent:        # (names, ops, input texts, counts, devices[, piece_inputs.split's])
        batch = columns.Batch(*batch[:5], True, *batch[5:6])
        if len(batch.names) != count or len(batch.counts) != count:
            return False
        if not (sum(batch.counts) == len(batch.inputs) if batch.local is None else
                piece_inputs.fits(batch.local, batch.inputs, count, sum(batch.counts))):
            return False
    if store is None:
        try:
            graph.structure.MergeFromString(data)
        except Exception:  # noqa: BLE001
            return False
        if read is None and not sent:
            graph.add_new_nodes(data)
        elif _same_nodes(len(graph.structure.node), first,
                         batch.names if sent else read[0],
                         lambda i: graph.structure.node[i].name):
            if sent:
                graph.add_new_nodes(batch=batch)
            else:
                graph_index.take(graph, read, _facts(graph, first, count, consts))
        else:
            return False
        return True
    if read is None and not sent:
        data = fetch() if data is None else data
        lengths = []
        batch = graph.read_batch(data, count, lengths)
    added = store.add(pieces, data, lengths, count)
    if added is None:        # (other fields among the nodes: the library, ...)
        added = store.add(pieces, fetch(), lengths, count)
    if not added:
        return False
    if read is not None or sent:    # (names read alone: a node whose attributes do not
        # parse is reported when it is read, not here; store.node would keep a block the
        # stream has not filled)
        if not _same_nodes(len(store), first, batch.names if sent else read[0],
                           lambda i: _stored_name(store, i)):
            return False
    if read is not None:
        graph_index.take(graph, read, _facts(graph, first, count, consts))
    else:        # batch None: read node by node (a node without a name, ...)
        graph.add_new_nodes(batch=batch or columns.read_messages(
            graph.structure.node[len(graph):]))
    return True


def _add_placed(graph, store, pieces: list, data, read, places) -> bool:
    """_add of a frame read by the reader's compiled passes: nothing parsed here but one
    node (and, for a GraphDef, the frame merged into it, its constants read)."""
    np = graph_index.numpy()
    at, size, lengths, scopes, only, sent = places
    at, size = np.frombuffer(at, np.int64), np.frombuffer(size, np.int64)
    first, consts = len(graph), None
    wanted = graph._const_parts is not None and first + len(at) >= graph_index.NUMPY_FROM
    if wanted and sent:        # (a command's graph: its constants read by the reader)
        consts = wire_columns.unpacked(sent)
    if store is None:
        try:
            graph.structure.MergeFromString(data)
        except Exception:  # noqa: BLE001
            return False
        name_of = lambda i: graph.structure.node[i].name     # noqa: E731
        if wanted and not sent:
            consts = wire_columns.const_part(
                data, at + size - np.frombuffer(lengths, np.int64), at + size, read, first,
                graph.op_names)
    else:
        if only:
            store.add_places(pieces, at, size)
        elif not store.add(pieces, data, np.frombuffer(lengths, np.int64).tolist(), len(at)):
            return False
        name_of = lambda i: _stored_name(store, i)     # noqa: E731
    # one node parsed alone (store.node would keep a block the stream has not filled)
    if not _same_nodes(len(graph.structure.node), first, read[0], name_of):
        return False
    graph_index.take(graph, read, consts)
    scope_grouping.take_scopes(graph, scopes, first == 0)
    return True


def _facts(graph, first: int, count: int, consts):
    """The reader's constants' facts, where this graph reads them while opening."""
    if consts is None or graph._const_parts is None or \
            first + count < graph_index.NUMPY_FROM:
        return None
    return wire_columns.unpacked(consts)


def _stored_name(store, i: int) -> str:
    """Node i's name read from its field's bytes (its attributes are not parsed: a node
    whose NodeDef does not parse is reported when it is read, not here)."""
    raw_class, flat_class = columns._messages()
    names = flat_class.FromString(raw_class.FromString(store.field_bytes(i, i + 1)).node[0]).name
    return names[-1] if names else ""


def _same_nodes(now: int, first: int, names: list, name_of) -> bool:
    """Whether the reader's columns hold the nodes added from first on (now nodes in all:
    as many, the same first and last names, name_of(index)): a file replaced under the same
    size and time between the reader's reads and ours would pair our nodes with its
    columns."""
    k = len(names)
    return now - first == k and (not k or (name_of(first) == names[0] and
                                           name_of(first + k - 1) == names[-1]))
