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


_ENTRY = {"status": "changed", "a": "x", "b": "x", "op_a": "Const", "op_b": "Const",
          "rule": "name", "confidence": 1.0,
          "changes": [{"kind": "values", "text": "values changed",
                       "figures": {"changed_share": 0.5, "max_abs_diff": 1.0}}]}


def _with(**entry) -> dict:
    return {"format": "graphdef-inspector diff", "version": 1, "a": "a", "b": "b",
            "matching": {"pairs": [["x", "x", "name"]]}, "entries": [dict(_ENTRY, **entry)],
            "models": {"A": "a.pb", "B": "b.pb"}}


@pytest.mark.parametrize("text, said", [
    # RecursionError escaped read_document (the window's slot raised)
    ("[" * 100000 + "]" * 100000, "nested too deeply"),
    # OverflowError escaped from_dict
    ('{"format": "graphdef-inspector diff", "unchanged": 1e400, "entries": [], '
     '"matching": {"pairs": []}, "a": "a", "b": "b"}', "OverflowError"),
    # these passed, then failed far away: `e.a in graph` (unhashable), describe's join,
    # the session's figures["changed_share"] * elements
    (_with(a=["x"]), "entry 0: a name, op, status or rule that is not a string"),
    (_with(status="bogus"), "entry 0: unknown status 'bogus'"),
    (_with(changes=[{"kind": "values", "text": 4}]), "entry 0: a change whose kind or text"),
    (_with(changes=[{"kind": "values", "text": "t", "figures": [1]}]), "not a map of numbers"),
    (_with(changes=[{"kind": "values", "text": "t", "figures": {"changed_share": None}}]),
     "not a map of numbers"),
    (_with(changes=[{"kind": "values", "text": "t", "figures": {"cosine": 1.0}}]),
     "not a map of numbers"),
    (_with(changes=["values"]), "a part is malformed"),
    (dict(_with(), interface=[{"kind": "input", "text": 5}]), "interface: a change whose"),
    # hostile15: these passed, then failed far away: Save report's dialog said Python's words
    # ("cannot unpack non-iterable int object", "Unknown format code '%' for object of type
    # 'str'"), reopen said "could not compare: list index out of range" (a group none of
    # whose members is an entry) or "int too large to convert to float" (a 400-digit figure)
    (dict(_with(), totals={"nodes": 5}), "'totals' is not a map of names to two figures"),
    (dict(_with(), totals={"nodes": [1, 2, 3]}), "'totals' is not a map of names"),
    (dict(_with(), totals={"nodes": [10 ** 400, 1.5]}), "'totals' is not a map of names"),
    (dict(_with(), op_histogram={"Const": 5}), "'op_histogram' is not a map of ops"),
    (dict(_with(), op_histogram={"Const": ["a", "b"]}), "'op_histogram' is not a map of ops"),
    (dict(_with(), quality={"shares": [1]}), "'quality' is not the matching's figures"),
    (dict(_with(), quality={"matched": "all"}), "'quality' is not the matching's figures"),
    (_with(changes=[{"kind": "values", "text": "t", "figures": {"changed_share": 10 ** 400}}]),
     "not a map of numbers"),
    (dict(_with(), matching={"pairs": [], "disagreeing": [[1, 2, 3]]}),
     "'disagreeing': an item that is not 2 names"),
    # JSON all the same: "this is not JSON" was wrong
    ('{"format": "graphdef-inspector diff", "unchanged": ' + "9" * 5000 + "}",
     "a JSON file with a number of over 4,300 digits"),
])
def test_a_malformed_comparison_is_refused_in_one_line_naming_the_file(tmp_path, text, said):
    """Hostile-input run (hostile2): every malformed part of a saved comparison is an
    InspectorError naming the file, before any model is opened; none passes to fail later in
    the window."""
    import json

    from inspector.core.app.comparison_files import read_document

    for name in ("a.pb", "b.pb"):
        (tmp_path / name).write_bytes(b"")
    path = tmp_path / "cmp.json"
    path.write_text(text if isinstance(text, str) else json.dumps(text))
    with pytest.raises(InspectorError) as err:
        read_document(str(path))
    line = err.value.one_line()
    assert said in line and str(path) in line, line


def test_a_comparison_saved_by_an_editor_with_a_bom_reads(tmp_path):
    import json

    from inspector.core.app.comparison_files import read_document

    for name in ("a.pb", "b.pb"):
        (tmp_path / name).write_bytes(b"")
    path = tmp_path / "cmp.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(_with()).encode())
    d, a, b, outside = read_document(str(path))
    assert d.entries[0].changes[0].figures["changed_share"] == 0.5 and not outside


