"""The diff's whole-graph C calls go PIECE items a call (each call holds the GIL while the
diff window waits; at 300k nodes one call held it 40-400 ms): compare.columns' first-index
dict of the names, its tolists and reader tuples, quiet_pairs' name look-ups, the matching's
seed pairs, and the two big sorts (the structure seeds, the change list) by numpy's stable
sort of int keys. Same results as the one-shot way."""

from __future__ import annotations

import gc
import random

import numpy as np
import pytest

from inspector.core.app import diffing
from inspector.core.compare import changes, columns as columns_module, diff as diff_module
from inspector.core.compare.columns import columns, first_index, order_by, pairs, pieces
from inspector.core.model import protos
from inspector.core.model.graph import Graph
from tests.fixtures.pieces import CountingNumpy, Slices


@pytest.fixture
def small_pieces(monkeypatch):
    monkeypatch.setattr(columns_module, "PIECE", 7)


def test_first_index_is_the_one_shot_dict_a_piece_at_a_time(small_pieces):
    for names in (["a", "b", "a", "c", "b", "d", "a"] * 5 + ["e"], [f"n{i}" for i in range(50)],
                  [], ["x"]):
        taken: list = []
        got = first_index(Slices(names, taken))
        whole = dict(zip(reversed(names), range(len(names) - 1, -1, -1)))
        assert list(got.items()) == list(whole.items())
        assert not taken or max(taken) <= 7


def test_pieces_and_pairs_are_tolist_and_items(small_pieces):
    array = np.arange(40) * 3
    assert pieces(array) == array.tolist() and pieces(array[:0]) == []
    mapping = {f"k{i}": i for i in range(30)}
    assert pairs(mapping) == list(mapping.items()) and pairs({}) == []


@pytest.mark.parametrize("n", [0, 1, 6, 100, 3000])
def test_order_by_is_sorted_by_the_int_then_the_tie(small_pieces, n):
    rng = random.Random(n)
    items = [(rng.randrange(5), rng.choice("abcde"), k) for k in range(n)]
    keys = [i for i, _, _ in items]
    want = sorted(items, key=lambda t: (t[0], t[1]))     # stable: k keeps its order in ties
    assert order_by(items, keys, lambda t: t[1]) == want


def _graph(n: int, prefix: str, shuffle: int | None = None, suffix: str = "") -> Graph:
    """A chain of blocks (Const -> Mul -> Add ...), names under `prefix` (and ending in
    `suffix`), nodes shuffled."""
    gd = protos.GraphDef()
    nodes = [("in", "Placeholder", [])]
    for i in range(n):
        nodes += [(f"w{i}", "Const", []), (f"m{i}", "Mul", [nodes[-1][0] if i else "in",
                                                               f"w{i}"])]
    if shuffle is not None:
        random.Random(shuffle).shuffle(nodes)
    for name, op, inputs in nodes:
        node = gd.node.add(name=f"{prefix}{name}{suffix}", op=op)
        node.input.extend(f"{prefix}{x}{suffix}" for x in inputs)
        if op == "Const":
            node.attr["dtype"].type = 1
            node.attr["value"].tensor.dtype = 1
    return Graph(gd)


def test_quiet_pairs_look_names_up_a_piece_at_a_time(monkeypatch):
    ga, gb = _graph(40, "a/"), _graph(40, "b/", shuffle=3)
    b_of = {f"a/{n}": f"b/{n}" for n in ["in"] + [f"{k}{i}" for i in range(40) for k in "wm"]}
    monkeypatch.setattr(columns_module, "ARRAYS_FROM", 0)
    cols = columns(ga), columns(gb)
    whole = changes.quiet_pairs(ga, gb, b_of, cols)
    sizes: list = []
    monkeypatch.setattr(columns_module, "PIECE", 7)           # columns.indexes
    monkeypatch.setattr(columns_module, "np", CountingNumpy(sizes))
    assert changes.quiet_pairs(ga, gb, b_of, cols) == whole
    assert sum(sizes) == 2 * len(b_of) and max(sizes) <= 7
    assert all(whole[2])                  # every pair quiet: the same inputs, paired


