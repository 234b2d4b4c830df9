"""Issue 38.16, a pure-Python pipeline under 1 s on the slow machine class: the graph's large
values stay in the model file and are copied back into the output byte for byte, steps change
one graph in place, and nothing a pure pipeline does imports numpy. Each result is compared
with what the copying path (the GUI's) gives on the same graph."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from inspector.core.formats.writer import PROTOBUF_LIMIT, write_graph
from inspector.core.model import protos
from inspector.core.transforms import REGISTRY, run_pipeline
from inspector.core.transforms.graph_utils import set_nodes

STEPS = "strip_unused_nodes remove_nodes(op=Identity, op=CheckNumerics)"
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _tensor(node, key: str, n: int, *, packed: bool = False, version: int = 0):
    t = node.attr[key].tensor
    t.dtype = 1
    t.tensor_shape.dim.add(size=n)
    if version:
        t.version_number = version
    if packed:
        t.float_val.extend(float(i % 97) for i in range(n))
    else:
        t.tensor_content = (bytes(range(256)) * (n * 4 // 256 + 1))[:n * 4]


def big_graph():
    """~6 MB: large values as tensor_content, as packed float_val, with a version number,
    two in one node, and an attribute sorted after `value`; Identity and CheckNumerics
    nodes between them, a node the outputs do not need."""
    g = protos.GraphDef()
    g.versions.producer = 1087
    ph = g.node.add(name="input", op="Placeholder")
    ph.attr["dtype"].type = 1
    consts = []
    for name, n, packed, version in (("w_content", 400_000, False, 0),
                                     ("w_packed", 300_000, True, 0),
                                     ("w_version", 200_000, False, 7)):
        c = g.node.add(name=name, op="Const")
        c.attr["dtype"].type = 1
        _tensor(c, "value", n, packed=packed, version=version)
        consts.append(name)
    two = g.node.add(name="two_values", op="Fancy")
    _tensor(two, "value", 100_000)
    _tensor(two, "alpha", 50_000)
    two.attr["zeta"].s = b"after value"
    consts.append("two_values")
    prev = "input"
    for i, name in enumerate(consts):
        read = g.node.add(name=f"{name}/read", op="Identity", input=[name])
        check = g.node.add(name=f"check_{i}", op="CheckNumerics", input=[prev])
        mul = g.node.add(name=f"mul_{i}", op="Mul", input=[f"check_{i}", f"{name}/read"])
        mul.device = "/cpu:0"
        read.attr["T"].type = 1
        check.attr["message"].s = b"m"
        prev = mul.name
    g.node.add(name="output", op="Identity", input=[prev, "^input"])
    g.node.add(name="unused", op="Const").attr["dtype"].type = 1
    return g


@pytest.fixture
def big_file(tmp_path):
    path = tmp_path / "big.pb"
    path.write_bytes(big_graph().SerializeToString())
    assert os.path.getsize(path) > 4 * 2 ** 20     # opened lazily by the loaders
    return str(path)


def _copying_path(path: str) -> tuple[bytes, list]:
    from inspector.core.loaders import load

    graph_def = load(path).graph.graph_def
    reports = run_pipeline(graph_def, STEPS, ["input"], ["output"])
    return protos.serialize_graph_def(reports[-1].graph_def), reports


def test_values_left_in_the_file_come_back_byte_for_byte(big_file, tmp_path):
    from inspector.core.formats import spliced
    from inspector.core.loaders.whole_graphdef import (
        lazy_attrs,
        read_graph_def,
        read_structure,
    )

    graph_def, left = read_structure(big_file)
    assert len(left.by_name) == 4 and set(left.by_name["two_values"]) == {"value", "alpha"}
    whole = {n.name: n for n in read_graph_def(big_file).node}
    for node in graph_def.node:
        lazy = lazy_attrs(node, left.by_name.get(node.name, {}))
        pieces = spliced.node_pieces(node, lazy) if lazy else [node.SerializeToString()]
        data = b"".join(p if isinstance(p, bytes) else os.pread(left.fd, p.length, p.offset)
                        for p in pieces)
        assert data == whole[node.name].SerializeToString(deterministic=True), node.name
    expected, reports = _copying_path(big_file)
    ours = run_pipeline(graph_def, STEPS, ["input"], ["output"], in_place=True)
    sizes: dict = {}
    alive = list(ours[-1].graph_def.node)    # node_sizes is by id: the caller keeps them
    write_graph(ours[-1].graph_def, str(tmp_path / "out.pb"), node_sizes=sizes,
                left_in_file=left)
    assert len(sizes) == len(alive)
    assert (tmp_path / "out.pb").read_bytes() == expected
    assert sum(sizes.values()) + protos.other_fields_size(ours[-1].graph_def) == len(expected)
    assert [(r.removed, r.added, r.changed, r.reasons) for r in ours] == \
        [(r.removed, r.added, r.changed, r.reasons) for r in reports]


def test_steps_in_place_give_the_copying_steps_reports_and_graph(data):
    from inspector.core.loaders import load

    src = os.path.join(data, "inception_jpeg.pb")
    steps = "strip_unused_nodes remove_nodes(op=Identity, op=CheckNumerics, max_inputs=2)"
    copied = load(src).graph.graph_def
    before = copied.SerializeToString()
    reports = run_pipeline(copied, steps, ["Mul"], ["softmax"])
    assert copied.SerializeToString() == before         # the copying path leaves its input
    mine = load(src).graph.graph_def
    in_place = run_pipeline(mine, steps, ["Mul"], ["softmax"], in_place=True)
    assert in_place[-1].graph_def is mine
    for a, b in zip(reports, in_place):
        assert (a.removed, a.added, a.changed, a.reasons, a.unchanged) == \
            (b.removed, b.added, b.changed, b.reasons, b.unchanged)
        assert a.changed or a.removed
    assert protos.serialize_graph_def(mine) == protos.serialize_graph_def(reports[-1].graph_def)


def test_set_nodes_moves_nodes_without_copying_them():
    g = protos.GraphDef()
    for name in "abcd":
        g.node.add(name=name, op="Const")
    a, b, c, d = list(g.node)
    new = protos.NodeDef(name="e", op="X")
    set_nodes(g, [d, new, b, d])
    assert [n.name for n in g.node] == ["d", "e", "b", "d"]
    assert g.node[0] is d and g.node[2] is b and g.node[3] is not d   # listed twice: a copy
    assert (a.name, c.op) == ("a", "Const")     # left out, still readable


def test_a_pure_pipeline_imports_no_numpy_and_no_tensorflow_layer():
    code = ("import sys\n"
            "from inspector.core.transforms import run_pipeline\n"
            "from inspector.core.model import protos\n"
            "g = protos.GraphDef()\n"
            "g.node.add(name='x', op='Placeholder')\n"
            "g.node.add(name='i', op='Identity', input=['x'])\n"
            "g.node.add(name='y', op='Neg', input=['i'])\n"
            f"run_pipeline(g, {STEPS!r}, ['x'], ['y'], in_place=True)\n"
            "print(sorted(m for m in sys.modules if m == 'numpy' or "
            "m.startswith('inspector.core.tf.') or m.startswith('tensorflow')))\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"


def test_transforms_register_as_their_modules_say():
    from inspector.core.transforms import catalogue

    assert set(REGISTRY) == set(catalogue.MODULE_OF)
    for name, info in REGISTRY.items():
        assert info.func.__module__ == f"inspector.core.transforms.{catalogue.MODULE_OF[name]}"
    assert {n for n, i in REGISTRY.items() if i.structure_only} == \
        {"strip_unused_nodes", "remove_nodes"}


def test_odd_files_are_left_to_the_loaders(big_file, tmp_path):
    from inspector.core.loaders.whole_graphdef import read_graph_def, read_structure

    data = open(big_file, "rb").read()
    twice = protos.NodeDef(name="input", op="X").SerializeToString()
    cases = {"truncated": data[:-1000], "unknown field": data + b"\x38\x01",
             "a name twice": data + b"\x0a" + bytes([len(twice)]) + twice}
    for label, content in cases.items():
        path = tmp_path / f"{label.replace(' ', '_')}.pb"
        path.write_bytes(content)
        assert read_graph_def(str(path)) is None, label
        assert read_structure(str(path)) is None, label


def test_dtype_sizes_without_numpy_are_numpys():
    import numpy as np

    from inspector.core.model import dtypes

    for value in range(0, 130):
        dt = dtypes.numpy_dtype(value)
        assert dtypes.item_size(value) == (0 if dt is None or dt == np.object_ else dt.itemsize)


def test_a_graph_over_the_limit_is_refused_while_written(big_file, tmp_path, monkeypatch):
    from inspector.core.errors import InspectorError
    from inspector.core.formats import writer
    from inspector.core.loaders.whole_graphdef import read_structure

    graph_def, left = read_structure(big_file)
    monkeypatch.setattr(writer, "PROTOBUF_LIMIT", 256)
    for kwargs in ({"left_in_file": left}, {}):
        with pytest.raises(InspectorError, match=r"the graph would be 0\.0 GB, over protobuf"):
            write_graph(graph_def, str(tmp_path / "out.pb"), node_sizes={}, **kwargs)
        assert os.listdir(tmp_path) == ["big.pb"]
    assert PROTOBUF_LIMIT == 2 ** 31 - 1


def test_a_model_file_changed_while_its_values_are_copied_is_an_error(big_file, tmp_path):
    """The values left in the file are checked against the file's stamp (HeldFile's check):
    a file rewritten after read_structure gives a one-line error, and no output is left."""
    from inspector.core.errors import InspectorError
    from inspector.core.loaders.whole_graphdef import read_structure

    graph_def, left = read_structure(big_file)
    assert left.unchanged()
    st = os.stat(big_file)
    os.utime(big_file, ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))
    try:
        assert not left.unchanged()
        with pytest.raises(InspectorError, match="changed on disk while it was read"):
            write_graph(graph_def, str(tmp_path / "out.pb"), left_in_file=left)
        assert sorted(os.listdir(tmp_path)) == ["big.pb"]
    finally:
        os.utime(big_file, ns=(st.st_atime_ns, st.st_mtime_ns))
    left.close()
    assert left.fd == -1
