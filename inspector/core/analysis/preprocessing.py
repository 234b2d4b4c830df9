"""Recognise image-decoding front ends (DecodeJpeg -> Cast -> ... -> Mul) and their feed point."""

from __future__ import annotations

from dataclasses import dataclass

from inspector.core.analysis.summary_columns import indexes_of_ops
from inspector.core.model import tensors
from inspector.core.model.graph import Graph, Node

DECODERS = {"DecodeJpeg": "JPEG", "DecodeAndCropJpeg": "JPEG", "DecodePng": "PNG",
            "DecodeBmp": "BMP", "DecodeGif": "GIF", "DecodeImage": "image"}
STEPS = {"Cast", "ExpandDims", "ResizeBilinear", "ResizeBicubic", "ResizeNearestNeighbor",
         "ResizeArea", "Sub", "Mul", "RealDiv", "Div", "Add", "AddV2", "Maximum", "Minimum",
         "Identity", "ConvertImageDtype", "Squeeze", "Reverse", "ReverseV2"}
_ELEMENTWISE = {"Cast", "Sub", "Mul", "RealDiv", "Div", "Add", "AddV2", "Maximum", "Minimum",
                "Identity", "ReverseV2", "Reverse"}


@dataclass
class PreprocessingChain:
    kind: str
    source: str
    nodes: list
    ops: list
    feed: str
    feed_shape: str

    def as_dict(self) -> dict:
        return dict(self.__dict__)


def _const_value(graph: Graph, name: str):
    node = graph.get(name)
    while node is not None and node.op == "Identity" and node.data_inputs:
        node = graph.get(node.data_inputs[0].node)
    if node is None or node.op != "Const" or not node.has_attr("value"):
        return None
    try:
        return graph.tensor_value(node.name)
    except ValueError:
        return None


def _others_constant(graph: Graph, node: Node, via: str) -> bool:
    return all(_const_value(graph, i.node) is not None
               for i in node.data_inputs if i.node != via)


def _next_dims(graph: Graph, node: Node, dims):
    if dims is None:
        return None
    if node.op in _ELEMENTWISE:
        return dims
    if node.op == "ExpandDims" and len(node.data_inputs) > 1:
        axis = _const_value(graph, node.data_inputs[1].node)
        if axis is not None and axis.size == 1:
            a = int(axis.reshape(-1)[0])
            a = a if a >= 0 else len(dims) + 1 + a
            return dims[:a] + (1,) + dims[a:]
    if node.op.startswith("Resize") and len(node.data_inputs) > 1 and len(dims) == 4:
        size = _const_value(graph, node.data_inputs[1].node)
        if size is not None and size.size == 2:
            return (dims[0], int(size[0]), int(size[1]), dims[3])
    return None


def find_preprocessing_chains(graph: Graph) -> list:
    chains = []
    for node in map(graph.nodes.__getitem__, indexes_of_ops(graph, DECODERS)):
        kind = DECODERS[node.op]
        channels = node.attr("channels", 0)
        dims = (None, None, channels or None)
        src = node.data_inputs[0].node if node.data_inputs else node.name
        nodes, ops, cur = [node.name], [node.op], node
        while True:
            consumers = graph.data_consumers(cur.name)
            if len(consumers) != 1:
                break
            nxt = graph.get(consumers[0].dst)
            if nxt is None or nxt.op not in STEPS or not _others_constant(graph, nxt, cur.name):
                break
            dims = _next_dims(graph, nxt, dims)
            nodes.append(nxt.name)
            ops.append(nxt.op)
            cur = nxt
        if len(nodes) > 1:
            chains.append(PreprocessingChain(kind, src, nodes, ops, cur.name,
                                             tensors.format_shape(dims) if dims else ""))
    return chains
