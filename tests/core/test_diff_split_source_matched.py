"""A node of A that nodes of B were split out of, and nothing else, counts as matched in the
matching's quality (the diff does not call it removed): digits_float.tflite as A against its
GraphDef, whose Reshape shape computation the converter folded into 'arith.constant'. Before,
the diff listed every node of A as explained but said '92.9% of A's nodes matched'."""

from __future__ import annotations

import json
import os

from tests.conftest import DEMO, run_cli

DATA = os.path.join(os.path.dirname(__file__), "data")


def test_a_node_only_split_out_of_is_matched():
    code, out, err = run_cli("diff", os.path.join(DATA, "digits_float.tflite"), DEMO,
                             "--no-flops", "--json")
    assert code == 1, err
    data = json.loads(out)
    assert not data["counts"].get("removed")
    quality = data["quality"]
    assert quality["matched"] == 1.0, quality
    assert abs(sum(quality["shares"].values()) - 1.0) < 1e-9, quality
    assert quality["shares"]["split"] == 1 / 14
