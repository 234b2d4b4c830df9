"""What summarize_graph reports, and the likely inputs/outputs ranked with reasons."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from inspector.core.analysis import summary_columns as columns
from inspector.core.analysis.port_types import registry_dtype
from inspector.core.analysis.preprocessing import find_preprocessing_chains
from inspector.core.errors import ModelLoadError
from inspector.core.model import op_categories, tensors
from inspector.core.model.dtypes import dtype_name
from inspector.core.model.graph import Graph, Node, node_name_from_input
from inspector.core.model.parameters import (
    VARIABLE_OPS,
    tf_summarize_counts,
    variable_elements,
)

UNLIKELY_OUTPUT_OPS = {"Const", "Assign", "NoOp", "Placeholder"}
SIGNATURE_SCORE = 120       # a port the model's signature declares (SavedModel, TF.js, Keras)
FINAL_OPS = {"Softmax": "class probabilities", "Sigmoid": "probabilities",
             "LogSoftmax": "log-probabilities", "ArgMax": "class index", "TopKV2": "top-k classes"}


_COND_LEFTOVERS = {"switch_t", "switch_f", "pred_id"}
_REAL_DTYPES = {"float", "half", "double", "bfloat16", "complex64", "complex128"}


@dataclass
class Candidate:
    """A proposed input, output or variable, with why it was proposed."""

    name: str
    op: str
    dtype: str = ""
    shape: str = ""
    reason: str = ""
    score: int = 0
    label: str = ""      # the signature's own name for this tensor, if any ("contour")
    shape_note: str = ""  # why an output's shape (or some of its sizes) was not determined

    def as_dict(self) -> dict:
        return dict(self.__dict__)

    @property
    def title(self) -> str:
        """'contour (Identity)' for a signature's tensor under another name; else the name."""
        return f"{self.label} ({self.name})" if self.label and self.label != self.name \
            else self.name


@dataclass
class Summary:
    node_count: int
    function_count: int
    inputs: list
    outputs: list
    variables: list
    const_parameters: int
    variable_parameters: int
    control_edges: int
    devices: dict
    op_counts: dict
    bytes_by_op: dict
    bytes_by_dtype: dict
    preprocessing: list
    problems: list
    tf_const_parameters: int = 0
    tf_variable_parameters: int = 0
    unlikely_outputs: list = field(default_factory=list)


def dtype_of(node: Node) -> str:
    for key in ("dtype", "T", "DstT", "out_type"):
        if node.has_attr(key):
            value = node.proto.attr[key]
            if value.WhichOneof("value") == "type":
                return dtype_name(value.type)
    return ""


def shape_of(node: Node) -> str:
    """Declared shape of output 0: the `shape` attr, else `_output_shapes`, else ''."""
    if node.has_attr("shape") and node.proto.attr["shape"].HasField("shape"):
        return tensors.format_shape(tensors.shape_dims(node.proto.attr["shape"].shape))
    if node.has_attr("_output_shapes"):
        shapes = node.proto.attr["_output_shapes"].list.shape
        if shapes:
            return tensors.format_shape(tensors.shape_dims(shapes[0]))
    if node.op == "Const" and node.has_attr("value"):
        return tensors.format_shape(tensors.shape_dims(node.proto.attr["value"].tensor.tensor_shape))
    return ""


def port_dtype(node: Node, port: int) -> str:
    """dtype of one output: the op registry's output type (port_types), else for an op it
    does not know (a TFLite op, a custom op) the node's own dtype attrs."""
    dtype = registry_dtype(node, port) or (dtype_of(node) if port == 0 else "")
    for key in ("Tout", "output_types", "T"):
        if not dtype and node.has_attr(key):
            types = node.proto.attr[key].list.type
            if port < len(types):
                return dtype_name(types[port])
    return dtype


def port_dtype_shape(node: Node, port: int) -> tuple[str, str]:
    """dtype and declared shape of one output of a node (ports past 0 of multi-output ops
    from `_output_shapes`)."""
    dtype = port_dtype(node, port)
    shape = shape_of(node) if port == 0 else ""
    if port and node.has_attr("_output_shapes"):
        shapes = node.proto.attr["_output_shapes"].list.shape
        if port < len(shapes):
            shape = tensors.format_shape(tensors.shape_dims(shapes[port]))
    return dtype, shape


def const_source(graph: Graph, name: str):
    """The Const behind a node that is a Const or a Const->Identity pair, else None."""
    node = graph.get(name)
    if node is not None and node.op == "Identity" and len(node.inputs) == 1:
        node = graph.get(node.inputs[0].node)
    return node if node is not None and node.op == "Const" else None