def _run_both() -> dict:
    """A saved Run both result, as Divergence.as_dict writes it."""
    from inspector.core.compare.numeric import Divergence

    metric = {"mse": 0.5, "snr_db": 12.5, "cosine": 0.99, "peak_rel_error": 0.02,
              "max_abs_error": 0.1}
    run = Divergence({"x": dict(metric), "w": dict(metric, snr_db=float("inf"))}, "x", 1e-3,
                     [("y", "a loop")], [("w", "w"), ("x", "x")], ("TensorFlow", "LiteRT"),
                     {"x": "CONV_2D"}, ["x: uniform"], {"w"})
    return run.as_dict()


def test_a_saved_run_both_is_read_back_with_its_old_key_too(tmp_path):
    """Review of bd81511: Save comparison writes Run both's result ("numeric") and Open
    comparison dropped it, the new files and the old alike (no reader: the rename of
    max_rel_error to peak_rel_error lost nothing only because nothing was read). It is read
    back (an old file's max_rel_error as the peak-relative error) and put on the reopened
    session; a malformed one is left out and the comparison still opens."""
    import json

    from inspector.core.app.comparison_files import read_document, reopen
    from inspector.core.model import protos
    from inspector.core.model.graph import Graph

    for name in ("a.pb", "b.pb"):
        (tmp_path / name).write_bytes(b"")
    saved = _run_both()
    old = json.loads(json.dumps(saved).replace("peak_rel_error", "max_rel_error"))
    for numeric in (saved, old):
        path = tmp_path / "cmp.json"
        path.write_text(json.dumps(dict(_with(), numeric=numeric)))
        d, *_ = read_document(str(path))
        run = d.numeric
        assert run.as_dict() == saved, run.as_dict()
        assert run.per_node["x"]["peak_rel_error"] == 0.02 and run.constant == {"w"}
        assert "first node past peak-relative error 0.001: x (SNR 12.5 dB)" in run.headline()
    gd = protos.GraphDef()
    gd.node.add(name="x", op="Relu")
    session, note = reopen(d, Graph(gd), Graph(gd), ("a.pb", "b.pb"))
    assert not note and session.numeric is d.numeric
    for bad in ({"per_node": {"x": {"snr_db": "loud"}}}, {"per_node": [1]}, {"per_node": {}}
                | {"skipped": [[1, 2, 3]]}, "run", {"per_node": {}, "threshold": 10 ** 400}):
        path.write_text(json.dumps(dict(_with(), numeric=bad)))
        d, *_ = read_document(str(path))
        assert d.numeric is None and d.entries, bad


def test_a_group_none_of_whose_members_is_an_entry_is_left_out(tmp_path):
    """hostile15: a saved group whose members are all past the entries (10**30) kept no
    member, and the reopened session's change list raised IndexError (the window said
    'could not compare: list index out of range'). Such a group is left out."""
    import json

    from inspector.core.app.comparison_files import read_document

    for name in ("a.pb", "b.pb"):
        (tmp_path / name).write_bytes(b"")
    path = tmp_path / "cmp.json"
    path.write_text(json.dumps(dict(_with(), groups=[
        {"title": "gone", "members": [10 ** 30], "blocks": 1},
        {"title": "kept", "members": [0, 7], "blocks": 1}])))
    d = read_document(str(path))[0]
    assert [(g.title, g.members) for g in d.groups] == [("kept", [0])]


def test_a_malformed_saved_run_both_is_said_when_the_comparison_opens(tmp_path):
    """hostile15: a malformed saved Run both result was left out in silence (the comparison
    opened as if none had been saved); a session's bad part is said. The reopened
    comparison's note says it, naming what is wrong."""
    import json

    from inspector.core.app.comparison_files import read_document, reopen
    from inspector.core.model import protos
    from inspector.core.model.graph import Graph

    for name in ("a.pb", "b.pb"):
        (tmp_path / name).write_bytes(b"")
    gd = protos.GraphDef()
    gd.node.add(name="x", op="Relu")
    path = tmp_path / "cmp.json"
    for bad, said in (({"per_node": {"x": {"snr_db": "loud", "b": "x"}}},
                       "the saved Run both result is malformed (ValueError: could not convert "
                       "string to float: 'loud'): left out"),
                      ("run", "the saved Run both result is not an object: left out")):
        path.write_text(json.dumps(dict(_with(), numeric=bad)))
        d, *_ = read_document(str(path))
        session, note = reopen(d, Graph(gd), Graph(gd), ("a.pb", "b.pb"))
        assert session.numeric is None and note == said, note
    path.write_text(json.dumps(_with()))                  # none saved: nothing to say
    d, *_ = read_document(str(path))
    assert reopen(d, Graph(gd), Graph(gd), ("a.pb", "b.pb"))[1] == ""


