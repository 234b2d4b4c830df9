"""The structure rule's walk by node index (bytearrays of what is taken, the pairs put into the
matching at the end) gives the pairs the walk by names gave, in the same order (the JSON
lists them in that order), and the matching keeps their indexes (columns.pair_indexes) so
later rules and the diff do not look 300k names up again; a kept index never outlives a
change of the pairs."""

import os

import pytest

from inspector.core.compare import columns as columns_module, matching, operands, structure
from inspector.core.compare.columns import columns, indexes, order_by, pair_indexes
from inspector.core.compare.fingerprints import Fingerprints
from inspector.core.compare.records import Matching
from inspector.core.loaders import load
from inspector.core.model import protos
from inspector.core.model.graph import Graph
from tests.core.test_compare_scale import renamed_shuffled
from tests.core.test_match_arrays import _changed
from tests.fixtures.scale_models import blocks_graph


def _walk_by_names(seeds, ca, cb, fp_a, fp_b, m) -> None:
    """The walk as it was (main at 2510362): names looked up at every step (the oracle)."""
    names_a, names_b, at_a, at_b, ins_a, ins_b = ca.names, cb.names, ca.at, cb.at, ca.ins, \
        cb.ins
    b_of, a_of, pair = m.b_of, m.a_of, m.pair
    for _, a, b, *_ in seeds:
        if a in b_of or b in a_of:
            continue
        pair(a, b, "structure")
        stack = [(at_a[a], at_b[b])]
        while stack:
            x, y = stack.pop()
            for i, j in zip(ins_a[x], ins_b[y]):
                rx, ry = names_a[i], names_b[j]
                if rx in b_of or ry in a_of:
                    continue
                if fp_a[i] == fp_b[j]:
                    pair(rx, ry, "structure")
                    stack.append((i, j))


def _by_structure_by_names(m, ga, gb) -> None:
    fa, fb = Fingerprints(ga), Fingerprints(gb)
    ca, cb = columns(ga), columns(gb)
    only_a = matching._unique_groups(fa.fingerprint, m.b_of)
    only_b = matching._unique_groups(fb.fingerprint, m.a_of)
    seeds = [(fa.height[a], a, only_b[v]) for v, a in only_a.items() if v in only_b]
    seeds = order_by(seeds, [-h for h, _, _ in seeds], lambda s: s[1])
    _walk_by_names(seeds, ca, cb, [fa.fingerprint[n] for n in ca.names],
                   [fb.fingerprint[n] for n in cb.names], m)


def _items(m) -> tuple:
    return list(m.b_of.items()), list(m.a_of.items()), list(m.rule.items())


def _prepaired(ga, gb, every: int) -> Matching:
    """A matching with some pairs already made (as provenance makes them), some wrong."""
    m = Matching()
    for k, (a, b) in enumerate(zip(columns(ga).names[::every], columns(gb).names[3::every])):
        m.pair(a, b, "provenance")
    return m


def _repeated(graph: Graph) -> Graph:
    """The graph with one more node repeating a name (names not unique: the by-name way)."""
    gd = protos.GraphDef()
    gd.CopyFrom(graph.graph_def)
    gd.node.add().CopyFrom(gd.node[len(gd.node) // 2])
    return Graph(gd)


def _pairs_of(data):
    ga = load(blocks_graph(3000, 0)).graph
    yield ga, _changed(renamed_shuffled(ga)[0])
    yield ga, load(blocks_graph(3000, 1)).graph
    for name in ("inception_jpeg.pb", "v1_training.pb", "while_v1.pb", "speech_commands.pb"):
        g = load(os.path.join(data, name)).graph
        yield g, renamed_shuffled(g, seed=11)[0]
    yield _repeated(ga), _repeated(renamed_shuffled(ga)[0])


@pytest.mark.parametrize("every", [0, 7])
def test_the_walk_by_index_pairs_what_the_walk_by_names_paired_in_order(data, every):
    for ga, gb in _pairs_of(data):
        by_index = _prepaired(ga, gb, every) if every else Matching()
        by_names = _prepaired(ga, gb, every) if every else Matching()
        matching._by_structure(by_index, ga, gb, Fingerprints(ga), Fingerprints(gb))
        _by_structure_by_names(by_names, ga, gb)
        assert _items(by_index) == _items(by_names)
        assert len(by_names.b_of) > len(ga) // 3


def test_the_indexes_kept_are_those_looked_up_after_any_change(monkeypatch):
    monkeypatch.setattr(columns_module, "ARRAYS_FROM", 0)
    ga = load(blocks_graph(3000, 0)).graph
    gb = renamed_shuffled(ga)[0]
    ca, cb = columns(ga), columns(gb)

    def looked_up(m):
        return (indexes(ca.at, list(m.b_of)).tolist(),
                indexes(cb.at, list(m.b_of.values())).tolist())

    m = Matching()
    matching._by_structure(m, ga, gb, Fingerprints(ga), Fingerprints(gb))
    assert columns_module.KNOWN in m.__dict__
    got = pair_indexes(m, ca, cb)
    assert (got[0].tolist(), got[1].tolist()) == looked_up(m) and len(got[0]) == len(ga)
    a, b = list(m.b_of.items())[10]          # a pair taken back (merges.py does so)
    del m.b_of[a], m.a_of[b], m.rule[a]
    got = pair_indexes(m, ca, cb)
    assert (got[0].tolist(), got[1].tolist()) == looked_up(m)
    m.pair(a, b, "name")                     # put back at the end; one re-paired in place
    a2, b2 = list(m.b_of.items())[5]
    a3, b3 = list(m.b_of.items())[6]
    m.b_of[a2], m.b_of[a3] = b3, b2
    got = pair_indexes(m, ca, cb)
    assert (got[0].tolist(), got[1].tolist()) == looked_up(m)


def test_the_rules_after_the_structure_give_the_same_with_every_name_looked_up(monkeypatch):
    """match_operands' open readers, propagation's free seeds and the disagreeing pairs read
    the kept indexes; with none kept (every name looked up) the matching is the same."""
    ga = load(blocks_graph(3000, 0)).graph
    gb = _changed(renamed_shuffled(ga)[0])
    weights = load(blocks_graph(3000, 1)).graph
    monkeypatch.setattr(columns_module, "ARRAYS_FROM", 0)
    monkeypatch.setattr(matching, "BIG", 10)
    fast = [matching.match(ga, gb), matching.match(ga, weights)]
    monkeypatch.setattr(structure, "noted_pairs", lambda *args: None)
    monkeypatch.setattr(operands, "pair_indexes", lambda m, ca, cb: (
        indexes(ca.at, list(m.b_of)), indexes(cb.at, list(m.b_of.values()))))
    slow = [matching.match(ga, gb), matching.match(ga, weights)]
    for f, s in zip(fast, slow):
        assert _items(f) == _items(s) and f.merged == s.merged and f.split == s.split
        assert f.disagreeing == s.disagreeing and f.layouts == s.layouts
        assert columns_module.KNOWN not in f.__dict__        # not sent along with the diff
