"""`diff A B` and `diff B A` of a GraphDef and its .tflite say the same thing from each side:
the converter's fusions are merges one way and splits the other, the same nodes are paired,
and the interface rows mirror each other. Before, the .tflite as A read as 47 nodes added
(the batch norms, Relus and reads the converter fused) and 3 removed."""

from __future__ import annotations

import os
import re

import pytest

from inspector.core.app.diffing import diff_models
from inspector.core.loaders import load
from tests.conftest import DEMO

DATA = os.path.join(os.path.dirname(__file__), "data")
MIRROR = {"added": "removed", "removed": "added", "merged": "split", "split": "merged",
          "changed": "changed", "renamed": "renamed", "unchanged": "unchanged"}


def _both(lite: str):
    pb, tfl = load(DEMO).graph, load(os.path.join(DATA, lite)).graph
    return diff_models(pb, tfl, totals=False), diff_models(tfl, pb, totals=False)


def _mirror_text(text: str) -> str:
    """An interface row of B against A as A against B would say it ("x -> y" turned round)."""
    found = re.fullmatch(r"(.*: \w+ )(.*) -> (.*)", text)
    assert found, text
    return f"{found[1]}{found[3]} -> {found[2]}"


@pytest.mark.parametrize("lite", ["digits_float.tflite", "digits_int8.tflite"])
def test_a_tflite_as_a_reads_as_the_mirror_of_it_as_b(lite):
    forward, backward = _both(lite)
    counts = {k: v for k, v in forward.counts().items() if v}
    assert counts["merged"] == 47 and "added" not in counts            # the converter fuses
    assert {MIRROR[k]: v for k, v in backward.counts().items() if v} == counts
    assert backward.unchanged == forward.unchanged
    fm, bm = forward.matching, backward.matching
    assert bm.b_of == fm.a_of and bm.a_of == fm.b_of
    assert bm.merged == fm.split and bm.split == fm.merged
    assert {bm.b_of[a]: r for a, r in bm.rule.items()} == fm.rule
    assert sorted(e.b for e in backward.entries if e.status == "added") == \
        sorted(e.a for e in forward.entries if e.status == "removed")
    rows = sorted(c.text for c in forward.interface)
    assert sorted(_mirror_text(c.text) for c in backward.interface) == rows


def test_weights_in_the_tflite_layout_are_compared_in_it_from_either_side():
    forward, backward = _both("digits_float.tflite")

    def values(d):
        return sorted(c.text for e in d.entries for c in e.changes if c.kind == "values")
    there, back = values(forward), values(backward)
    assert len(there) == 2 and all("(in B's OHWI layout)" in t for t in there)
    assert [t.replace("(in A's", "(in B's") for t in back] == there
