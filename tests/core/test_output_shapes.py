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
