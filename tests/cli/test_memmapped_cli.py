"""Memory-mapped packages: written from frozen graphs, checked (valid files pass; truncated,
out-of-range, duplicate and misaligned regions each fail with their own message), and read
back as Const nodes whose outputs in TensorFlow are bit-identical to the original's.

This file holds the tests that drive the command line; the others are in
tests/tf/test_memmapped_tf.py, tests/core/test_memmapped.py."""

from __future__ import annotations

import numpy as np
import test_memmapped_tf
from test_memmapped_tf import _rewrite, _run_both  # noqa: F401

from inspector.core.loaders import load
from tests.conftest import DEMO, run_cli

packages = test_memmapped_tf.packages   # the fixture, shared with tests/tf


def test_cli_write_and_check(tmp_path):
    out = tmp_path / "demo.mmap"
    code, stdout, err = run_cli("memmapped", DEMO, "-o", str(out))
    assert code == 0 and "2 constant regions" in stdout, err
    code, stdout, err = run_cli("memmapped", DEMO, "-o", str(out))
    assert code == 2 and "exists" in err                 # never over an existing file
    code, stdout, err = run_cli("memmapped", "--check", str(out))
    assert code == 0 and stdout.strip().endswith("as long as their nodes need.")
    data = out.read_bytes()
    (tmp_path / "cut.mmap").write_bytes(data[:-3])
    code, stdout, err = run_cli("memmapped", "--check", str(tmp_path / "cut.mmap"))
    assert code == 2 and len(err.strip().splitlines()) == 1 and "cut.mmap" in err


def test_cli_rewrites_a_package_to_consts(packages, tmp_path):
    """`convert` on a package writes a plain GraphDef: Const nodes again, same bytes."""
    from inspector.core.model import protos

    src, path, written = packages["mobilenet"]
    out = tmp_path / "back.pb"
    code, stdout, err = run_cli("convert", path, "-o", str(out))
    assert code == 0, err
    back = protos.GraphDef.FromString(out.read_bytes())
    assert not [n for n in back.node if n.op == "ImmutableConst"]
    graph, rewritten = load(src).graph, load(str(out)).graph
    for _, _, _, node in written.regions:
        assert rewritten.node(node).op == "Const"
        assert rewritten.tensor_value(node).tobytes() == graph.tensor_value(node).tobytes()
    a, b = _run_both(src, back)
    assert np.array_equal(a, b)


def test_cli_check_lists_regions_and_states_the_estimate(packages):
    code, stdout, err = run_cli("memmapped", "--check", packages["demo"][1])
    assert code == 0, err
    assert "[512, 10]" in stdout and "<- digits_1/logits_1" in stdout
    assert "an estimate" in stdout


def test_cli_check_of_a_damaged_package(packages, tmp_path):
    def change(body, regions):
        return body, [regions[0], (regions[0][0], regions[1][1], regions[1][2])] + regions[2:]
    bad = _rewrite(packages["demo"][1], tmp_path / "dup.mmap", change)
    code, stdout, err = run_cli("memmapped", "--check", bad)
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert "dup.mmap" in err and "duplicate region name" in err
    assert "PROBLEM: duplicate region name" in stdout and "OK:" not in stdout
