"""The likely outputs' shapes the graph does not record (output_shapes): above LIMIT nodes the
command line's summary walks the outputs' cone on the graph's columns (note14: it gave no
shape there), up to MOST nodes; an output left without a shape says why. TensorFlow's own
inference is the oracle in tests/tf/test_output_shapes_tf.py."""

from inspector.core.analysis import output_shapes
from inspector.core.app.opening import open_model, summary_of, summary_text
from inspector.core.model import protos
from tests.fixtures import scale_models


def _graph_file(tmp_path, middle_op: str = "MatMul") -> str:
    """x [?,4] -> MatMul by w [4,3] (or an op no walk knows) -> Relu -> out; and a side
    branch nothing of `out` reads."""
    gd = protos.GraphDef()
    x = gd.node.add(name="x", op="Placeholder")
    x.attr["dtype"].type = 1
    for d in (-1, 4):
        x.attr["shape"].shape.dim.add(size=d)
    w = gd.node.add(name="w", op="Const")
    w.attr["dtype"].type = 1
    w.attr["value"].tensor.dtype = 1
    for d in (4, 3):
        w.attr["value"].tensor.tensor_shape.dim.add(size=d)
    w.attr["value"].tensor.float_val.append(0.5)
    mid = gd.node.add(name="mid", op=middle_op, input=["x", "w"])
    mid.attr["T"].type = 1
    gd.node.add(name="act", op="Relu", input=["mid"]).attr["T"].type = 1
    gd.node.add(name="out", op="Identity", input=["act"]).attr["T"].type = 1
    gd.node.add(name="side", op="Neg", input=["x"]).attr["T"].type = 1
    gd.node.add(name="side_out", op="Identity", input=["side"]).attr["T"].type = 1
    path = tmp_path / f"{middle_op}.pb"
    path.write_bytes(gd.SerializeToString())
    return str(path)


def _outputs(model) -> dict:
    return {c.name: (c.shape, c.shape_note) for c in summary_of(model, shapes=True).outputs}


def test_the_cone_walk_gives_the_per_node_walks_shapes(tmp_path, monkeypatch):
    for path in (_graph_file(tmp_path), scale_models.blocks_graph(2_000),
                 scale_models.flat_graph(1_000)):
        model = open_model(path)
        small = _outputs(model)
        monkeypatch.setattr(output_shapes, "LIMIT", 0)
        assert _outputs(model) == small, path
        monkeypatch.undo()
        assert all(shape and not note for shape, note in small.values()), small
    model = open_model(_graph_file(tmp_path))
    monkeypatch.setattr(output_shapes, "LIMIT", 0)
    assert _outputs(model) == {"out": ("[?,3]", ""), "side_out": ("[?,4]", "")}


def test_an_output_the_walk_cannot_shape_names_the_node_that_stops_it(tmp_path, monkeypatch):
    model = open_model(_graph_file(tmp_path, "FancyOp"))
    note = "shape not determined without TensorFlow: node 'mid' (FancyOp) gives an output " \
        "whose shape the graph alone does not tell"
    want = {"out": ("", note), "side_out": ("[?,4]", "")}
    assert _outputs(model) == want
    monkeypatch.setattr(output_shapes, "LIMIT", 0)
    assert _outputs(model) == want
    text, _, error = summary_text(model, "m.pb")
    assert error is None
    assert f"\n      {note}\n" in text, text


def test_a_graph_above_most_says_its_outputs_shape_was_not_determined(monkeypatch):
    model = open_model(scale_models.blocks_graph(2_000))
    monkeypatch.setattr(output_shapes, "LIMIT", 100)
    monkeypatch.setattr(output_shapes, "MOST", 1_000)
    text, _, _ = summary_text(model, "m.pb")
    assert "output  float                 no consumers, Identity\n      shape not " \
        "determined: the graph's 1,992 nodes are more than the 1,000 its shape walk takes" \
        in text, text
    monkeypatch.setattr(output_shapes, "MOST", 2_000)
    text, _, _ = summary_text(model, "m.pb")
    assert "output  float [1,8,8,16]      no consumers, Identity\nVariables" in text, text


