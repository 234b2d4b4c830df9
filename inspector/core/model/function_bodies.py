"""A FunctionDef's body as a Graph of its own: its arguments as _Arg nodes, its results as
_Retval nodes reading what the body returns, inputs in node-name syntax."""

from __future__ import annotations

from inspector.core.model.graph import Graph, parse_input
from inspector.core.model.protos import graph_pb2


def function_as_graph(fdef) -> Graph:
    g = graph_pb2.GraphDef()
    taken = {n.name for n in fdef.node_def} | {a.name for a in fdef.signature.input_arg}
    for arg in fdef.signature.input_arg:
        nd = g.node.add(name=arg.name, op="_Arg")
        if arg.type:
            nd.attr["T"].type = arg.type
    for src in fdef.node_def:
        nd = g.node.add()
        nd.CopyFrom(src)
        del nd.input[:]
        for text in src.input:
            ref = parse_input(text)
            nd.input.append(str(ref))
    for arg in fdef.signature.output_arg:
        name = arg.name if arg.name not in taken else arg.name + "/_retval"
        nd = g.node.add(name=name, op="_Retval")
        ret = fdef.ret.get(arg.name)
        if ret:
            nd.input.append(str(parse_input(ret)))
        if arg.type:
            nd.attr["T"].type = arg.type
    return Graph(g, name=fdef.signature.name)


def function_graph(graph: Graph, name: str) -> Graph:
    """The body of the graph's function `name` as a graph of its own."""
    return function_as_graph(graph.functions[name])