def test_a_diff_lists_its_changes_in_the_order_of_the_one_shot_sort(monkeypatch):
    ga, gb = _graph(300, "a/"), _graph(300, "a/", shuffle=5, suffix="_r")   # all renamed
    whole = diff_module.diff_graphs(ga, gb)
    monkeypatch.setattr(columns_module, "PIECE", 7)
    sorts: list = []
    real = columns_module.order_by
    monkeypatch.setattr(diff_module, "order_by",
                        lambda items, *a: sorts.append(len(items)) or real(items, *a))
    cut = diff_module.diff_graphs(ga, gb)
    assert [(e.status, e.a, e.b) for e in cut.entries] == \
        [(e.status, e.a, e.b) for e in whole.entries]
    order = {name: k for k, name in enumerate(ga.names())}
    key = [(diff_module.STATUSES.index(e.status), order.get(e.a, len(order)), e.b)
           for e in cut.entries]
    assert key == sorted(key) and sorts == [len(cut.entries)] and len(cut.entries) > 600


def test_a_diff_runs_with_collection_paused_and_turns_it_back_on(monkeypatch):
    ga, gb = _graph(20, "a/"), _graph(20, "a/", shuffle=1, suffix="_r")
    seen = []
    real = diff_module.diff_graphs
    monkeypatch.setattr(diff_module, "diff_graphs",
                        lambda *a, **k: seen.append(gc.isenabled()) or real(*a, **k))
    assert gc.isenabled()
    d = diffing.diff_models(ga, gb, totals=False)
    assert seen == [False] and gc.isenabled() and d.counts()["changed"] > 0


class _NoItems(dict):
    """An attribute map whose items() view is never read (a protobuf map's is a Python
    generator: a third of same_attrs' time over 100k pairs)."""

    def items(self):
        raise AssertionError("items() read")


def test_same_attrs_is_the_maps_equality_read_by_keys():
    node = protos.NodeDef()
    node.attr["T"].type = 1
    node.attr["strides"].list.i.extend([1, 2, 2, 1])
    other = protos.NodeDef()
    other.CopyFrom(node)
    assert changes.same_attrs(node.attr, other.attr) and node.attr == other.attr
    for change in (lambda a: a["strides"].list.i.append(1), lambda a: a["T"].ClearField("type"),
                   lambda a: a["padding"].s.__class__, lambda a: a["data_format"]):
        changed = protos.NodeDef()
        changed.CopyFrom(node)
        change(changed.attr)
        assert changes.same_attrs(node.attr, changed.attr) == (node.attr == changed.attr)
    renamed = protos.NodeDef()
    renamed.attr["U"].type = 1
    renamed.attr["strides"].list.i.extend([1, 2, 2, 1])
    assert not changes.same_attrs(node.attr, renamed.attr)       # same size, another key
    assert "U" not in node.attr                                   # looked up, not added
    assert changes.same_attrs(_NoItems(a=1, b=2), _NoItems(b=2, a=1))
    assert not changes.same_attrs(_NoItems(a=1, b=2), _NoItems(a=1, b=3))


def test_the_matchings_quality_counts_its_rules_a_piece_at_a_time(monkeypatch):
    from inspector.core.compare import records

    m = records.Matching()
    rules = ["structure", "name", "top-down", "structure", "operand"] * 9 + ["name"] * 3
    for k, rule in enumerate(rules):
        m.pair(f"a{k}", f"b{k}", rule)
    whole = m.quality(60)
    counted: list = []
    real = records.Counter.update
    monkeypatch.setattr(records.Counter, "update",
                        lambda self, items=None, **k: counted.append(len(items or ())) or
                        real(self, items, **k))
    monkeypatch.setattr(records, "PIECE", 7)
    assert m.quality(60) == whole and list(m.quality(60)["shares"]) == list(whole["shares"])
    assert sum(counted) == 2 * len(rules) and max(counted) <= 7


class _ListArrays:
    """numpy, with the length of every list np.array / np.asarray made an array of recorded
    (one C call over the whole list, the GIL held throughout)."""

    def __init__(self, sizes: list):
        self.sizes, self.np = sizes, np

    def __getattr__(self, name):
        return getattr(self.np, name)

    def array(self, items, *args, **kwargs):
        if isinstance(items, list):
            self.sizes.append(len(items))
        return self.np.array(items, *args, **kwargs)

    def asarray(self, items, *args, **kwargs):
        if isinstance(items, list):
            self.sizes.append(len(items))
        return self.np.asarray(items, *args, **kwargs)


