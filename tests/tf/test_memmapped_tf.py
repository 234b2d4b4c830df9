"""Memory-mapped packages: written from frozen graphs, checked (valid files pass; truncated,
out-of-range, duplicate and misaligned regions each fail with their own message), and read
back as Const nodes whose outputs in TensorFlow are bit-identical to the original's.

This file holds the tests that need TensorFlow (an oracle, a model built or run by it); the
others are in tests/cli/test_memmapped_cli.py, tests/core/test_memmapped.py."""

from __future__ import annotations

import os

import numpy as np
import pytest

from inspector.core.errors import ModelLoadError
from inspector.core.formats.memmapped import (
    ALIGNMENT,
    GRAPH_REGION,
    encode_directory,
    write_memmapped,
)
from inspector.core.loaders import load
from inspector.core.loaders.memmapped import check, read_package
from inspector.core.runtime.executor import tensorflow
from tests.conftest import DEMO


@pytest.fixture(scope="module")
def packages(tmp_path_factory, fx):
    folder = tmp_path_factory.mktemp("mmap")
    out = {}
    for name, src in (("demo", DEMO), ("mobilenet", os.path.join(fx, "mobilenet_v2.pb"))):
        out[name] = (src, str(folder / f"{name}.mmap"),
                     write_memmapped(load(src).graph, str(folder / f"{name}.mmap")))
    return out


def _rewrite(path, out, change):
    """The package at `path` with its directory changed by `change(regions)`."""
    p = read_package(path)
    data = open(path, "rb").read()[:p.directory_offset]
    regions = [(r.name, r.offset, r.length) for r in p.regions]
    body, regions = change(bytearray(data), regions)
    with open(out, "wb") as fh:
        fh.write(bytes(body) + encode_directory(regions) + len(body).to_bytes(8, "little"))
    return str(out)


def test_valid_packages_pass_the_checker(packages):
    for name, (src, path, written) in packages.items():
        package, problems = check(path)
        assert problems == [], (name, problems)
        tensors = [r for r in package.regions if r.name != GRAPH_REGION]
        assert tensors and all(r.offset % ALIGNMENT == 0 for r in tensors)
        assert len(tensors) == len(written.regions)
        assert package.tensor_bytes == written.mapped_bytes
        graph = load(src).graph
        big = [n for n in graph if n.op == "Const" and
               graph.tensor_value(n.name).nbytes >= 10000]
        assert len(big) == len(tensors)          # every constant of 10,000 bytes or more
    mobilenet = packages["mobilenet"][2]
    assert mobilenet.mapped_bytes > 0.9 * os.path.getsize(packages["mobilenet"][0])


