"""Sizes of graphs with many nodes: the treemap never makes more tiles than its rectangle can
show (a flat scope of 1M nodes laid out 1M tiles on the GUI thread, in a layout quadratic in
a row's length: a 242 s stall of the window), the window's tree is trimmed in the task, a
graph without name scopes is grouped by op type (not as one scope of single nodes in name
order), the measure follows its job (progress, Cancel), a big graph kept as bytes in its
file is sized from the sizes its reader noted, not by parsing every NodeDef, and the command
line's rows come from the columns with sizes.group's answers. Qt-free."""

from __future__ import annotations

import random

import pytest

from inspector.core.analysis import sizes as sz
from inspector.core.app import sizing
from inspector.core.errors import Cancelled
from inspector.core.loaders import load
from inspector.core.runtime.job import Job
from inspector.core.view.treemap import nested, squarify
from tests.fixtures import scale_models


def _flat_root(n: int, size: int = 100) -> sz.Group:
    root = sz.Group("")
    for k in range(n):
        name = f"conv_{k}_weights"
        root.children[name + "\0"] = sz.Group(name, size + k % 7, 1, node=name)
    root.bytes, root.nodes = sum(g.bytes for g in root.children.values()), n
    return root


def _squarify_by_definition(items, x, y, w, h):
    """The squarified layout as the paper states it: a row grows while its worst aspect
    ratio, taken over every tile of the row, does not get worse."""
    def worst(row, side, scale):
        areas = [a * scale for a in row]
        thick = sum(areas) / side
        return max(max(thick * thick / a, a / (thick * thick)) for a in areas)

    items = sorted((i for i in items if i[2] > 0), key=lambda i: -i[2])
    scale, out, k = w * h / sum(i[2] for i in items), [], 0
    while k < len(items):
        side, row = min(w, h), [items[k]]
        k += 1
        while k < len(items) and worst([r[2] for r in row] + [items[k][2]], side, scale) <= \
                worst([r[2] for r in row], side, scale):
            row.append(items[k])
            k += 1
        thick, pos = sum(r[2] for r in row) * scale / side, 0.0
        for ident, _, weight in row:
            length = weight * scale / thick
            out.append((ident, x, y + pos, thick, length) if w >= h else
                       (ident, x + pos, y, length, thick))
            pos += length
        x, w, y, h = (x + thick, w - thick, y, h) if w >= h else (x, w, y + thick, h - thick)
    return out


def test_squarify_lays_out_as_the_definition():
    rng = random.Random(3)
    for _ in range(200):
        items = [(f"t{k}", "", rng.choice([rng.uniform(0.1, 100), 5.0, rng.expovariate(1)]))
                 for k in range(rng.randint(1, 60))]
        w, h = rng.uniform(10, 900), rng.uniform(10, 900)
        got = [(t[0], *t[3:]) for t in squarify(items, 0, 0, w, h)]
        want = _squarify_by_definition(items, 0, 0, w, h)
        assert [g[0] for g in got] == [t[0] for t in want]
        assert all(g[1:] == pytest.approx(t[1:]) for g, t in zip(got, want))


def test_a_treemap_makes_no_more_tiles_than_its_rectangle_shows():
    root = _flat_root(20_000)
    tiles = nested(root, 0, 0, 600, 300, depth=3)
    assert len(tiles) <= 600 * 300 / 36 + 1          # min_side 6: no tile under 6 x 6
    rest = [t for t in tiles if t.id == ""]
    assert len(rest) == 1 and rest[0].label.endswith("more nodes")
    assert sum(t.weight for t in tiles) == root.bytes
    assert all(t.w * t.h >= 36 - 1e-6 for t in tiles if t.id)


def test_trim_keeps_the_biggest_groups_and_sums_the_rest():
    root = _flat_root(5000)
    scoped = sz.Group("", children={"s": sz.Group("s", root.bytes, root.nodes,
                                                  children=root.children)})
    scoped.bytes, scoped.nodes = root.bytes, root.nodes
    leaves = sz.trim(scoped, 100)
    kids = scoped.children["s"].children
    assert len(kids) == 101 and len(leaves) == 100
    folded = kids["\0more"]
    assert folded.folded == 4900 and folded.nodes == 4900 and folded.name == "4,900 more nodes"
    assert sum(g.bytes for g in kids.values()) == root.bytes
    assert min(kids[n + "\0"].bytes for n in leaves) >= max(
        g.bytes for k, g in root.children.items() if k not in kids)
    tiles = nested(scoped, 0, 0, 800, 400, depth=3)
    assert [t.label for t in tiles if t.id == ""][-1].endswith("more nodes")   # no click


