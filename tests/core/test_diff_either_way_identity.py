"""`diff A B` and `diff B A` of a graph and the same graph with its Identity nodes removed
(remove_nodes(op=Identity)) mirror each other: the Identity nodes are merged one way and
split the other. Before, the demo model against its copy read "12 merged" and the other
order "12 added"."""

from __future__ import annotations

import json

from inspector.core.formats.writer import write_graph
from inspector.core.loaders import load
from inspector.core.transforms.pipeline import run_pipeline
from tests.conftest import DEMO, run_cli


def test_identity_nodes_removed_read_as_merged_one_way_and_split_the_other(tmp_path):
    stripped = str(tmp_path / "stripped.pb")
    graph_def = run_pipeline(load(DEMO).graph.graph_def, "remove_nodes(op=Identity)",
                             ["pixels"], ["output"])[-1].graph_def
    write_graph(graph_def, stripped)
    counts = []
    for a, b in ((DEMO, stripped), (stripped, DEMO)):
        code, out, err = run_cli("diff", a, b, "--no-flops", "--json")
        assert code == 1, err
        counts.append({k: v for k, v in json.loads(out)["counts"].items() if v})
    assert counts[0] == {"merged": 12, "unchanged": 47}
    assert counts[1] == {"split": 12, "unchanged": 47}
