"""Files for Model Explorer that Model Explorer can use (issue 45.10): every node id we
write, in `diff --me-mapping` and `overlay export`, resolves through the
`ai-edge-model-explorer-adapter` package's own conversion of the same file (GraphDef and
.tflite) to the node we meant, and ME's own id-keyed node data imports onto the right nodes."""

import json
import os

from conftest import run_cli

from tests.fixtures.me_oracle import convert, resolve

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEMO = os.path.join(ROOT, "inspector/core/app/demo_model/demo_digits.pb")
DATA = os.path.join(ROOT, "tests", "core", "data")
INT8 = os.path.join(DATA, "digits_int8.tflite")
INCEPTION = os.path.join(DATA, "inception_jpeg.pb")


def _same_node(me_node, our_name: str, graph) -> bool:
    """ME's node is our node: a GraphDef's by name (its namespace) and op; a .tflite's
    operator by its lower-case op, a constant as ME's pseudo_const, an input as GraphInputs
    (ME's namespaces there are its own guesses, so the op and the tensor decide)."""
    node = graph[our_name]
    label = me_node["label"]
    if not graph["(tflite)"]:
        return me_node["namespace"] == our_name and label == node["op"]
    if node["op"] == "Placeholder":
        return label == "GraphInputs"
    if node["op"] in ("Const", "VarHandleOp"):
        return label == "pseudo_const"
    return label == node["op"].lower()


def _graph(path: str) -> dict:
    from inspector.core.loaders import load

    model = load(path)
    return {"(tflite)": model.kind == "tflite",
            **{n.name: {"op": n.op} for n in model.graph.nodes}}


def test_the_mapping_of_a_graphdef_and_its_int8_tflite_resolves_in_model_explorer(tmp_path):
    mapping = tmp_path / "me.json"
    code, out, err = run_cli("diff", DEMO, INT8, "--json", "--me-mapping", str(mapping))
    assert code == 1, err
    matching = json.loads(out)["matching"]
    pairs = matching["pairs"] + [[a, b, "merged"] for a, b in matching["merged"].items()]
    data = json.loads(mapping.read_text())
    me_a, me_b = convert(DEMO)["main"], convert(INT8)["main"]
    ga, gb = _graph(DEMO), _graph(INT8)
    left_ids = [i for e in data["mappingEntries"] for i in e["leftNodeIds"]]
    right_ids = [i for e in data["mappingEntries"] for i in e["rightNodeIds"]]
    assert len(left_ids) == len(set(left_ids)) and len(right_ids) == len(set(right_ids))
    assert all(i in me_a["nodes"] for i in left_ids)            # every id is ME's
    assert all(i in me_b["nodes"] for i in right_ids)
    # each pair of the diff is one entry, between the very nodes it names
    entry_of = {i: e for e in data["mappingEntries"] for i in e["leftNodeIds"]}
    checked = 0
    for a, b, _rule in pairs:
        a_node = next(i for i, n in me_a["nodes"].items() if n["namespace"] == a)
        right = [me_b["nodes"][i] for i in entry_of[a_node]["rightNodeIds"]]
        assert any(_same_node(n, b, gb) for n in right), (a, b)
        checked += 1
    assert checked >= 10 and matching["merged"]
    conv_entry = next(e for e in data["mappingEntries"]
                      if any(me_b["nodes"][i]["label"] == "conv_2d" for i in e["rightNodeIds"]))
    assert any(ga[me_a["nodes"][i]["namespace"]]["op"] == "Conv2D"
               for i in conv_entry["leftNodeIds"])
    assert data["disableMappingFallback"] is True


def test_a_mapping_of_a_pipelines_output_is_refused_before_anything_is_written(tmp_path):
    html, mapping = tmp_path / "d.html", tmp_path / "me.json"
    code, out, err = run_cli("diff", INCEPTION, "--pipeline", "fold_old_batch_norms",
                             "--inputs", "Mul", "--outputs", "softmax", "--html", str(html),
                             "--me-mapping", str(mapping), "--no-flops")
    assert code == 2 and "transform --out_graph" in err and len(err.strip().splitlines()) == 1
    assert not html.exists() and not mapping.exists()


def test_tflite_node_data_is_keyed_by_model_explorers_ids_and_tensor_names(tmp_path):
    """`overlay export` of the TFLite check onto a .tflite: the graph id ME looks up, every
    key landing on the node it was written for (an input by its tensor name)."""
    out = tmp_path / "compat.json"
    code, stdout, err = run_cli("overlay", "export", INT8, "--overlay", "compat",
                                "-o", str(out))
    assert code == 0, err
    doc = json.loads(out.read_text())
    me = convert(INT8)
    (graph_id, graph), = doc.items()
    assert graph_id in me
    code, stdout, err = run_cli("overlay", "import", INT8, str(out), "--json")
    assert code == 0, err
    back = json.loads(stdout)
    assert back["unmatched"] == [] and len(back["values"]) == len(graph["results"])
    ours = _graph(INT8)
    for node, key in back["keys"].items():
        me_node = resolve(me[graph_id], key)
        assert me_node is not None and _same_node(me_node, node, ours), (node, key)
    assert len(back["values"]) == len(ours) - 1


def test_model_explorers_own_id_keyed_node_data_lands_on_the_right_nodes(tmp_path):
    """A file as Model Explorer's node_data_builder writes it ({graph id: {"results": {node
    id: ...}}}), made from the adapter's ids: GraphDef and .tflite, and a bare one."""
    for model in (INCEPTION, INT8):
        me = convert(model)["main"]
        ours = _graph(model)
        picked = {}
        for node_id, node in me["nodes"].items():
            if node["label"] not in ("GraphInputs", "GraphOutputs"):
                picked[node_id] = float(len(picked) + 1)
            if len(picked) == 6:
                break
        results = {i: {"value": v} for i, v in picked.items()}
        for doc in ({"main": {"results": results}, "other": {"results": {
                "0": {"value": -1.0}}}}, {"results": results}):
            path = tmp_path / "me_data.json"
            path.write_text(json.dumps(doc))
            code, stdout, err = run_cli("overlay", "import", model, str(path), "--json")
            assert code == 0, err
            back = json.loads(stdout)
            assert back["unmatched"] == [] and len(back["values"]) == len(picked)
            for node, key in back["keys"].items():
                assert back["values"][node] == picked[key]
                assert _same_node(me["nodes"][key], node, ours), (model, node, key)
