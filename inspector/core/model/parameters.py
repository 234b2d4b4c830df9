"""Counting parameters, in one place: a constant holds as many as its tensor has elements; a
variable (TF1 or resource) as many as its declared shape. Counts come from dtype x shape, never
from decoding the values. TF's summarize_graph counts differently; that rule is here too,
labelled, because its text output must match TF's exactly."""

from __future__ import annotations

import math
from itertools import compress, count
from operator import attrgetter

from inspector.core.model import graph_index, tensors

VARIABLE_OPS = frozenset({"Variable", "VariableV2", "VarHandleOp"})
NUMPY_FROM = 4096      # inputs from which a graph's first readers are found by numpy
PIECE = 2048           # names per C-level step (a look-up in a big dict costs 0.2-0.6 us:
#                        8192 a step held the GIL 2-6 ms at normal speed in the 300k settle)
_FITS = 1 << 62        # element counts summed by numpy stay under this (int64)
_ELEMENTS = attrgetter("elements")


def const_elements(node_def) -> int:
    """Elements of a Const's value (0 for any other node)."""
    if node_def.op == "Const" and "value" in node_def.attr:
        return tensors.element_count(node_def.attr["value"].tensor)
    return 0


def variable_elements(node_def) -> int:
    """Elements of a variable's declared shape (0 when unknown or not a variable)."""
    if node_def.op not in VARIABLE_OPS or "shape" not in node_def.attr:
        return 0
    dims = tensors.shape_dims(node_def.attr["shape"].shape)
    return math.prod(dims) if dims is not None and None not in dims else 0


def parameter_counts(node_defs) -> tuple[int, int]:
    """(constant parameters, variable parameters) over NodeDefs."""
    const = var = 0
    for node in node_defs:
        const += const_elements(node)
        var += variable_elements(node)
    return const, var


def tf_summarize_counts(node_defs) -> tuple[int, int, list]:
    """summarize_graph's rule: element counts of the `value` tensor of Const and Variable
    nodes only, where TF can decode it; the names it fails on (it prints them)."""
    const = var = 0
    failed = []
    for node in node_defs:
        if node.op not in ("Const", "Variable", "VariableV2"):
            continue
        attr = node.attr
        tensor = attr["value"].tensor if "value" in attr else None
        if tensor is not None and tensors.is_decodable(tensor):
            n = tensors.element_count(tensor)
            if node.op == "Const":
                const += n
            else:
                var += n
        else:
            failed.append(node.name)
    return const, var, failed


def weight_homes(graph, learned: bool = False) -> dict:
    """{node name: parameters counted at it}: each weight once (learned: only the learned
    numbers, learned_parts; else every constant's elements, as the Summary counts them). A variable counts where it
    sits; a constant that something reads counts at its first reader in graph order (through
    a lone Identity read), where the canvas draws it, else where it sits. Slim keeps weights
    under variable scopes apart from the ops that use them, and a frozen SavedModel keeps them
    at the root: they count in the block that uses them, and a training graph's gradients
    and optimizer, which read them too, do not count them again. Walks the graph's columns
    (no Node object made; the first readers of a big graph's constants by numpy)."""
    facts, variables = learned_parts(graph) if learned else (graph.const_facts(), None)
    names, src, off, ops, op_names = (graph._names, graph._src, graph._in_off, graph._ops,
                                      graph.op_names)
    at: list = []
    big = len(src) >= NUMPY_FROM and not graph.duplicate_names
    if graph.duplicate_names:       # a node of another op may share a constant's name
        for lo in range(0, len(names), PIECE):   # C-level pieces: the GIL is let go between
            at += compress(count(lo), map(facts.__contains__, names[lo:lo + PIECE]))
    else:                           # the facts are the Consts': only they can be there
        consts = sorted(graph.nodes_of_op("Const"))
        for lo in range(0, len(consts), PIECE):
            piece = consts[lo:lo + PIECE]
            at += compress(piece, map(facts.__contains__, map(names.__getitem__, piece)))
    reads = _lone_reads(graph, at) if big else {
        i for i in graph.nodes_of_op("Identity") if off[i + 1] - off[i] == 1 and
        src[off[i]] >= 0 and names[src[off[i]]] in facts}
    if variables is None:
        variables = set()
        for op in VARIABLE_OPS:
            variables.update(graph.nodes_of_op(op))
    if variables:
        at = sorted(set(at) | variables)
    if big and not variables:
        homes = _homes_on_arrays(graph, at, _first_reader_array(graph, reads), facts)
        if homes is not None:
            return homes
    first = graph_index.chunked_list(_first_reader_array(graph, reads), PIECE) if big else None
    read_names = set() if big else {names[i] for i in reads}     # (the loop's way only)
    homes: dict = {}
    protos = graph.structure.node
    for i in at:
        name = names[i]
        if op_names[ops[i]] in VARIABLE_OPS:
            n, home = variable_elements(protos[i]), name
        elif first is not None:
            k = first[i]
            n, home = facts[name].elements, names[k] if k >= 0 else name
        else:
            n, home = facts[name].elements, _first_reader(graph, name, read_names) or name
        if n:
            homes[home] = homes.get(home, 0) + n
    return homes


