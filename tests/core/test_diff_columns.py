"""The diff of two big graphs by whole-array steps (issue 47): the pairs pair_changes would
find unchanged (but for a name) are found from the CSR inputs, one attribute comparison and,
for weights left in the file, their stored bytes; the document is the one the per-pair path
writes, and no Node view is made for an unchanged pair."""

import numpy as np

from inspector.core.compare import diff as diff_module
from inspector.core.compare.diff import diff_graphs
from inspector.core.compare.document import dumps, text_report
from inspector.core.loaders import load
from inspector.core.model import protos
from tests.fixtures.scale_models import blocks_graph


def _changed_copy(path: str, out: str) -> str:
    """A's GraphDef with a little of everything changed: names, an attribute, a device, a
    control input, a rewired input, the values of a weight left in the file, a dtype."""
    gd = protos.GraphDef()
    gd.CopyFrom(load(path).graph.graph_def)
    nodes = {n.name: n for n in gd.node}
    renames = {f"stage_0/block_{k}/mul": f"moved/mul_{k}" for k in range(5)}
    for node in gd.node:
        node.name = renames.get(node.name, node.name)
        node.input[:] = [renames.get(i, i) for i in node.input]
    nodes["stage_0/block_3/Conv2D"].attr["padding"].s = b"VALID"
    nodes["stage_0/block_4/Relu"].device = "/device:CPU:0"
    nodes["stage_0/block_5/add"].input.append("^stage_0/block_2/offset")
    nodes["stage_0/block_6/BiasAdd"].input[1] = "stage_0/block_7/bias"
    weights = nodes["stage_0/block_8/weights"].attr["value"].tensor
    values = np.frombuffer(weights.tensor_content, np.float32).copy()
    values[3] += 1.0
    weights.tensor_content = values.tobytes()
    nodes["stage_0/block_9/Relu"].attr["T"].type = 2
    with open(out, "wb") as fh:
        fh.write(gd.SerializeToString())
    return out


def test_a_big_pairs_diff_by_arrays_is_the_per_pair_diff_and_makes_no_view_a_quiet_pair(
        tmp_path, monkeypatch):
    path = blocks_graph(10000, 0)
    other = _changed_copy(path, str(tmp_path / "b.pb"))
    ga, gb = load(path).graph, load(other).graph
    assert ga.lazy and gb.lazy
    d = diff_graphs(ga, gb)
    made = sum(v is not None for v in ga.nodes._views) + \
        sum(v is not None for v in gb.nodes._views)
    changed = [e for e in d.entries if e.status == "changed"]
    kinds = {c.kind for e in changed for c in e.changes}
    assert {"renamed", "attr", "device", "control", "rewired", "values", "dtype"} <= kinds
    assert len(d.entries) < 40 and made < 80          # every node's view before: 20k
    monkeypatch.setattr(diff_module, "quiet_pairs", lambda *args: None)
    ga2, gb2 = load(path).graph, load(other).graph
    before = diff_graphs(ga2, gb2)                    # pair_changes on every pair
    assert dumps(d) == dumps(before) and text_report(d, 100) == text_report(before, 100)