def test_a_model_named_through_a_symlink_loop_is_not_called_gone(tmp_path):
    """hostile15b: a comparison whose model B is a symbolic link loop said the model 'is
    gone'; it may be there: its path cannot be resolved."""
    import json

    from inspector.core.app.comparison_files import read_document

    (tmp_path / "a.pb").write_bytes(b"")
    os.symlink("loop2", tmp_path / "b.pb")
    os.symlink("b.pb", tmp_path / "loop2")
    path = tmp_path / "cmp.json"
    path.write_text(json.dumps(_with()))
    with pytest.raises(InspectorError) as err:
        read_document(str(path))
    assert err.value.one_line() == (f"{path}: model B of the comparison cannot be resolved: "
                                    f"its path is a symbolic link loop: {tmp_path / 'b.pb'}")
    os.remove(tmp_path / "b.pb")
    with pytest.raises(InspectorError, match="model B of the comparison is gone"):
        read_document(str(path))


def test_a_big_comparison_is_never_held_whole_in_bytes_or_in_one_str(tmp_path):
    """note15: the GUI waited 100-200 ms while a 200 MB comparison was read: the file's
    bytes were decoded into one str in one C call holding the GIL (and decoding in pieces
    then joining them was as long). It is decoded a piece at a time as the parse comes to
    it: the most memory taken while reading a 24 MB file stays a few pieces (the old code
    held the bytes and the str: 48 MB). Fails on the old code."""
    import json
    import tracemalloc

    from inspector.core.app.comparison_files import read_document
    from inspector.core.runtime import json_pieces

    for name in ("a.pb", "b.pb"):
        (tmp_path / name).write_bytes(b"")
    path = tmp_path / "cmp.json"
    text = json.dumps(_with(), indent=1)
    path.write_text(text[:-1] + " " * 24_000_000 + "}")     # (indented in an editor)
    tracemalloc.start()
    try:
        d, *_ = read_document(str(path))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert d.entries[0].changes[0].figures["changed_share"] == 0.5
    assert peak < 6 * json_pieces.CHUNK, peak


@pytest.mark.parametrize("text, said", [
    # hostile15's 200 MB file, smaller: a list of zeros at depth 4
    ('{"format": "f", "entries": [[[[' + "0," * 2_000_000 + "0]]]]}",
     "a JSON file with a list of over 10,000 items: no comparison holds one"),
    ('{"format": "graphdef-inspector diff", "entries": [' + "0," * 2_000_000 + "0]}",
     "a JSON file with a list of over 10,000 items"),
    ('{"format": "f", "matching": {"merged": {' +
     ",".join(f'"n{k}": "m"' for k in range(300_000)) + "}}}",
     "a JSON file with an object of over 10,000 items"),
])
def test_a_list_longer_than_any_comparison_s_is_refused_as_the_walk_reaches_it(
        tmp_path, monkeypatch, text, said):
    """perf17cmp: hostile15's 200 MB file (a list of 100M zeros at depth 4) was parsed whole,
    to be refused after: an 800 MB list buffer, whose free was one ~130 ms call on the slow
    class while the window waited for the GIL. A list or object of more items than any
    comparison holds (MOST_ITEMS: a 1M-node pair's entries are at most 2M) is refused as
    the walk reaches it: the most memory taken while reading stays a few pieces (the old
    code built the 2M-item list, 16 MB, and said 'not a graphdef-inspector diff file').
    Fails on the old code."""
    import tracemalloc

    from inspector.core.app import comparison_files
    from inspector.core.runtime import json_pieces

    assert comparison_files.MOST_ITEMS >= 2 * 1_000_000
    monkeypatch.setattr(comparison_files, "MOST_ITEMS", 10_000)
    path = tmp_path / "cmp.json"
    path.write_text(text)
    tracemalloc.start()
    try:
        with pytest.raises(InspectorError) as err:
            comparison_files.read_document(str(path))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert said in err.value.one_line() and str(path) in err.value.one_line()
    assert peak < 6 * json_pieces.CHUNK, peak