def _lone_reads(graph, consts: list):
    """The Identity nodes whose one input reads a constant (indexes `consts`), by numpy."""
    np = graph_index.numpy()
    ids = np.asarray(graph.nodes_of_op("Identity"), np.int64)
    offs = graph.in_offsets
    one = ids[(offs[ids + 1] - offs[ids]) == 1]
    read = graph.in_src[offs[one]]
    is_const = np.zeros(len(graph._names), bool)
    is_const[np.asarray(consts, np.int64)] = True
    return one[(read >= 0) & is_const[np.maximum(read, 0)]]


def _homes_on_arrays(graph, at: list, first, facts: dict) -> dict | None:
    """weight_homes of a big graph without variables: each constant's elements summed at its
    home by numpy, in the dict order of the loop (a home first met first), made PIECE items
    a C call (a loop over 100k constants held a thread beside the GUI thread ~0.1 s). None
    (then the loop) where a count or a sum would not fit in int64 (a hostile shape)."""
    np = graph_index.numpy()
    names = graph._names
    at_arr = np.asarray(at, np.int64)
    elements = np.empty(len(at), np.int64)
    for lo in range(0, len(at), PIECE):
        piece = at[lo:lo + PIECE]
        counts = list(map(_ELEMENTS, map(facts.__getitem__, map(names.__getitem__, piece))))
        if counts and max(counts) >= _FITS // max(1, len(at)):
            return None
        elements[lo:lo + len(piece)] = counts
    to = first[at_arr] if len(at) else at_arr
    home = np.where(to >= 0, to, at_arr)
    keep = elements != 0
    home, elements = home[keep], elements[keep]
    if not len(home):
        return {}
    order = np.argsort(home, kind="stable")
    ordered = home[order]
    starts = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]])
    sums = np.add.reduceat(elements[order], starts)
    met = order[starts]                   # where each home is first met in `at`'s order
    by_met = np.argsort(met, kind="stable")
    keys, values = ordered[starts][by_met], sums[by_met]
    homes: dict = {}
    for lo in range(0, len(keys), PIECE):
        homes.update(zip(map(names.__getitem__, keys[lo:lo + PIECE].tolist()),
                         values[lo:lo + PIECE].tolist()))
    return homes


def _first_reader_array(graph, reads: set):
    """For each node, the index of its first reader by data in graph order, looking through
    the lone Identity reads (`reads`, node indexes) to their own readers; -1 for none (a
    numpy array)."""
    np = graph_index.numpy()
    n = len(graph._names)
    src, port = graph.in_src, graph.in_port
    dst = np.repeat(np.arange(n), np.diff(graph.in_offsets))
    data = (port >= 0) & (src >= 0)
    s, d = src[data], dst[data]
    is_read = np.zeros(n, bool)
    at = reads if hasattr(reads, "dtype") else np.fromiter(reads, np.int64, len(reads))
    is_read[at] = True
    through = is_read[d]
    first = _min_by(np, s[~through], d[~through], n)   # of a constant, or of a read
    via = _min_by(np, s[through], first[d[through]], n, skip=-1)   # through a read
    return np.where(first < 0, via, np.where(via < 0, first, np.minimum(first, via)))


def _min_by(np, keys, values, n: int, skip: int | None = None):
    """[min of values with key k for k in range(n)], -1 where none (values == skip left out)."""
    if skip is not None:
        keep = values != skip
        keys, values = keys[keep], values[keep]
    out = np.full(n, -1, np.int64)
    order = np.lexsort((values, keys))
    keys, values = keys[order], values[order]
    starts = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]]) if len(keys) else keys
    out[keys[starts]] = values[starts]
    return out


