"""The matcher's array paths give what its name-keyed paths give, pair for pair and in the
same order: B's fingerprints from a forked copy, the structure seeds by a hash join of the
fingerprint arrays, and propagation skipping the seeds whose neighbours are all taken."""

import pytest

from inspector.core.compare import columns as columns_module, matching
from inspector.core.compare.columns import columns
from inspector.core.compare.fingerprints import Fingerprints
from inspector.core.compare.records import Matching
from inspector.core.loaders import load
from inspector.core.model import protos
from inspector.core.model.graph import Graph
from tests.core.test_apart import fresh
from tests.core.test_compare_scale import renamed_shuffled
from tests.fixtures.scale_models import blocks_graph


def _pairs(m) -> list:
    return [(a, b, m.rule[a]) for a, b in m.b_of.items()]


def _changed(graph: Graph, every: int = 97) -> Graph:
    """Every `every`-th Mul with one more attribute: its fingerprint and those of all it
    feeds differ, so propagation has work above it."""
    gd = protos.GraphDef()
    gd.CopyFrom(graph.graph_def)
    muls = [n for n in gd.node if n.op == "Mul"]
    for node in muls[::every]:
        node.attr["extra"].i = 1
    return Graph(gd)


@pytest.fixture(scope="module")
def pair():
    ga = load(blocks_graph(3000, 0)).graph
    return ga, _changed(renamed_shuffled(ga)[0])


def test_b_s_fingerprints_from_a_forked_copy_match_the_same():
    assert fresh("""
        from inspector.core.compare import matching
        from inspector.core.compare.fingerprints import Fingerprints
        from inspector.core.loaders import load
        from inspector.core.runtime import apart
        from tests.core.test_match_arrays import _changed, _pairs
        from tests.core.test_compare_scale import renamed_shuffled
        from tests.fixtures.scale_models import blocks_graph

        ga = load(blocks_graph(3000, 0)).graph
        gb = _changed(renamed_shuffled(ga)[0])
        here = _pairs(matching.match(ga, gb))
        matching.APART_FROM = 100
        forked, real = [], apart.start
        apart.start = lambda fn: forked.append(fn) or real(fn)
        assert _pairs(matching.match(ga, gb)) == here and len(forked) == 1
        fb = Fingerprints(gb)
        back = Fingerprints.of_values(gb, real(lambda: Fingerprints(gb).values())())
        assert back.fp == fb.fp and back.fingerprint == fb.fingerprint
        assert back.height == fb.height
        print("same")
    """) == "same\n"


def test_the_hash_join_finds_the_seeds_the_name_keyed_groups_find(pair):
    ga, gb = pair
    fa, fb = Fingerprints(ga), Fingerprints(gb)
    m = Matching()
    taken = columns(ga).names[::5]
    b_of = {n: gb.name_list[k] for k, n in enumerate(taken)}
    for a, b in b_of.items():
        m.pair(a, b, "name")
    assert columns(ga).arrays and columns(gb).arrays
    joined = matching._unique_pairs(columns(ga), columns(gb), fa, fb, m)
    only_a = matching._unique_groups(fa.fingerprint, m.b_of)
    only_b = matching._unique_groups(fb.fingerprint, m.a_of)
    at_a, at_b = columns(ga).at, columns(gb).at
    keyed = [(fa.height[a], a, only_b[v], at_a[a], at_b[only_b[v]]) for v, a in only_a.items()
             if v in only_b]
    assert sorted(joined) == sorted(keyed) and len(keyed) > 100


def test_propagation_skips_only_seeds_that_give_nothing(monkeypatch, pair):
    ga, gb = pair
    monkeypatch.setattr(matching, "BIG", 10)            # 3000 pairs are seeds enough
    real, seen = columns_module.Columns.free_around, []
    monkeypatch.setattr(columns_module.Columns, "free_around",
                        lambda *args: seen.append(real(*args)) or seen[-1])
    skipping = matching.match(ga, gb)
    assert {"structure", "top-down", "bottom-up"} <= set(skipping.rule.values())
    assert seen and any(seen[0]) and not all(seen[0])      # some seeds skipped, not all
    monkeypatch.setattr(columns_module.Columns, "free_around", lambda *args: None)
    every = matching.match(ga, gb)
    assert _pairs(skipping) == _pairs(every)
    assert skipping.merged == every.merged and skipping.split == every.split


def test_disagreeing_pairs_by_arrays_are_those_the_walk_finds(monkeypatch, pair):
    ga, gb = pair
    m = matching.match(ga, gb)
    convs = [a for a in m.b_of if ga.node(a).op == "Conv2D"][:2]
    b0, b1 = m.b_of[convs[0]], m.b_of[convs[1]]
    m.pair(convs[0], b1, "name")           # two convs swapped: their neighbours disagree
    m.pair(convs[1], b0, "name")
    found = columns_module.disagreeing(ga, gb, m.b_of)
    monkeypatch.setattr(matching, "disagreeing", lambda *args: None)
    walked = matching._disagreeing(m, ga, gb)
    assert found == walked and len(found) >= 2


def test_operands_and_merges_skip_only_what_gives_nothing(monkeypatch, pair):
    from inspector.core.compare import merges, operands

    ga, gb = pair
    weights = load(blocks_graph(3000, 1)).graph
    quick = [matching.match(ga, gb), matching.match(ga, weights)]
    monkeypatch.setattr(operands, "_reads_all_taken", lambda *args: False)
    monkeypatch.setattr(merges, "_all_taken", lambda *args: False)
    every = [matching.match(ga, gb), matching.match(ga, weights)]
    for q, e in zip(quick, every):
        assert _pairs(q) == _pairs(e) and q.merged == e.merged and q.split == e.split
