"""`diff A B` and `diff B A` of a graph and what our transforms made of it say the same thing
from each side (the .tflite pairs are in tests/core/test_diff_either_way.py). Before, the
folded demo model as A read "9 changed, 24 added, 4 merged" against "24 merged" the other
way, and the quantized one "48 merged" against "12 changed, 36 split"."""

from __future__ import annotations

import pytest

from inspector.core.app.diffing import diff_models
from inspector.core.loaders import load
from inspector.core.model.graph import Graph
from inspector.core.transforms.pipeline import run_pipeline
from tests.conftest import DATA, DEMO

MIRROR = {"added": "removed", "removed": "added", "merged": "split", "split": "merged"}
FOLD = "strip_unused_nodes remove_nodes(op=Identity) fold_constants(ignore_errors=true) " \
       "fold_batch_norms fold_old_batch_norms"
CASES = {
    "demo folded": (DEMO, ["pixels"], ["output"], FOLD),
    "demo quantized": (DEMO, ["pixels"], ["output"], "quantize_weights(minimum_size=10)"),
    "inception folded": (f"{DATA}/inception_jpeg.pb", ["Mul"], ["softmax"], FOLD),
    "inception quantized": (f"{DATA}/inception_jpeg.pb", ["Mul"], ["softmax"],
                            "quantize_weights"),
}


def _counts(d, mirror=False) -> dict:
    return {MIRROR.get(k, k) if mirror else k: v for k, v in d.counts().items() if v}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_transformed_graph_as_a_reads_as_the_mirror_of_it_as_b(case):
    path, ins, outs, pipeline = CASES[case]
    ga = load(path).graph
    gb = Graph(run_pipeline(ga.graph_def, pipeline, ins, outs)[-1].graph_def)
    forward, backward = diff_models(ga, gb, totals=False), diff_models(gb, ga, totals=False)
    assert _counts(backward, mirror=True) == _counts(forward)
    assert backward.matching.b_of == forward.matching.a_of
    assert backward.matching.merged == forward.matching.split
    if case == "demo folded":
        assert _counts(backward) == {"split": 24, "unchanged": 35}
    elif "folded" in case:
        assert _counts(backward)["split"] > 0
    else:
        assert _counts(backward)["merged"] > 0 and _counts(backward)["changed"] > 0