def _first_reader(graph, name: str, reads: set) -> str | None:
    """The first node in graph order reading `name` by data, through a lone Identity read."""
    readers = []
    for edge in graph.data_consumers(name):
        if edge.dst not in reads:
            readers.append(edge.dst)
        else:
            readers += [e.dst for e in graph.data_consumers(edge.dst) if e.dst not in reads]
    return min(readers, key=graph.index, default=None)


# -- learned numbers (the model card) ------------------------------------------------------
# Keras's count_params() counts the elements of a model's weights. In a graph the same
# weights are the constants (or variables) that hold an array of numbers; what else a graph
# holds as constants is not learned: single numbers (an epsilon, the 6 of ReLU6, a
# rescaling's 1/127.5) and integer arrays read as shapes, axes, paddings or indexes.
_INDEX_DTYPES = frozenset({3, 9, 22, 23})          # int32, int64, uint32, uint64
_NOT_NUMBERS = frozenset({0, 7, 10, 20, 21})       # invalid, string, bool, resource, variant
# an integer array is learned where a layer reads it as its bias (a quantized .tflite's
# int32 biases): op -> the bias's input index
_INTEGER_BIAS_AT = {"CONV_2D": 2, "DEPTHWISE_CONV_2D": 2, "FULLY_CONNECTED": 2,
                    "CONV_3D": 2, "TRANSPOSE_CONV": 3, "CONV_3D_TRANSPOSE": 3,
                    "BiasAdd": 1, "QuantizedBiasAdd": 1}
_ASSIGN_OPS = frozenset({"Assign", "AssignVariableOp"})
LEARNED_DEFINITION = (
    "the elements of every constant and variable that holds an array of numbers (the "
    "weights, biases and batch-norm statistics, as Keras's count_params() counts them); "
    "single numbers (an epsilon, a 6 or a 0.5 in a formula) and integer arrays read as "
    "shapes, axes, paddings or indexes are not counted")


def _holds_numbers(dtype: int, dims) -> bool:
    return bool(dims) and dtype not in _NOT_NUMBERS       # rank >= 1, known


def learned_elements(graph) -> int:
    """The learned numbers of a graph (LEARNED_DEFINITION): for a Keras model frozen into a
    GraphDef, its count_params(); for a graph with variables, their elements (a variable's
    initial value, a constant only an Assign reads, is not counted again). The summary's
    const_parameters stays TF's summarize_graph count, which counts every constant."""
    consts, variables = learned_parts(graph)
    protos = graph.structure.node
    return sum(f.elements for f in consts.values()) + \
        sum(variable_elements(protos[i]) for i in variables)


def learned_parts(graph) -> tuple:
    """({name: facts} of the constants that hold learned numbers, {index} of the variables
    that do): the card's count (learned_elements) and, by weight_homes(learned=True), the
    auto-tour's count of each block, one rule."""
    facts = graph.const_facts()
    protos = graph.structure.node
    variables = {i for op in VARIABLE_OPS for i in graph.nodes_of_op(op)}
    kept, integers = {}, []
    for name, fact in facts.items():
        if not _holds_numbers(fact.dtype, fact.dims):
            continue
        if fact.dtype in _INDEX_DTYPES:
            integers.append(name)
        elif not variables or not _only_assigned(graph, name):
            kept[name] = fact
    kept.update((name, facts[name]) for name in integers if _read_as_bias(graph, name))
    learned = set()
    for i in variables:
        attr = protos[i].attr
        if "dtype" in attr and "shape" in attr and \
                _holds_numbers(attr["dtype"].type, tensors.shape_dims(attr["shape"].shape)) \
                and attr["dtype"].type not in _INDEX_DTYPES:
            learned.add(i)
    return kept, learned


def _only_assigned(graph, name: str) -> bool:
    """Whether only assignments read `name` (a variable's initial value)."""
    readers = [graph.node(e.dst).op for e in graph.data_consumers(name)]
    return bool(readers) and all(op in _ASSIGN_OPS for op in readers)


def _read_as_bias(graph, name: str, depth: int = 0) -> bool:
    """Whether a layer reads the integer array `name` as its bias (through Identity reads)."""
    for edge in graph.data_consumers(name):
        op = graph.node(edge.dst).op
        if _INTEGER_BIAS_AT.get(op) == edge.dst_index:
            return True
        if op == "Identity" and depth < 4 and _read_as_bias(graph, edge.dst, depth + 1):
            return True
    return False
