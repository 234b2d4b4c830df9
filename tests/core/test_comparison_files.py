"""A comparison as a file: the names proposed for it, and what a file that is not one says
(issue 45.20)."""

import os

import pytest

from inspector.core.errors import InspectorError

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")


@pytest.mark.parametrize("name, said", [
    ("inception_jpeg.pb", "this is a TensorFlow model (a GraphDef), not a saved comparison"),
    ("digits_float.tflite", "this is a TensorFlow Lite model, not a saved comparison"),
])
def test_a_model_opened_as_a_comparison_is_named_a_model(name, said):
    from inspector.core.app.comparison_files import read_document

    with pytest.raises(InspectorError) as err:
        read_document(os.path.join(DATA, name))
    text = err.value.one_line()
    assert said in text and "File › Open" in text and "codec" not in text


def test_json_that_is_not_a_comparison_says_so(tmp_path):
    from inspector.core.app.comparison_files import read_document

    path = tmp_path / "model.json"
    path.write_text('{"modelTopology": {}}')
    with pytest.raises(InspectorError, match="not a comparison.*TensorFlow.js model"):
        read_document(str(path))


def test_save_proposes_a_vs_b_beside_model_a():
    from inspector.core.app.comparing import CompareSession
    from inspector.core.compare.diff import diff_graphs
    from inspector.core.loaders import load

    g = load(os.path.join(DATA, "inception_jpeg.pb")).graph
    d = diff_graphs(g, g, "inception_jpeg.pb", "after fold batch norms")
    session = CompareSession(d, g, g, ("/models/inception_jpeg.pb", ""))
    assert session.file_name("html") == "/models/inception_jpeg_vs_after_fold_batch_norms.html"
    session.paths = ("", "")
    assert session.file_name("json") == "inception_jpeg_vs_after_fold_batch_norms.json"


def test_a_kept_copy_never_goes_over_a_file_written_under_its_name_meanwhile(tmp_path,
                                                                           monkeypatch):
    """Regression (note12's review): keeping a converted variant beside a saved comparison
    checked that the name was free, then renamed onto it; a file another program wrote
    there in between was replaced silently. That file stays; the copy takes the next name."""
    from inspector.core.app.comparison_files import _kept_beside
    from inspector.core.formats import writer

    source = tmp_path / "tmp" / "demo_int8.tflite"
    source.parent.mkdir()
    source.write_bytes(b"converted")
    first = tmp_path / "cmp_demo_int8.tflite"
    real_fsync = os.fsync

    def another_program_writes(fd):
        if not first.exists():
            first.write_bytes(b"someone else's")
        real_fsync(fd)

    monkeypatch.setattr(writer.os, "fsync", another_program_writes)
    kept = _kept_beside(str(source), str(tmp_path / "cmp.json"))
    assert kept == str(tmp_path / "cmp_demo_int8_2.tflite")
    assert first.read_bytes() == b"someone else's"
    assert (tmp_path / "cmp_demo_int8_2.tflite").read_bytes() == b"converted"
    assert not [f for f in os.listdir(tmp_path) if ".inspector-" in f]
    assert _kept_beside(str(source), str(tmp_path / "cmp.json")) == kept    # same bytes: it