def test_truncated_file(packages, tmp_path):
    path = packages["demo"][1]
    data = open(path, "rb").read()
    cut = tmp_path / "cut.mmap"
    cut.write_bytes(data[:len(data) // 2])
    with pytest.raises(ModelLoadError, match="truncated"):
        check(str(cut))
    cut.write_bytes(data[:5])
    with pytest.raises(ModelLoadError, match="shorter than the 8-byte directory offset"):
        check(str(cut))


def test_out_of_range_offset(packages, tmp_path):
    def change(body, regions):
        name, _, length = regions[0]
        return body, [(name, len(body) + 4096, length)] + regions[1:]
    _, problems = check(_rewrite(packages["demo"][1], tmp_path / "far.mmap", change))
    assert any("runs past the directory" in p for p in problems), problems


def test_duplicate_names(packages, tmp_path):
    def change(body, regions):
        (a, off_a, len_a), (_, off_b, len_b) = regions[0], regions[1]
        return body, [(a, off_a, len_a), (a, off_b, len_b)] + regions[2:]
    _, problems = check(_rewrite(packages["demo"][1], tmp_path / "dup.mmap", change))
    assert any(p.startswith("duplicate region name") for p in problems), problems


def test_misaligned_region(packages, tmp_path):
    def change(body, regions):
        name, offset, length = regions[1]
        body[offset + 8:offset + 8] = b""           # same bytes, region moved by 8
        return body, [regions[0], (name, offset + 8, length - 8)] + regions[2:]
    _, problems = check(_rewrite(packages["demo"][1], tmp_path / "odd.mmap", change))
    assert any("not a multiple of 64" in p for p in problems), problems
    assert any("needs" in p for p in problems)      # and too short for its node now


def test_every_problem_has_its_own_message(packages, tmp_path):
    """The four damages above produce four different first lines."""
    firsts = set()
    for label, change in (
            ("far", lambda b, r: (b, [(r[0][0], len(b) + 64, r[0][2])] + r[1:])),
            ("dup", lambda b, r: (b, [r[0], (r[0][0], r[1][1], r[1][2])] + r[2:])),
            ("odd", lambda b, r: (b, [r[0], (r[1][0], r[1][1] + 8, r[1][2] - 8)] + r[2:]))):
        _, problems = check(_rewrite(packages["demo"][1], tmp_path / f"{label}.mmap", change))
        import re

        firsts.add(re.sub(r"'[^']*'|[\d,]+", "", problems[0]))   # without names and numbers
    assert len(firsts) == 3, firsts


def test_round_trip_outputs_are_bit_identical(packages):
    for name, (src, path, _) in packages.items():
        original, back = load(src), load(path)
        assert back.kind == "memmapped" and back.graph.weights.bytes_read == 0
        ins = [n.name for n in original.graph if n.op == "Placeholder"]
        shape = [1 if d is None or d < 0 else d
                 for d in original.graph.node(ins[0]).attr("shape").dims]
        x = np.random.default_rng(0).uniform(0, 1, shape).astype(np.float32)
        out = "output" if name == "demo" else "Identity"
        a = tensorflow().run_graph(original.graph.graph_def, {ins[0]: x}, [out])
        b = tensorflow().run_graph(back.graph.graph_def, {ins[0]: x}, [out])
        assert np.array_equal(a[0], b[0]), name


def test_opening_a_damaged_package_says_so(packages, tmp_path):
    def change(body, regions):
        return body, [regions[0], regions[0]] + regions[1:]
    bad = _rewrite(packages["demo"][1], tmp_path / "bad.mmap", change)
    with pytest.raises(ModelLoadError, match="damaged memory-mapped package: duplicate"):
        load(bad)


def _run_both(src, graph_def_b):
    """Outputs of the original model and of `graph_def_b` on one seeded input."""
    original = load(src)
    ins = [n.name for n in original.graph if n.op == "Placeholder"]
    shape = [1 if d is None or d < 0 else d
             for d in original.graph.node(ins[0]).attr("shape").dims]
    x = np.random.default_rng(1).uniform(0, 1, shape).astype(np.float32)
    out = "output" if src == DEMO else "Identity"
    a = tensorflow().run_graph(original.graph.graph_def, {ins[0]: x}, [out])
    b = tensorflow().run_graph(graph_def_b, {ins[0]: x}, [out], allow_unsafe=True)
    return a[0], b[0]


def test_tensorflow_own_immutable_const_kernel_reads_the_regions(packages, tmp_path):
    """TF 2.21's Python has no binding for MemmappedEnv, so it cannot open a package
    itself. Its ImmutableConst kernel still maps a file through the default Env: each
    region copied to a file of its own, the package's GraphDef runs as written (dtype and
    shape attrs, region lengths checked by TF's kernel): the tensors it maps are
    bit-identical to the original constants."""
    from inspector.core.loaders.memmapped import _graph_def

    for name, (src, path, _) in packages.items():
        p = read_package(path)
        data = open(path, "rb").read()
        graph_def = _graph_def(p)
        immutable = [n for n in graph_def.node if n.op == "ImmutableConst"]
        assert immutable
        for k, r in enumerate(p.regions):
            if r.name == GRAPH_REGION:
                continue
            f = tmp_path / f"{name}_{k}.bin"
            f.write_bytes(data[r.offset:r.offset + r.length])
            for node in immutable:
                if node.attr["memory_region_name"].s == r.name.encode():
                    node.attr["memory_region_name"].s = str(f).encode()
        graph = load(src).graph
        names = [n.name for n in immutable]
        mapped = tensorflow().run_graph(graph_def, {}, names, allow_unsafe=True)
        for node_name, value in zip(names, mapped):      # TF's own reading: same bytes
            want = graph.tensor_value(node_name)
            assert value.dtype == want.dtype and value.shape == want.shape
            assert value.tobytes() == want.tobytes(), node_name
        # Grappler folds and fuses Const weights but cannot touch ImmutableConst, so the
        # kernels differ and the answers agree to float32 rounding only (measured: 2e-6
        # relative on the demo; bit-identical with Grappler and the graph optimizer off).
        a, b = _run_both(src, graph_def)
        assert np.allclose(a, b, rtol=1e-4, atol=1e-6), name


def test_region_listing_names_the_node_dtype_and_shape(packages):
    from inspector.core.loaders.memmapped import region_rows

    rows = region_rows(packages["demo"][1])
    graph = load(DEMO).graph
    tensors = [r for r in rows if r[4] != "graph"]
    assert len(tensors) == 2 and rows[-1][0] == GRAPH_REGION
    for name, offset, length, node, dtype, dims in tensors:
        value = graph.tensor_value(node)
        assert dtype == "float" and tuple(dims) == value.shape and length == value.nbytes


def _odd_sized_model(path):
    """x + a + b with a and b of 2,501 floats (10,004 bytes: padding follows each)."""
    from inspector.core.model import protos

    g = protos.GraphDef()
    x = g.node.add(name="x", op="Placeholder")
    x.attr["dtype"].type = 1
    x.attr["shape"].shape.dim.add(size=2501)
    previous = "x"
    for k, name in enumerate(("a", "b")):
        c = g.node.add(name=name, op="Const")
        c.attr["dtype"].type = 1
        t = c.attr["value"].tensor
        t.dtype = 1
        t.tensor_shape.dim.add(size=2501)
        t.tensor_content = (np.arange(2501, dtype=np.float32) * (k + 1.5)).tobytes()
        add = g.node.add(name=f"add_{name}", op="AddV2", input=[previous, name])
        add.attr["T"].type = 1
        previous = add.name
    out = g.node.add(name="output", op="Identity", input=[previous])
    out.attr["T"].type = 1
    with open(path, "wb") as fh:
        fh.write(g.SerializeToString())
    return str(path)


def test_packages_without_lengths_as_tf1_wrote_them(tmp_path):
    """TF 1.x's writer recorded offsets only: a region then runs to the next offset,
    padding included. Such a package passes and opens with exact tensor sizes."""
    src = _odd_sized_model(tmp_path / "odd.pb")
    path = str(tmp_path / "odd.mmap")
    written = write_memmapped(load(src).graph, path)
    assert [r[2] for r in written.regions] == [10004, 10004]

    def drop_lengths(body, regions):
        return body, [(name, offset, 0) for name, offset, _ in regions]
    old = _rewrite(path, tmp_path / "old.mmap", drop_lengths)
    package, problems = check(old)
    assert problems == [] and package.lengths_inferred
    assert package.tensor_bytes == 20008
    x = np.linspace(-1, 1, 2501).astype(np.float32)
    a = tensorflow().run_graph(load(src).graph.graph_def, {"x": x}, ["output"])
    b = tensorflow().run_graph(load(old).graph.graph_def, {"x": x}, ["output"])
    assert np.array_equal(a[0], b[0])

    def shorten(body, regions):          # a region 64 bytes short of its node
        (n0, o0, _), rest = regions[0], regions[1:]
        return body, [(n0, o0, 0), (rest[0][0], rest[0][1] - 64, 0)] + \
            [(n, o, 0) for n, o, _ in rest[1:]]
    _, problems = check(_rewrite(path, tmp_path / "short.mmap", shorten))
    assert any("needs 10,004" in p for p in problems), problems
