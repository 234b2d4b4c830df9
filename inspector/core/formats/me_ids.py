"""The ids Model Explorer gives a model's nodes, computed without TensorFlow the way its own
adapters number them (google-ai-edge/model-explorer; the tests resolve every id written here
through the `ai-edge-model-explorer-adapter` package's conversion of the same file):

- GraphDef (.pb/.pbtxt, its GraphDef adapter): graph "main"; a node's id is its index in
  `graph_def.node` (the name is only the namespace). Function bodies are other graphs.
- .tflite (its flatbuffer adapter): graph = subgraph 0's name, else its signature's key, else
  "main"; operator i is "i"; then, counting on from the number of operators: "GraphInputs"
  (every input, when there are any), a "pseudo_const" for each tensor an operator reads
  before anything made it (operators in order, first read), "GraphOutputs", and a
  pseudo_const for each output nothing made. Node data may also be keyed by an output
  tensor's name, which is how our input placeholders (all one GraphInputs node there) are
  keyed."""

from __future__ import annotations

from dataclasses import dataclass, field

from inspector.core.errors import InspectorError
from inspector.core.loaders import files
from inspector.core.loaders.tflite import read_model

GRAPHDEF, TFLITE = "graphdef", "tflite"


@dataclass(frozen=True)
class Ids:
    """One model's Model Explorer graph id, and node name -> id for the nodes ME has."""
    graph: str
    of: dict                                 # our node name -> ME node id
    tensor_keys: dict = field(default_factory=dict)   # node -> tensor name to key data by

    def key(self, name: str):
        """The key ME resolves to this node in node data (None: ME has no such node)."""
        return self.tensor_keys.get(name) or self.of.get(name)

    def node_of(self) -> dict:
        """ME node id -> our node (the first of ours that has it)."""
        out: dict = {}
        for name, node_id in self.of.items():
            out.setdefault(node_id, name)
        return out


def for_graph_def(graph) -> Ids:
    """A GraphDef's ids, from the graph as read from its file (a node's index is its
    position in graph_def.node; of nodes sharing a name, the last one's). From the name
    column: no Node view made."""
    return Ids("main", dict(zip(graph.name_list, map(str, range(len(graph))))))


def _tflite_graph_id(model) -> str:
    main = model.subgraphs[0]
    if main.name:
        return main.name
    for (key, _ins, _outs), index in zip(model.signatures, model.signature_subgraphs):
        if index == 0:
            return key or "main"
    return "main"


def tflite_numbering(main) -> tuple[dict, dict]:
    """(operator index -> id, tensor index -> id of the GraphInputs or pseudo_const node that
    makes it) for one subgraph, in the adapter's order."""
    count = len(main.operators)
    made: dict = {}
    next_id = count
    if main.inputs:
        for t in main.inputs:
            made[t] = str(next_id)
        next_id += 1
    ops = {op.index: str(op.index) for op in main.operators}
    consts: dict = {}
    for op in main.operators:
        for t in op.inputs:
            if t >= 0 and t not in made:
                made[t] = consts[t] = str(next_id)
                next_id += 1
        for t in op.outputs:
            made[t] = ops[op.index]
    if main.outputs:
        next_id += 1                        # GraphOutputs
        for t in main.outputs:
            if t not in made:
                made[t] = consts[t] = str(next_id)
                next_id += 1
    inputs = {t: made[t] for t in main.inputs}
    return ops, {**inputs, **consts}


def for_tflite(model, graph) -> Ids:
    """A .tflite's ids for our drawing of its main subgraph (graph from tflite_graph)."""
    main = model.subgraphs[0]
    ops, tensors = tflite_numbering(main)
    of: dict = {}
    keys: dict = {}
    inputs = set(main.inputs)
    producers = getattr(graph, "tflite_producers", {})
    protos = graph.structure.node   # (and the name column below: no Node view)
    for t, node_id in tensors.items():
        name = producers.get(t)
        if name is None or name not in graph:
            continue
        if "tflite_index" in protos[graph.index(name)].attr:
            continue                        # an operator's output read before it ran
        of.setdefault(name, node_id)
        if t in inputs and main.tensors[t].name:
            keys[name] = main.tensors[t].name
    names = graph.name_list
    for i, proto in enumerate(protos):
        if "tflite_index" in proto.attr:
            of[names[i]] = ops.get(int(proto.attr["tflite_index"].i))
    return Ids(_tflite_graph_id(model), {k: v for k, v in of.items() if v is not None}, keys)


def for_model(model, what: str = "the model") -> Ids:
    """The ids of a model as opened from its file (raises InspectorError, naming what
    Model Explorer would open instead, for the kinds whose ids we do not know)."""
    kind = getattr(model, "kind", "")
    if kind == GRAPHDEF:
        return for_graph_def(model.graph)
    if kind == TFLITE:
        tfl = getattr(model, "tflite", None)
        if tfl is None:
            tfl = read_model(files.read_file(model.path, what="the TensorFlow Lite file"),
                             model.path)
        return for_tflite(tfl, model.graph)
    raise InspectorError(f"Model Explorer node ids are known for GraphDef (.pb, .pbtxt) and "
                         f".tflite files; {what} is a {kind or 'graph with no file'}: save it "
                         "as a GraphDef (.pb) and use that file",
                         path=getattr(model, "path", None))
