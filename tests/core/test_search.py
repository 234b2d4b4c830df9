"""Search without Qt: substring and regex over names, ops and attrs, the result limit said
plainly, bad regexes reported, cancellation, one index per graph."""

import threading

import pytest

from inspector.core.analysis.search import LIMIT, find_nodes, index_for
from inspector.core.errors import Cancelled, InspectorError
from inspector.core.model import protos
from inspector.core.model.graph import Graph
from inspector.core.runtime.job import Job


def chain(n: int) -> Graph:
    g = protos.GraphDef()
    g.node.add(name="input", op="Placeholder").attr["dtype"].type = 1
    for i in range(n):
        node = g.node.add(name=f"block_{i}/Relu", op="Relu", input=["input"])
        node.attr["T"].type = 1
    conv = g.node.add(name="head/Conv2D", op="Conv2D", input=["input", "input"])
    conv.attr["padding"].s = b"VALID"
    return Graph(g)


def test_substring_regex_and_attrs_case_insensitive():
    g = chain(12)
    assert find_nodes(g, "valid") == ["head/Conv2D"]          # attr value
    assert find_nodes(g, "conv2d") == ["head/Conv2D"]         # op type
    assert find_nodes(g, "BLOCK_1") == ["block_1/Relu"] + [f"block_1{i}/Relu" for i in (0, 1)]
    assert find_nodes(g, r"^block_1\d?/", regex=True) == [
        "block_1/Relu", "block_10/Relu", "block_11/Relu"]
    assert find_nodes(g, "  ") == []
    with pytest.raises(InspectorError, match="bad regular expression"):
        find_nodes(g, "(", regex=True)


def test_the_limit_is_said_and_counts_are_plain():
    g = chain(LIMIT + 10)
    found = index_for(g).find("relu")
    assert len(found.names) == LIMIT and found.more
    assert found.describe() == f"{LIMIT}+ matches (showing the first {LIMIT})"
    assert index_for(g).find("head").describe() == "1 match"
    assert index_for(g).find("nothing").describe() == "no matches"


def test_one_index_per_graph_and_cancel_stops_a_search():
    g = chain(20000)
    assert index_for(g) is index_for(g)
    cancel = threading.Event()
    cancel.set()
    with pytest.raises(Cancelled):
        index_for(g).find("relu", job=Job(cancel))
    with pytest.raises(Cancelled):
        index_for(chain(10), job=Job(cancel))