def tensor_label(graph: Graph, name: str, port: int, inferred: dict | None = None) -> str:
    """`dtype shape` of one output (the op's output type, not its input's): inferred shapes first, then `_output_shapes`, then a
    constant's own shape ("" for a node whose NodeDef does not parse: the picture shows, the
    node's error when it is read)."""
    node = graph.get(name)
    if node is None:
        return ""
    try:
        return _tensor_label(node, name, port, inferred)
    except ModelLoadError:
        return ""


def _tensor_label(node, name: str, port: int, inferred: dict | None) -> str:
    shape = ""
    known = inferred.get(name) if inferred else None
    if known and port < len(known):
        shape = tensors.format_shape(known[port])
    elif node.has_attr("_output_shapes"):
        shapes = node.proto.attr["_output_shapes"].list.shape
        if port < len(shapes):
            shape = tensors.format_shape(tensors.shape_dims(shapes[port]))
    elif node.op == "Const" and node.has_attr("value"):
        shape = tensors.format_shape(tensors.shape_dims(node.proto.attr["value"].tensor.tensor_shape))
    return f"{port_dtype(node, port)} {shape}".strip()


def tf_parameter_counts(graph: Graph, totals=None) -> tuple[int, int, list]:
    """summarize_graph's counts (see parameters.tf_summarize_counts); constants through the
    graph's constant columns (totals: their summary_columns.const_totals, if made), else its
    kept facts (facts_totals), so the summary and the canvas read each tensor's shape once."""
    totals = totals or columns.const_totals(graph) or columns.facts_totals(graph)
    const, others = totals[0], list(totals[1])  # (failed ones: reported, in graph order)
    others += columns.indexes_of_ops(graph, ("Variable", "VariableV2"))
    protos = graph.structure.node
    more_const, var, failed = tf_summarize_counts([protos[i] for i in sorted(others)])
    return const + more_const, var, failed


def op_histogram(graph: Graph) -> Counter:
    """Op counts over graph nodes and every function body (as summarize_graph counts)."""
    counts = Counter(graph.op_counts())
    for fdef in graph.structure.library.function:
        counts.update(n.op for n in fdef.node_def)
    return counts


def _variable_candidates(graph: Graph) -> tuple[list, int]:
    out, total = [], 0
    for i in columns.indexes_of_ops(graph, sorted(VARIABLE_OPS)):
        node = graph.nodes[i]
        count = variable_elements(node.proto)
        total += count
        kind = "resource variable" if node.op == "VarHandleOp" else "variable"
        out.append(Candidate(node.name, node.op, dtype_of(node), shape_of(node),
                             f"{kind}, {count:,} parameters", count))
    return out, total


def _tensor_name(node: Node, port: int, tensor: str) -> str:
    """The tensor as the model's own runtime names it: a .tflite's as LiteRT does
    ('StatefulPartitionedCall:1', whose node reads StatefulPartitionedCall_1), else `tensor`."""
    if port == 0 and node.has_attr("tflite_tensor"):
        return node.proto.attr["tflite_tensor"].s.decode("utf-8", "replace") or tensor
    return tensor


def _output_candidates(graph: Graph, known: list) -> tuple[list, list]:
    likely, unlikely = [], []
    known_nodes = set()
    for tensor in known:     # one row per signature tensor, even when they share a node
        name, _, port = tensor.partition(":")
        node = graph.get(name)
        if node is None:
            continue
        known_nodes.add(name)
        port = int(port) if port.isdigit() else 0
        dtype, shape = port_dtype_shape(node, port)
        likely.append(Candidate(name if port == 0 else f"{name}:{port}", node.op, dtype, shape,
                                f"signature output ({_tensor_name(node, port, tensor)})",
                                SIGNATURE_SCORE))
    for i in columns.unread(graph, UNLIKELY_OUTPUT_OPS):
        node = graph.nodes[i]
        if node.name in known_nodes:
            continue
        cand = Candidate(node.name, node.op, dtype_of(node), shape_of(node))
        role = op_categories.training_role(node.name, node.op)
        if role:
            cand.reason, cand.score = f"no consumers, but a {role} op ({node.op})", 10
            unlikely.append(cand)
            continue
        else:
            head = _final_op_behind(graph, node)
            if head is not None:
                cand.reason = f"no consumers, {head.op} ({FINAL_OPS[head.op]})"
                if head is not node:
                    cand.reason += f" via {node.op}"
                cand.score = 100
            elif node.op in ("Shape", "Size", "Rank", "ShapeN"):
                cand.reason, cand.score = f"no consumers, {node.op} (a leftover shape query)", 25
            elif op_categories.category(node.op) in ("control", "variable", "io"):
                cand.reason, cand.score = f"no consumers, {node.op} (bookkeeping?)", 30
            elif node.op == "Identity" and node.name.rpartition("/")[2] in _COND_LEFTOVERS:
                cand.reason, cand.score = "no consumers, a tf.cond leftover (Identity)", 20
            elif metric := _metric_behind(graph, node):
                cand.reason, cand.score = f"no consumers, a training metric ({metric})", 15
            elif cand.dtype and cand.dtype not in _REAL_DTYPES:
                cand.reason, cand.score = f"no consumers, {node.op} ({cand.dtype}: a count or " \
                                          "index rather than a result?)", 50
            else:
                cand.reason, cand.score = f"no consumers, {node.op}", 70
        likely.append(cand)
    likely.sort(key=lambda c: -c.score)
    return likely, unlikely