def test_a_diff_makes_no_array_of_a_whole_list_in_one_call(monkeypatch):
    """The change list's sort keys (order_by) and the attribute tails' ids (attr_bytes.tails)
    were one np.array over every entry / node: at 300k, 3.5 ms of C holding the GIL each
    (~16 ms on the slow class, in the comparison window's process)."""
    from inspector.core.compare import attr_bytes

    ga, gb = _graph(300, "a/"), _graph(300, "a/", shuffle=5, suffix="_r")   # all renamed
    monkeypatch.setattr(columns_module, "ARRAYS_FROM", 0)
    whole = diff_module.diff_graphs(ga, gb)
    ga, gb = _graph(300, "a/"), _graph(300, "a/", shuffle=5, suffix="_r")
    sizes: list = []
    monkeypatch.setattr(columns_module, "PIECE", 7)
    monkeypatch.setattr(columns_module, "np", _ListArrays(sizes))
    monkeypatch.setattr(attr_bytes, "np", _ListArrays(sizes))
    cut = diff_module.diff_graphs(ga, gb)
    assert [(e.status, e.a, e.b, [c.text for c in e.changes]) for e in cut.entries] == \
        [(e.status, e.a, e.b, [c.text for c in e.changes]) for e in whole.entries]
    assert sizes and max(sizes) <= 7 and len(cut.entries) > 600


def test_the_change_list_look_ups_are_the_dicts_they_replaced():
    """Each entry's row and stop and each row's stop as the dicts made them (the look-ups by
    entry index and row are lists now: a 300k-key dict grew by resizes of ~5 ms of C each)."""
    from inspector.core.app.comparing import compare

    ga, gb = _graph(40, "a/"), _graph(40, "a/", shuffle=2, suffix="_r")
    s = compare(ga, gb, "A", "B")
    rows, stops, d = s.change_rows(), s.stops(), s.diff
    stop_of = {r: i for i, r in enumerate(stops)}
    row_of, group_row = {}, {}
    for r, (_, k, kind) in enumerate(rows):
        if kind == "entry":
            row_of.setdefault(k, r)
    for g, r in zip(d.groups, [r for r in stops if rows[r][2] == "group"]):
        for k in g.members:
            group_row.setdefault(k, r)
    assert len(d.entries) > 80 and d.groups and group_row
    for k in range(-1, len(d.entries) + 2):
        assert s.row_of(k) == row_of.get(k, -1)
    for k in range(len(d.entries)):
        s.row, before = -1, s.stop
        s.go_to(k)
        assert (s.index, s.row) == (k, row_of.get(k, -1))
        assert s.stop == stop_of.get(s.row, stop_of.get(group_row.get(k, -1), before))
    for r in range(len(rows)):
        before = s.stop
        s.go_to_row(r)
        assert s.stop == stop_of.get(r, before)


def test_the_matching_empties_its_big_lists_a_piece_at_a_time(monkeypatch):
    """The fingerprints (a list of ints a node, both sides) and the pairs' noted names are
    emptied PIECE items a call before match returns: freed at its return, 600k ints held
    the GIL ~13 ms in one go (~60 ms on the slow class) while the window waited."""
    from inspector.core.compare import matching

    ga, gb = _graph(300, "a/"), _graph(300, "a/", shuffle=5, suffix="_r")
    whole = matching.match(ga, gb)
    ga, gb = _graph(300, "a/"), _graph(300, "a/", shuffle=5, suffix="_r")
    made, cut = [], []
    real_fp, real_release = matching._fingerprints, matching.release
    monkeypatch.setattr(matching, "_fingerprints",
                        lambda *a: made.extend(real_fp(*a)) or tuple(made[-2:]))
    monkeypatch.setattr(columns_module, "PIECE", 7)
    monkeypatch.setattr(matching, "release",
                        lambda *lists: cut.append([len(x) for x in lists]) or
                        real_release(*lists))
    m = matching.match(ga, gb)
    assert m.b_of == whole.b_of and m.rule == whole.rule
    fps = [f.fp for f in made]
    assert len(made) == 2 and all(isinstance(fp, list) and fp == [] for fp in fps)
    assert [len(ga), len(gb)] == cut[-1][-2:]       # both sides' fingerprints, emptied