def test_the_windows_measure_is_trimmed_and_keeps_no_per_node_dict():
    m = load(scale_models.blocks_graph(3000))
    full = sizing.measure(m.graph, "scope", m.file_size)
    kept = sizing.measure(m.graph, "scope", m.file_size, keep=3)
    assert kept.total == full.total and kept.root.bytes == full.root.bytes
    assert kept.sizes.nodes == {} and len(full.ops) == len(m.graph)

    def walk(g):
        assert len(g.children) <= 4
        for c in g.children.values():
            walk(c)
    walk(kept.root)
    assert kept.ops and all(full.ops[n] == op for n, op in kept.ops.items())


def test_a_graph_without_scopes_is_grouped_by_op_type():
    m = load(scale_models.flat_graph(1000))
    measured = sizing.measure(m.graph, "scope", m.file_size)
    assert measured.by == "op" and measured.note == sizing.NO_SCOPES
    assert "Const" in measured.root.children and len(measured.root.children) < 20
    assert measured.biggest["Const"] in m.graph
    scoped = sizing.measure(load(scale_models.blocks_graph(3000)).graph, "scope")
    assert scoped.by == "scope" and scoped.note == ""


def test_the_measure_follows_its_job():
    m = load(scale_models.flat_graph(1000))
    seen = []
    job = Job(on_progress=lambda *p: seen.append(p))
    sizing.measure(m.graph, "dtype", m.file_size, job)
    assert seen and seen[0][1] == len(m.graph)
    job.cancel()
    with pytest.raises(Cancelled):
        sizing.measure(m.graph, "scope", m.file_size, job)


def test_a_stored_graph_is_sized_without_parsing_its_nodes(monkeypatch):
    from inspector.core.app.opening import open_model
    from inspector.core.loaders import reader_process
    from inspector.core.model import node_store
    from inspector.core.runtime import front_end

    path = scale_models.blocks_graph(10_000)
    whole = load(path)
    monkeypatch.setattr(front_end, "FEW_NODES", True, raising=False)
    monkeypatch.setattr(reader_process, "STREAM_ABOVE", 1)
    monkeypatch.setattr(reader_process, "STORE_FROM", 1)
    monkeypatch.setattr(reader_process, "CHUNK_NODES", 4500)
    monkeypatch.setattr(reader_process, "_can_fork", lambda: True)
    stored = open_model(path)
    assert type(stored.graph.structure) is node_store.StoredGraphDef

    def parse(*_):
        raise AssertionError("a NodeDef parsed to be sized")
    monkeypatch.setattr(node_store.NodeStore, "parse", parse)
    got = sz.sizes(stored.graph, stored.file_size)
    want = sz.sizes(whole.graph, whole.file_size)
    assert got.nodes == want.nodes and got.remainder == 0


@pytest.mark.parametrize("path", ["demo", "inception_jpeg.pb", "dense", "blocks"])
def test_the_columns_sum_as_the_groups_do(path, data):
    """size_columns (the window's measure: bincounts, no Group a node) against sizes.group
    (the CLI's): the same bytes and nodes in every group, each node's size the same."""
    from inspector.core.analysis import size_columns as sc
    from tests.conftest import DEMO

    path = {"demo": DEMO, "dense": scale_models.dense_model(2, 512),
            "blocks": scale_models.blocks_graph(3000)}.get(path) or f"{data}/{path}"
    g = load(path).graph
    nodes = sz.node_sizes(g)
    sizes = sc.size_array(g)
    assert sizes.tolist() == [nodes[n] for n in g.name_list]

    def sums(root):
        out, stack = {}, [root]
        while stack:
            x = stack.pop()
            out[(x.name, x.node)] = (x.bytes, x.nodes)
            stack.extend(x.children.values())
        return out
    assert sums(sc.by_scope(g, sizes, lambda root: 0)) == sums(sz.group(g, nodes, "scope"))
    for by in ("op", "dtype"):
        root, biggest = sc.by_key(g, sizes, by)
        assert sums(root) == sums(sz.group(g, nodes, by))
        keys = dict(zip(g.name_list, sz.group_keys(g, by)))
        for key, name in biggest.items():
            assert keys[name] == key and nodes[name] == max(
                nodes[n] for n in g.name_list if keys[n] == key)


