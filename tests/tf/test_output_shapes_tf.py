"""`summarize`'s likely outputs' shapes on graphs above output_shapes.LIMIT nodes (note14: the
command line said "output  float" with no shape there; only the window had TF's edge shapes),
checked against TensorFlow's own shape inference: the 100k scale model, and models other
people made walked as a big graph is (LIMIT lowered to 0: the outputs' cone on the graph's
columns). An output the walk cannot shape says why."""

import json

import pytest
from conftest import run_cli

from inspector.core.analysis import output_shapes
from inspector.core.app.opening import open_model, summary_of
from inspector.core.model import tensors
from tests.fixtures import scale_models, wild_models

tf = pytest.importorskip("tensorflow")


def tf_shapes(graph_def, names) -> dict:
    """{node: its output 0's shape as TF infers it on import (sizes the graph leaves open
    stay open)}."""
    gd = tf.compat.v1.GraphDef.FromString(graph_def.SerializeToString())
    with tf.Graph().as_default() as g:
        tf.graph_util.import_graph_def(gd, name="")
    out = {}
    for name in names:
        node, _, port = name.partition(":")
        shape = g.get_operation_by_name(node).outputs[int(port or 0)].shape
        out[name] = None if shape.rank is None else tuple(shape.as_list())
    return out


def test_the_100k_models_likely_output_has_the_shape_tensorflow_infers():
    path = scale_models.blocks_graph(100_000)
    code, out, err = run_cli("summarize", "--json", path)
    assert code == 0, err
    first = json.loads(out)["outputs"][0]
    assert first["name"] == "output"
    want = tf_shapes(open_model(path).graph.graph_def, ["output"])["output"]
    assert want == (1, 8, 8, 16)
    assert first["shape"] == tensors.format_shape(want), first
    assert not first["shape_note"]
    code, text, err = run_cli("summarize", path)
    assert "output  float [1,8,8,16]" in text, text


@pytest.mark.parametrize("name", ["handtrack_float32", "chiron_meta", "musicnn_meta",
                                  "handtrack_tfjs0"])
def test_the_outputs_cone_walk_gives_the_shapes_tensorflow_infers_on_wild_models(
        name, monkeypatch, tmp_path):
    """Each model with its recorded shapes taken out (else the summary reads them): every
    size the walk gives is TensorFlow's; an output it gives none, or an unknown size, says
    why. The per-node walk of a small graph gives the same shapes."""
    try:
        model = open_model(wild_models.model(name))
    except wild_models.Unavailable as exc:
        pytest.skip(f"package registry unavailable: {exc}")
    gd = model.graph.graph_def
    for node in gd.node:
        if "_output_shapes" in node.attr:
            del node.attr["_output_shapes"]
    path = tmp_path / "bare.pb"
    path.write_bytes(gd.SerializeToString())
    model = open_model(str(path))
    small = summary_of(model, shapes=True)          # the per-node walk (below LIMIT)
    monkeypatch.setattr(output_shapes, "LIMIT", 0)  # walked as a big graph is
    big = summary_of(model, shapes=True)
    oracle = tf_shapes(model.graph.graph_def, [c.name for c in big.outputs])
    walked = 0
    for cand, alone in zip(big.outputs, small.outputs):
        assert (cand.shape, cand.shape_note) == (alone.shape, alone.shape_note), (name, cand)
        if not cand.shape:
            assert cand.shape_note.startswith("shape not determined"), cand
            continue
        walked += 1
        want = oracle[cand.name]
        assert want is not None, (name, cand)
        got = tuple(None if d == "?" else int(d) for d in cand.shape[1:-1].split(",") if d)
        assert len(got) == len(want), (name, cand, want)
        for g, w in zip(got, want):       # "?": open in TF too, or said not determined
            assert g == w or g is None and (w is None or cand.shape_note), (name, cand, want)
    # handtrack_tfjs0's TensorArrays and musicnn's placeholder of no shape (its training
    # switch) leave every output unknown
    assert walked or name in ("handtrack_tfjs0", "musicnn_meta"), f"{name}: none shaped"
