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
    # a text GraphDef's file is its text; a .meta's bytes are it and its checkpoint's files
    text, binary = (os.path.join(DATA, f"v1_training.{k}") for k in ("pbtxt", "pb"))
    s = compare(load(text).graph, load(binary).graph, "A", "B", paths=(text, binary))
    assert s.diff.totals["file bytes"] == [os.path.getsize(text), os.path.getsize(binary)]
    meta = os.path.join(DATA, "v1_training.meta")
    s = compare(load(meta).graph, load(binary).graph, "A", "B", paths=(meta, binary))
    assert s.diff.totals["file bytes"][0] == sum(os.path.getsize(os.path.join(DATA, f)) for f in (
        "v1_training.meta", "v1_training.ckpt.index", "v1_training.ckpt.data-00000-of-00001"))
    # a .tflite whose file is not known is not given another number
    s = compare(load(DEMO).graph, load(INT8).graph, "A", "B")
    assert s.diff.totals["file bytes"] == [os.path.getsize(DEMO), "unknown"]


def test_file_bytes_are_every_file_of_the_model_on_disk_in_every_format(tmp_path):
    """Regression: a TF.js model's "file bytes" were its GraphDef's size, so base against
    uint8 read 12,215,788 -> 12,215,788 for files of 12.4 and 3.6 MB (the weights are
    dequantized when read); a SavedModel's, a .meta's and a Keras file's were their GraphDef's
    too. Now the bytes a user sees on disk: model.json and its shards, the SavedModel's
    folder, the .meta and its checkpoint, the Keras file."""
    from inspector.core.compare.diff import file_size
    from tests.core.test_tfjs import write_tfjs

    base, small = tmp_path / "base", tmp_path / "uint8"
    base.mkdir()
    small.mkdir()
    a, b = write_tfjs(str(base)), write_tfjs(str(small), quantize="uint8")
    on_disk = [sum(os.path.getsize(os.path.join(os.path.dirname(p), f))
                   for f in ("model.json", "group1-shard1of1.bin")) for p in (a, b)]
    s = compare(load(a).graph, load(b).graph, "A", "B", paths=(a, b))
    assert s.diff.totals["file bytes"] == on_disk and on_disk[0] != on_disk[1]
    # and "gzip bytes" compresses those same files (it was the GraphDef's gzip: 285 -> 293,
    # the uint8 shard's 24 bytes against 72 nowhere in it)
    from inspector.core.analysis.metrics import gzip_size
    from inspector.core.app.diffing import diff_models

    zipped = [gzip_size(b"".join(open(os.path.join(os.path.dirname(p), f), "rb").read()
                                 for f in ("model.json", "group1-shard1of1.bin")))
              for p in (a, b)]
    totals = diff_models(load(a).graph, load(b).graph, paths=(a, b)).totals
    assert totals["gzip bytes"] == zipped and totals["file bytes"] == on_disk
    assert f"file bytes {on_disk[0]:,} -> {on_disk[1]:,}" in s.totals_text()
    assert [file_size(str(base)), file_size(str(small))] == on_disk       # the folders
    (base / "notes.txt").write_text("not the model's")                     # not counted
    assert file_size(a) == file_size(str(base)) == on_disk[0]
    saved = os.path.join(DATA, "two_signatures")
    files = [os.path.join(top, f) for top, _, names in os.walk(saved) for f in names]
    assert len(files) > 1 and file_size(saved) == sum(map(os.path.getsize, files)) == \
        file_size(os.path.join(saved, "saved_model.pb"))
    for keras in ("tiny.h5", "tiny.keras"):
        assert file_size(os.path.join(DATA, keras)) == os.path.getsize(os.path.join(DATA, keras))
    assert file_size("") == file_size(str(tmp_path / "none.pb")) == 0


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
