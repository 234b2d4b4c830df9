"""The diff's figures and verdicts, without TensorFlow or Qt: the bytes row counts files, and
unrelated models are called so with no guessed pair (committed models, the window's path
through core/app/comparing.compare)."""

import json
import os

from inspector.core.app.comparing import compare
from inspector.core.compare.document import dumps, from_dict, text_report, to_dict
from inspector.core.compare.html_report import diff_html
from inspector.core.loaders import load

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "data")
ROOT = os.path.dirname(os.path.dirname(HERE))
DEMO = os.path.join(ROOT, "inspector/core/app/demo_model/demo_digits.pb")
INCEPTION = os.path.join(DATA, "inception_jpeg.pb")
FLOAT, INT8 = (os.path.join(DATA, f"digits_{k}.tflite") for k in ("float", "int8"))


def test_file_bytes_are_the_sizes_of_the_files_a_tflite_side_included():
    """Regression: a .tflite side's "bytes" were its GraphDef view's serialized size (14,385
    for a 14,488-byte file) while a GraphDef side's were its file's."""
    for a, b in ((FLOAT, INT8), (DEMO, INT8), (INT8, DEMO)):
        s = compare(load(a).graph, load(b).graph, "A", "B", paths=(a, b))
        assert s.diff.totals["file bytes"] == [os.path.getsize(a), os.path.getsize(b)]
        assert "bytes" not in s.diff.totals
        assert f"file bytes {os.path.getsize(a):,} -> {os.path.getsize(b):,}" in \
            s.totals_text()
    # a text GraphDef's file is its text; a .meta holds more than the graph: its .pb size
    text, binary = (os.path.join(DATA, f"v1_training.{k}") for k in ("pbtxt", "pb"))
    s = compare(load(text).graph, load(binary).graph, "A", "B", paths=(text, binary))
    assert s.diff.totals["file bytes"] == [os.path.getsize(text), os.path.getsize(binary)]
    meta = os.path.join(DATA, "v1_training.meta")
    ga = load(meta).graph
    s = compare(ga, load(binary).graph, "A", "B", paths=(meta, binary))
    assert s.diff.totals["file bytes"][0] == len(ga.graph_def.SerializeToString()) != \
        os.path.getsize(meta)
    # a .tflite whose file is not known is not given another number
    s = compare(load(DEMO).graph, load(INT8).graph, "A", "B")
    assert s.diff.totals["file bytes"] == [os.path.getsize(DEMO), "unknown"]


def test_unrelated_models_get_a_verdict_and_no_guessed_pair():
    """Regression: the text warned ("these look like different models") and then listed
    guessed pairs (the digits' bias 'renamed' to Inception's softmax biases); the JSON had
    no verdict."""
    ga, gb = load(DEMO).graph, load(INCEPTION).graph
    s = compare(ga, gb, "demo", "inception")
    d = s.diff
    assert d.unrelated and d.verdict == "unrelated" and not d.equal
    m = d.matching
    assert not m.scopes and not m.merged and not m.split
    assert all(a == b for a, b in m.b_of.items())           # exact names only
    assert not any(c.kind == "renamed" for e in d.entries for c in e.changes)
    data = json.loads(dumps(d))
    assert data["unrelated"] is True and data["verdict"] == "unrelated"
    assert from_dict(data).unrelated and to_dict(from_dict(data)) == data
    text = text_report(d)
    assert text.splitlines()[2].startswith("Unrelated:") and "guess" not in \
        text.replace("nothing is guessed", "")
    assert "unrelated" in s.status() and "Unrelated (different models" in diff_html(d)
    # related models are not: a graph and itself, and a graph and its renamed copy
    for other in (load(DEMO).graph, load(INT8).graph):
        d = compare(ga, other, "a", "b").diff
        assert not d.unrelated and json.loads(dumps(d))["unrelated"] is False
    assert compare(ga, load(DEMO).graph, "a", "b").diff.verdict == "equal"