def _convolutions(tmp_path) -> str:
    """x [1,16,16,3] -> five Conv2Ds of one input shape and weights' shape whose attributes
    differ (strides, padding, dilations; two alike, one with its attributes in another
    order and a name past 127 bytes) -> an Identity each."""
    gd = protos.GraphDef()
    x = gd.node.add(name="x", op="Placeholder")
    x.attr["dtype"].type = 1
    for d in (1, 16, 16, 3):
        x.attr["shape"].shape.dim.add(size=d)
    w = gd.node.add(name="w", op="Const")
    w.attr["dtype"].type = 1
    w.attr["value"].tensor.dtype = 1
    for d in (3, 3, 3, 8):
        w.attr["value"].tensor.tensor_shape.dim.add(size=d)
    w.attr["value"].tensor.float_val.append(0.5)
    kinds = {"a": ([1, 1, 1, 1], b"SAME", None), "b": ([1, 2, 2, 1], b"SAME", None),
             "c": ([1, 1, 1, 1], b"VALID", None), "d": ([1, 1, 1, 1], b"SAME", [1, 2, 2, 1]),
             "a2": ([1, 1, 1, 1], b"SAME", None), "e" * 200: ([1, 1, 1, 1], b"SAME", None)}
    for name, (strides, padding, dilations) in kinds.items():
        conv = gd.node.add(name=f"conv_{name}", op="Conv2D", input=["x", "w"])
        if name == "a2":        # the same attributes, put in the other order
            conv.attr["padding"].s = padding
            conv.attr["strides"].list.i.extend(strides)
            conv.attr["T"].type = 1
        else:
            conv.attr["T"].type = 1
            conv.attr["strides"].list.i.extend(strides)
            conv.attr["padding"].s = padding
        if dilations:
            conv.attr["dilations"].list.i.extend(dilations)
        gd.node.add(name=f"out_{name}", op="Identity", input=[conv.name]).attr["T"].type = 1
    path = tmp_path / "convs.pb"
    path.write_bytes(gd.SerializeToString())
    return str(path)


def test_a_stored_graphs_convolutions_are_keyed_by_their_attributes_bytes_not_parsed(
        tmp_path, monkeypatch):
    """The cone walk keys a convolution's rule answer by its attributes: on a stored graph
    (the command line's big graph) it parsed each one's NodeDef, and nodes[i] parsed i's
    block of 256 with its constants' values (~65 ms of the 100k blocks model's ~210 ms
    walk at normal speed). The attributes' bytes as the file holds them are the key now,
    no NodeDef read but where a rule runs; the shapes are the per-node walk's. (Fails on the
    old code: each Conv2D's NodeDef was read.)"""
    from inspector.core.analysis import shape_columns
    from inspector.core.loaders import reader_process
    from inspector.core.model import node_store

    path = _convolutions(tmp_path)
    want = _outputs(open_model(path))        # a GraphDef, the per-node walk
    assert want["out_a"][0] == want["out_a2"][0] == "[1,16,16,8]"
    assert want["out_b"][0] == "[1,8,8,8]" and want["out_c"][0] == "[1,14,14,8]"
    from inspector.core.loaders import lazy_graphdef
    from inspector.core.runtime import front_end

    monkeypatch.setattr(front_end, "FEW_NODES", True)        # as `summarize` opens it,
    monkeypatch.setattr(lazy_graphdef, "LAZY_ABOVE", 1)       # this file counted as big
    monkeypatch.setattr(reader_process, "STREAM_ABOVE", 1)
    monkeypatch.setattr(reader_process, "STORE_FROM", 1)
    model = open_model(path)
    assert type(model.graph.structure) is node_store.StoredGraphDef
    convs = {i for i, n in enumerate(model.graph.name_list) if n.startswith("conv_")}
    read, walking = [], []
    real_parse, real_run = node_store.NodeStore.parse, shape_columns.ColumnPropagation.run_columns
    real_node = node_store.NodeStore.node

    def parse(self, a, b):
        if walking:
            read.extend(range(a, b))
        return real_parse(self, a, b)

    def node(self, i):
        if walking:
            read.append(i)
        return real_node(self, i)

    def run_columns(self, order):
        walking.append(order)
        try:
            return real_run(self, order)
        finally:
            walking.clear()

    monkeypatch.setattr(node_store.NodeStore, "parse", parse)
    monkeypatch.setattr(node_store.NodeStore, "node", node)
    monkeypatch.setattr(shape_columns.ColumnPropagation, "run_columns", run_columns)
    monkeypatch.setattr(output_shapes, "LIMIT", 0)
    assert _outputs(model) == want
    # a rule runs (its NodeDef read) once per distinct attributes' bytes: conv_eee... has
    # conv_a's (conv_a2's too, unless its attributes were written in another order)
    index = model.graph._index
    first = {index[f"conv_{n}"] for n in ("a", "b", "c", "d")}
    assert first <= convs & set(read) <= first | {index["conv_a2"]}, read


def test_a_nodes_attributes_bytes_start_after_its_name_op_inputs_and_device():
    from inspector.core.analysis.shape_columns import _attr_bytes

    node = protos.NodeDef(name="n" * 300, op="Conv2D", input=["x", "w" * 200], device="/c:0")
    node.attr["padding"].s = b"SAME"
    whole = protos.GraphDef(node=[node]).SerializeToString()
    attrs = protos.NodeDef()
    attrs.attr["padding"].s = b"SAME"
    assert _attr_bytes(whole) == attrs.SerializeToString()
    for cut in (1, 2, 5, 300, len(whole) - 3):    # bytes that end too soon: a tail, no error
        assert whole[:cut].endswith(_attr_bytes(whole[:cut]))
    late = protos.NodeDef()
    late.attr["padding"].s = b"SAME"
    raw = late.SerializeToString() + protos.NodeDef(name="after").SerializeToString()
    framed = b"\x0a" + bytes([len(raw)]) + raw
    assert _attr_bytes(framed) == raw       # a name after the attributes stays in the key