def test_the_windows_tree_is_as_fine_as_a_map_shows():
    """The window kept a Group a node (1M nodes: ~400 MB, freed on the GUI thread by the
    next measure): groups under LEAST of the map are folded, and none is deeper than the
    map shows."""
    m = load(scale_models.blocks_graph(30_000))
    measured = sizing.measure(m.graph, "scope", m.file_size, keep=sizing.KEEP)
    count, deepest, stack = 0, 0, [(measured.root, 0)]
    while stack:
        g, level = stack.pop()
        count, deepest = count + 1, max(deepest, level)
        assert level == 0 or g.folded or g.bytes >= measured.root.bytes * sizing.LEAST
        stack.extend((c, level + 1) for c in g.children.values())
    assert count < len(m.graph) / 3 and deepest <= 3      # (a Group a node: over 33k)
    assert measured.root.bytes == measured.total and measured.root.nodes == len(m.graph)


def _odd_names(tmp_path, deep: bool) -> str:
    """A graph of the names scopes trip on ('/x', 'a//b', 'a/' beside 'a/b' and 'a/b/c',
    '//'), shuffled, in scopes of equal sizes (ties), and one name 80 scopes deep."""
    from inspector.core.model import protos

    rng = random.Random(3)
    names = ["/x", "a//b", "a/", "a/b", "a/b/c", "z", "a/q/r/s", "/y/z", "b/c/d", "b/e", "top",
             "b", "c/d", "a/b/c/d/e/f", "b/c/x", "c/d/e", "//", "/", "a//"] + \
        [f"s{rng.randint(0, 9)}/t{rng.randint(0, 5)}/n{i}" for i in range(300)] + \
        ["a/" * 62 + "x"] + (["/".join(f"d{i}" for i in range(80))] if deep else [])
    rng.shuffle(names)
    graph = protos.GraphDef()
    for name in names:
        node = graph.node.add(name=name, op=rng.choice(["Const", "Identity", "Add"]))
        if node.op == "Const":
            node.attr["value"].tensor.dtype = node.attr["dtype"].type = rng.choice([1, 3])
            node.attr["value"].tensor.tensor_content = bytes(rng.choice([4, 8, 4000]))
    path = tmp_path / "odd.pb"
    path.write_bytes(graph.SerializeToString())
    return str(path)


@pytest.mark.parametrize("path", ["demo", "inception_jpeg.pb", "blocks", "flat", "odd", "deep"])
def test_the_command_lines_rows_from_the_columns_are_the_groups_rows(path, data, tmp_path):
    """`graphdef-inspector sizes`: measure(depth=N) builds its tree only N scope levels down,
    from the columns (sizes.group made a Group a node: 1M nodes in blocks, --depth 1), with
    the rows, totals and ties' order of sizes.group's tree at every depth and grouping."""
    from tests.conftest import DEMO

    path = {"demo": DEMO, "blocks": scale_models.blocks_graph(3000),
            "flat": scale_models.flat_graph(1000), "odd": _odd_names(tmp_path, False),
            "deep": _odd_names(tmp_path, True)}.get(path) or f"{data}/{path}"
    m = load(path)
    for by in sizing.BY:
        full = sizing.measure(m.graph, by, m.file_size)
        for depth in (0, 1, 2, 3, 9):
            rows = sizing.measure(m.graph, by, m.file_size, depth=depth)
            assert (rows.by, rows.note, rows.total) == (full.by, full.note, full.total)
            assert (rows.sizes.other, rows.sizes.remainder) == (full.sizes.other,
                                                                full.sizes.remainder)
            depth = depth if full.by == "scope" else 1
            assert sizing.biggest_groups(rows, depth) == sizing.biggest_groups(full, depth)
    if "blocks" in path:
        count, stack = 0, [sizing.measure(m.graph, "scope", depth=1).root]
        while stack:
            count += 1
            stack.extend(stack.pop().children.values())
        assert count < len(m.graph) / 100                  # (a Group a node: over 3000)