_METRIC_OPS = {"EditDistance", "InTopK", "InTopKV2", "CTCLoss", "CTCLossV2",
               "SparseSoftmaxCrossEntropyWithLogits", "SoftmaxCrossEntropyWithLogits"}
_PASS_THROUGH = {"Identity", "Pack", "Mean", "Cast", "Reshape", "Squeeze", "ExpandDims",
                 "Sum", "Sub", "Mul", "RealDiv", "Div", "Add", "AddV2"}


def _metric_behind(graph: Graph, node: Node) -> str:
    """The op type of an accuracy/error metric or loss a few simple ops above node, or ''."""
    frontier, seen = [node], 0
    while frontier and seen < 12:
        here = frontier.pop()
        seen += 1
        if here.op in _METRIC_OPS:
            return here.op
        if here.op in _PASS_THROUGH or here is node:
            frontier.extend(n for n in (graph.get(i.node) for i in here.data_inputs) if n)
    return ""


def _final_op_behind(graph: Graph, node: Node) -> Node | None:
    """The node itself if it is Softmax-like, or one reached through Identity-like ops."""
    seen = 0
    while node is not None and seen < 8:
        if node.op in FINAL_OPS:
            return node
        if node.op not in ("Identity", "Reshape", "Squeeze", "StopGradient") or not node.data_inputs:
            return None
        node = graph.get(node.data_inputs[0].node)
        seen += 1
    return None


def _input_candidates(graph: Graph, known: list, outputs: list, chains: list) -> list:
    out = []
    known_nodes = {k.split(":")[0]: k for k in known}
    top = max((c.score for c in outputs), default=0)
    best_outputs = {c.name for c in outputs if c.score == top and top >= 70}
    chain_heads = {c.source: c for c in chains}
    feeding: list = []

    def feeds_outputs(name: str) -> bool:
        """Whether the likely outputs depend on this node (one walk back, for every
        placeholder)."""
        if not feeding:
            starts = {node_name_from_input(o) for o in best_outputs}
            feeding.append(columns.upstream_marks(
                graph, [graph.index(s) for s in sorted(starts) if s in graph]))
        return bool(feeding[0][graph.index(name)])

    for chain in chains:
        out.append(Candidate(chain.feed, graph.node(chain.feed).op, "float", chain.feed_shape,
                             f"end of the {chain.kind} preprocessing chain "
                             f"{' -> '.join(chain.ops)}: a mobile app feeds pixels here", 110))
    placeholders = columns.indexes_of_ops(graph, ("Placeholder", "PlaceholderWithDefault"))
    for i in sorted(set(placeholders).union(columns.indexes_named(graph, known_nodes))):
        node = graph.nodes[i]
        cand = Candidate(node.name, node.op, dtype_of(node), shape_of(node))
        desc = f"{node.op}, {cand.dtype or '?'} {cand.shape or '(no shape)'}"
        if node.name in known_nodes:
            said = _tensor_name(node, 0, known_nodes[node.name])
            cand.reason, cand.score = f"signature input ({said}), {desc}", \
                SIGNATURE_SCORE
        elif not graph.has_consumers(node.name):
            cand.reason, cand.score = f"{desc}; unused", 5
        elif op_categories.training_role(node.name, node.op):
            role = op_categories.training_role(node.name, node.op)
            cand.reason, cand.score = f"{desc}; part of the {role}", 5
        elif node.name in chain_heads:
            cand.reason, cand.score = f"{desc}; encoded image for the {chain_heads[node.name].kind} " \
                                      "decoder (feed the chain's end instead)", 60
        elif node.op == "PlaceholderWithDefault":
            kind = "a training switch" if cand.dtype == "bool" else "optional"
            cand.reason, cand.score = f"{desc}; has a default ({kind})", 20
        elif best_outputs and not feeds_outputs(node.name):
            cand.reason, cand.score = f"{desc}; does not reach the likely outputs (labels?)", 30
        else:
            cand.reason, cand.score = desc, 100
        out.append(cand)
    # the signature's inputs in its order (Keras's model.inputs), not the graph's: freezing
    # deeplc's four-input Keras file put its Placeholders in another order on each run
    rank = {name: k for k, name in enumerate(known_nodes)}
    out.sort(key=lambda c: (-c.score, rank.get(c.name, len(rank))))
    return out


