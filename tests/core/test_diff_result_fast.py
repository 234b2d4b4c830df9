"""Building the diff's result with fewer Python steps a node: a group's block count from each
distinct parent scope (diff._blocks), the change list's order from the columns' own index
(diff._places), no 8-bit pattern looked for where B has no Dequantize, renamed scopes
counted by C calls. Each gives what the one-node-at-a-time way gives (the oracles below are
main's code at 2510362)."""

import random
from collections import Counter

from inspector.core.compare import diff as diff_module, names as names_module
from inspector.core.compare.columns import columns
from inspector.core.compare.diff import _block, _blocks, _places, diff_graphs, group_entries
from inspector.core.compare.names import relative_scope, renamed_scopes
from inspector.core.compare.records import Entry, Matching
from inspector.core.loaders import load
from inspector.core.model.graph import scope_parts
from tests.core.test_compare_scale import renamed_shuffled
from tests.fixtures.scale_models import blocks_graph

NAMES = ["", "a", "a/b", "a/b/c", "a/b/c/d/e", "/x", "/x/y", "/x/y/z", "a/", "a/b/", "a//b",
         "//", "///", "a/b//c", "stage_0/block_1/weights/read", "n17", "x/y:0"]


def _random_names(rng, n: int) -> list:
    parts = ["", "a", "b", "stage_0", "block_1", "w"]
    return ["/".join(rng.choice(parts) for _ in range(rng.randint(1, 5))) for _ in range(n)]


def test_blocks_counts_the_blocks_the_name_by_name_set_counts():
    rng = random.Random(3)
    for names in [NAMES] + [_random_names(rng, rng.randint(1, 300)) for _ in range(200)]:
        entries = [Entry("changed", n, "b") if rng.random() < 0.7 else Entry("added", "", n)
                   for n in names]
        members = list(range(len(entries)))
        rng.shuffle(members)
        want = len({_block(entries[k].a or entries[k].b) for k in members})
        assert _blocks(entries, members) == want


def _renamed_scopes_then(m) -> dict:
    """renamed_scopes as it was, a Counter step a pair."""
    tally: dict = {}
    same = Counter()
    lost = Counter()
    for a, b in m.b_of.items():
        if a == b:
            same[a.rpartition("/")[0]] += 1
            continue
        where, _, own = a.rpartition("/")
        if own != b.rpartition("/")[2]:
            lost[where] += 1
            continue
        parts = scope_parts(a)
        for k in range(1, len(parts) + 1):
            scope = "/".join(parts[:k])
            tally.setdefault(scope, Counter())[relative_scope(a, b, scope)] += 1
    if not tally:
        return {}
    for counts, same_name in ((same, True), (lost, False)):
        for where, n in counts.items():
            parts = where.split("/") if where else []
            for k in range(1, len(parts) + 1):
                scope = "/".join(parts[:k])
                tally.setdefault(scope, Counter())[scope if same_name else None] += n
    renamed: dict = {}
    for scope in sorted(tally, key=lambda s: (s.count("/"), s)):
        counts = tally[scope]
        there, n = counts.most_common(1)[0]
        if there is None or there == scope or n < 2 or n * 2 < sum(counts.values()):
            continue
        parent = next((p for p in renamed if scope.startswith(p + "/")), None)
        if parent is not None and there == renamed[parent] + scope[len(parent):]:
            continue
        renamed[scope] = there
    return renamed


def test_renamed_scopes_are_those_counted_a_pair_at_a_time(monkeypatch):
    monkeypatch.setattr(names_module, "PIECE", 5)
    rng = random.Random(7)
    scopes = ["m", "m/a", "m/a/b", "n", "n/c", "model_1", "model_1/a", ""]
    for _ in range(300):
        m = Matching()
        for k in range(rng.randint(0, 60)):
            own = rng.choice(["w", "b", "Conv2D", "x"]) + str(k)
            a = "/".join(p for p in (rng.choice(scopes), own) if p)
            b = rng.choice([a, "/".join(p for p in (rng.choice(scopes), own) if p),
                            f"n{k}", a.replace("m", "m_1", 1)])
            if a not in m.b_of and b not in m.a_of:
                m.pair(a, b, "structure")
        got, want = renamed_scopes(m), _renamed_scopes_then(m)
        assert got == want and list(got.items()) == list(want.items())


def test_the_change_list_order_and_groups_are_the_old_ones():
    ga = load(blocks_graph(3000, 0)).graph
    gb = renamed_shuffled(ga)[0]
    assert _places(ga, columns(ga)) == {n: k for k, n in enumerate(ga.names())}
    d = diff_graphs(ga, gb)
    later = list(d.entries)
    random.Random(1).shuffle(later)
    for entries in (d.entries, later):
        groups = group_entries(entries, gb)
        then = {}
        for k, e in enumerate(entries):
            then.setdefault(e.signature(), []).append(k)
        want = sorted(((len(ms), len({_block(entries[k].a or entries[k].b) for k in ms}))
                       for ms in then.values() if len(ms) >= 2), reverse=True)
        assert sorted(((len(g.members), g.blocks) for g in groups), reverse=True) == want
    assert diff_module._eight_bit(d.entries, gb) is None
    assert d.counts()["changed"] == len(ga)
