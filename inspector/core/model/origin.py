"""Where a graph came from: the one rule for "is this a .tflite", used by every front end and
use case. The .tflite reader (loaders.tflite_graph) marks each node it makes: a tensor's node
with its tensor's name and type, an operator's node with its index as well; a GraphDef's nodes
carry none of these. The mark travels with the graph (to the worker, into a diff)."""

from __future__ import annotations

TENSOR = "tflite_tensor"    # the TFLite tensor a node stands for (its first output's)
TYPE = "tflite_type"        # that tensor's TFLite type name
INDEX = "tflite_index"      # an operator's index in the main subgraph


def is_tflite(graph) -> bool:
    """The graph was opened from a .tflite (its reader's marks; the first node has one)."""
    nodes = graph.nodes[:8]
    return any(TENSOR in n.proto.attr or INDEX in n.proto.attr for n in nodes)