def _name_ports(candidates: list, tensors_by_key: dict, specs: dict) -> None:
    """Give candidates that are a signature's tensors its name for them, and its dtype and
    shape where the graph records none."""
    keys = {}
    for key, tensor in tensors_by_key.items():
        name, _, port = tensor.partition(":")
        keys[name if port in ("", "0") else tensor] = key
    for cand in candidates:
        key = keys.get(cand.name)
        if key is None:
            continue
        cand.label = key.removesuffix(":0")
        dtype, shape = specs.get(key, ("", ""))
        cand.dtype = cand.dtype or dtype
        if shape and (not cand.shape or cand.shape == "<unknown>" or
                      _opens(shape, cand.shape)):
            cand.shape = shape


def _opens(declared: str, graph_shape: str) -> bool:
    """Whether a signature's shape only leaves open sizes the graph fixed: a .tflite's
    outputs are stored at batch 1 ([1,172,88]) where its signature, as LiteRT's
    shape_signature, says [?,172,88]; the input's line already said [?,43844,1]."""
    a, b = declared.strip("[]").split(","), graph_shape.strip("[]").split(",")
    return declared.startswith("[") and graph_shape.startswith("[") and len(a) == len(b) \
        and declared != graph_shape and all(x in ("?", y) for x, y in zip(a, b))


def likely_outputs(graph: Graph) -> list:
    """The top-ranked output suggestions (what freezing uses when no outputs are given)."""
    ranked, _ = _output_candidates(graph, [])
    top = max((c.score for c in ranked), default=0)
    return [c.name for c in ranked if c.score == top and top >= 70]


def summarize(graph: Graph, known_inputs: list = (), known_outputs: list = (),
              signature=None) -> Summary:
    """signature: the model's (loaders.Signature): its inputs and outputs are named and
    shaped as it says where the graph does not say."""
    totals = columns.const_totals(graph) or columns.facts_totals(graph)
    tf_const, tf_var, _ = tf_parameter_counts(graph, totals)
    variables, var_params = _variable_candidates(graph)
    outputs, unlikely = _output_candidates(graph, list(known_outputs))
    chains = find_preprocessing_chains(graph)
    inputs = _input_candidates(graph, list(known_inputs), outputs, chains)
    if signature is not None:
        _name_ports(inputs, signature.inputs, getattr(signature, "input_specs", {}))
        _name_ports(outputs, signature.outputs, getattr(signature, "output_specs", {}))
    devices = Counter(graph.devices.values())
    sizes = graph.stored_sizes       # sizes in the file, values included
    add_lazy = False
    if sizes is None or len(sizes) != len(graph.nodes):
        # one pass over the NodeDefs in the order of graph.nodes (their index is their place)
        sizes = [p.ByteSize() for p in graph.structure.node]
        add_lazy = graph.lazy        # a lazy constant's values are in the file, not the proto
    bytes_by_op = columns.bytes_by_op(graph, sizes)
    bytes_by_dtype, lazy_bytes = totals[2], totals[3]
    if add_lazy and lazy_bytes:
        bytes_by_op["Const"] += lazy_bytes
    control = columns.control_edges(graph)
    return Summary(
        node_count=len(graph), function_count=len(graph.structure.library.function),
        inputs=inputs, outputs=outputs, variables=variables,
        const_parameters=tf_const, variable_parameters=var_params,
        control_edges=control,
        devices=dict(sorted(devices.items())), op_counts=dict(op_histogram(graph).most_common()),
        bytes_by_op=dict(bytes_by_op.most_common()),
        bytes_by_dtype=dict(bytes_by_dtype.most_common()),
        preprocessing=chains, problems=graph.problems(),
        tf_const_parameters=tf_const, tf_variable_parameters=tf_var, unlikely_outputs=unlikely)