@pytest.mark.parametrize("how", ["refused", "cancelled"])
def test_what_a_failed_read_parsed_is_freed_by_the_reader_not_by_who_drops_the_error(
        tmp_path, how):
    """perf17cmp: a comparison file refused late in its parse (bad JSON at its end, a list
    too long) or a read cancelled (superseded, the app's exit) raised an error whose
    traceback, through its context, held the parse's frames and so all it had built: the
    window's thread, dropping the error, freed it in one call (a 200 MB file's: 330 ms, 1.4 s
    on the slow class). The reader frees it in short calls before the error leaves it:
    holding the error holds almost nothing. Fails on the old code (~30 MB held)."""
    import tracemalloc

    from inspector.core.app.comparison_files import read_document
    from inspector.core.errors import Cancelled
    from inspector.core.runtime.job import Job

    pairs = ",".join(f'["node_{k}", "node_{k}", "name"]' for k in range(200_000))
    path = tmp_path / "cmp.json"
    path.write_text('{"format": "graphdef-inspector diff", "matching": {"pairs": [' + pairs +
                    ("]}, oops}" if how == "refused" else "]}}"))

    class Late(Job):       # cancelled once the walk is far into the file
        calls = 0

        def check(self):
            self.calls += 1
            if self.calls > 1000:
                self.cancel()
            super().check()

    tracemalloc.start()
    try:
        with pytest.raises(InspectorError if how == "refused" else Cancelled) as err:
            read_document(str(path), Job() if how == "refused" else Late())
        held = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert err.value is not None and held < 2 ** 20, held


def test_a_comparisons_long_words_are_read_back_clipped_and_a_nul_model_path_is_said(tmp_path):
    """hostile17: a saved comparison's 2 MB label, group title, note, interface change, entry
    op and change words or totals name were shown whole: the comparison window's thread was
    held 4-8 s by each (48 s by a totals name, 107 s by a 20 MB label) while Qt laid the text
    out. They are clipped when read; the nodes' names are not. A model path with a NUL byte
    escaped as ValueError ('Could not compare: embedded null byte', no file named)."""
    import json

    from inspector.core.app.comparison_files import read_document

    for name in ("a.pb", "b.pb"):
        (tmp_path / name).write_bytes(b"")
    big = "W" * 2_000_000
    doc = dict(_with(op_b=big, rule=big, changes=[{"kind": big, "text": big}]), a=big,
               b=big, groups=[{"title": big, "members": [0], "blocks": 1}],
               notes=[{"kind": big, "text": big, "side": big, "nodes": ["x"]}],
               interface=[{"kind": big, "text": big}], totals={big: [1, big]})
    path = tmp_path / "cmp.json"
    path.write_text(json.dumps(doc))
    d = read_document(str(path))[0]
    e, n = d.entries[0], d.notes[0]
    words = [d.a_label, d.b_label, d.groups[0].title, n.kind, n.text, n.side,
             d.interface[0].kind, d.interface[0].text, e.op_b, e.rule, e.changes[0].kind,
             e.changes[0].text, *d.totals, *next(iter(d.totals.values()))[1:]]
    assert all(len(w) <= 4000 and "more characters)" in w for w in words), \
        [len(w) for w in words]
    assert d.matching.b_of == {"x": "x"}          # names are kept as they are
    path.write_text(json.dumps(dict(_with(), models={"A": "a\u0000.pb", "B": "b.pb"})))
    with pytest.raises(InspectorError) as err:
        read_document(str(path))
    assert err.value.one_line() == f"{path}: model A of the comparison is named with a NUL " \
        "byte, which no file name holds"


@pytest.mark.parametrize("where", ["label", "key", "unknown part"])
def test_a_string_longer_than_any_comparison_s_is_refused_before_it_is_whole(
        tmp_path, monkeypatch, where):
    """hostile17: a 200 MB string in a comparison file (its label, a key, a part this version
    does not know) was grown to one str and decoded in single calls (the longest ~150 ms
    holding the GIL at normal speed; the parse then took it whole). A string of more
    characters than any comparison holds (LONGEST_TEXT) is refused as the walk reaches it,
    the memory taken a few pieces. Fails on the old code (read whole, then opened)."""
    import json
    import tracemalloc

    from inspector.core.app import comparison_files
    from inspector.core.runtime import json_pieces

    assert comparison_files.LONGEST_TEXT >= 1 << 20
    monkeypatch.setattr(comparison_files, "LONGEST_TEXT", 100_000)
    for name in ("a.pb", "b.pb"):
        (tmp_path / name).write_bytes(b"")
    big = "q" * 3_000_000
    doc = _with()
    if where == "label":
        doc["a"] = big
    elif where == "key":
        doc["totals"] = {big: [1, 2]}
    else:
        doc["padding"] = big
    path = tmp_path / "cmp.json"
    path.write_text(json.dumps(doc))
    tracemalloc.start()
    try:
        with pytest.raises(InspectorError) as err:
            comparison_files.read_document(str(path))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert err.value.one_line() == f"{path}: a JSON file with a string or number of over " \
        "100,000 characters: no comparison holds one"
    assert peak < 6 * json_pieces.CHUNK, peak
