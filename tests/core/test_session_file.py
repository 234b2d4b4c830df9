"""The session file beside a model (Qt-free): a part that fails its check is dropped and said,
every other part is restored, and the file is kept aside before the first save."""

from __future__ import annotations

import json
import os

import pytest

from inspector.core.app.session_file import SessionError, parse_session, session_path
from inspector.core.app.tour import Stop
from inspector.core.app.workbench import Workbench
from inspector.core.overlays import registry


def _model(tmp_path):
    model = tmp_path / "m.pb"
    model.write_bytes(b"")
    return str(model)


def test_a_stop_taken_with_any_overlay_restores_with_the_rest(tmp_path):
    """The bug: a stop taken while the TFLite overlay was on refused the whole file."""
    model = _model(tmp_path)
    bench = Workbench()
    bench.set_marks(["x"], ["out"])
    bench.add_step("strip_unused_nodes")
    bench.tour.replace([Stop(title=m, overlay=m) for m in registry.tour_modes()])
    bench.save(model)
    other = Workbench()
    other.restore(model)
    assert other.warnings == []
    assert other.inputs == ["x"] and other.outputs == ["out"]
    assert [s.name for s in other.steps] == ["strip_unused_nodes"]
    assert [s.overlay for s in other.tour.stops] == list(registry.tour_modes())
    assert "compat" in registry.tour_modes() and "activations" in registry.tour_modes()


def test_every_overlay_the_panel_offers_is_registered_once():
    modes = registry.modes()
    assert len(set(modes)) == len(modes)
    assert {"none", "timings", "ranges", "compat", "activations"} <= set(modes)
    for mode in modes:
        assert registry.get(mode).label


def test_one_bad_part_drops_only_itself(tmp_path):
    model = _model(tmp_path)
    text = json.dumps({
        "version": 1, "inputs": ["x"], "outputs": "not a list",
        "input_shapes": {"x": [1, 8]},
        "pipeline": [{"name": "strip_unused_nodes"}, {"params": {}},
                     {"name": "remove_nodes", "params": {"op": ["Identity"]}}],
        "tour": [{"title": "a"}, {"overlay": "python"}, {"kind": "launch"},
                 {"title": "d", "overlay": "compat"}]})
    path = session_path(model)
    with open(path, "w") as fh:
        fh.write(text)
    bench = Workbench()
    assert bench.restore(model) == path
    assert bench.inputs == ["x"] and bench.outputs == []
    assert bench.input_shapes == {"x": (1, 8)}
    assert [s.name for s in bench.steps] == ["strip_unused_nodes", "remove_nodes"]
    assert [s.title for s in bench.tour.stops] == ["a", "d"]
    said = "\n".join(bench.warnings)
    assert "'outputs' must be a list of names: 'outputs' dropped" in said
    assert "pipeline step 2 must have a name: step dropped" in said
    assert "tour stop 2: unknown overlay 'python'" in said
    assert "tour stop 3: unknown kind 'launch'" in said
    assert len(bench.warnings) == 4
    # opening wrote nothing; the first save keeps the partly-read file aside, never over it
    assert open(path).read() == text
    bench.set_marks(["x"], ["y"])
    bench.save(model)
    kept = [f for f in os.listdir(tmp_path) if ".partly-read-" in f]
    assert len(kept) == 1 and open(tmp_path / kept[0]).read() == text
    assert json.loads(open(path).read())["outputs"] == ["y"]


def test_a_newer_file_keeps_what_this_version_understands():
    session = parse_session(json.dumps({"version": 7, "inputs": ["x"], "future": {"a": 1},
                                        "tour": [{"title": "t", "new_field": 3}]}))
    assert session["inputs"] == ["x"] and [s.title for s in session["tour"]] == ["t"]
    assert any("newer version" in d for d in session["dropped"])


def test_a_version_written_as_a_whole_float_is_that_version():
    """"version": 1.0 (a writer whose numbers are all floats) is a session of version 1: it
    was refused whole, its marks and sizes lost (hostile17). 1.5, NaN and inf are no
    version this app knows."""
    session = parse_session('{"version": 1.0, "inputs": ["x"]}')
    assert session["inputs"] == ["x"] and session["dropped"] == []
    newer = parse_session('{"version": 7e0, "inputs": ["x"]}')
    assert newer["inputs"] == ["x"] and any("newer version (7)" in d for d in newer["dropped"])
    for body in ('{"version": 1.5}', '{"version": NaN}', '{"version": Infinity}',
                 '{"version": 0.0}'):
        with pytest.raises(SessionError, match="unknown version"):
            parse_session(body)


def test_an_older_file_without_parts_restores_empty():
    session = parse_session(json.dumps({"version": 1}))
    assert session["inputs"] == [] and session["steps"] == [] and session["tour"] == []
    assert session["dropped"] == []


def test_the_test_run_keeps_sessions_out_of_the_testers_data_folder():
    """tests/conftest.py points XDG_DATA_HOME at the run's own folder before any test (and
    any app or CLI a test starts) could write the demo's session to the tester's."""
    import os
    import tempfile

    from inspector.core.app import session_file

    folder = session_file.data_session_path(os.path.join(
        os.path.dirname(session_file.__file__), "demo_model", "demo_digits.pb"))
    assert folder.startswith(tempfile.gettempdir())
    assert not folder.startswith(os.path.expanduser("~/.local/share"))


def test_the_scopes_left_open_are_a_part_of_their_own(tmp_path):
    model = str(tmp_path / "m.pb")
    bench = Workbench()
    bench.set_marks(["x"], ["y"])
    bench.expanded = ["a", "a/b"]
    bench.save(model)
    again = Workbench()
    again.restore(model)
    assert again.expanded == ["a", "a/b"] and again.outputs == ["y"]
    bad = parse_session(json.dumps({"version": 1, "outputs": ["y"], "expanded": [1, 2]}))
    assert bad["expanded"] == [] and bad["outputs"] == ["y"]
    assert any("'expanded' dropped" in d for d in bad["dropped"])
    assert parse_session(json.dumps({"version": 1}))["expanded"] == []


def test_a_number_too_long_for_python_drops_only_its_part(tmp_path):
    """Python refuses to read an integer of over 4,300 digits; such a number in one tour stop
    made the whole file 'not JSON' (every part lost). Only its stop goes now."""
    text = ('{"version": 1, "inputs": ["x"], "tour": [{"title": "a"}, {"title": "b", "rect": '
            '[0, 0, 10, ' + "9" * 5000 + ']}], "input_shapes": {"x": [1, ' + "7" * 4500 + ']}}')
    session = parse_session(text)
    assert session["inputs"] == ["x"]
    assert [s.title for s in session["tour"]] == ["a"]
    said = "\n".join(session["dropped"])
    assert "tour stop 2: 'rect' must be four finite numbers" in said
    assert "'input_shapes' of 'x' must be a list of sizes" in said


def test_a_path_with_a_nul_byte_holds_its_step_back_and_restores_the_rest(tmp_path):
    """A path parameter holding a NUL byte raised ValueError out of Workbench.restore (the
    session was lost); it is a path outside the folder now: its step stays disabled."""
    model = _model(tmp_path)
    with open(session_path(model), "w") as fh:
        json.dump({"version": 1, "inputs": ["x"], "pipeline": [
            {"name": "freeze_requantization_ranges",
             "params": {"min_max_log_file": ["ranges\u0000.log"]}}]}, fh)
    bench = Workbench()
    assert bench.restore(model) == session_path(model)
    assert bench.inputs == ["x"]
    assert [(s.name, s.enabled) for s in bench.steps] == [("freeze_requantization_ranges",
                                                           False)]
    assert any("outside the session file's folder" in w for w in bench.warnings)


def test_a_step_this_version_does_not_know_is_saved_as_the_file_had_it(tmp_path):
    """A newer version's steps are disabled here and not run, but an edit and a save wrote
    them back as disabled: the newer version then found its step switched off, without a
    word (found by the review of 4f7530f). Each keeps the file's own setting."""
    model = _model(tmp_path)
    with open(session_path(model), "w") as f:
        json.dump({"version": 1, "pipeline": [
            {"name": "remove_device", "params": {}, "enabled": True},
            {"name": "future_transform", "params": {}, "enabled": True},
            {"name": "future_off", "params": {}, "enabled": False}]}, f)
    bench = Workbench()
    bench.restore(model)
    assert [(s.name, s.enabled) for s in bench.steps] == [
        ("remove_device", True), ("future_transform", False), ("future_off", False)]
    assert len(bench.warnings) == 2 and "future_transform" in bench.warnings[0]
    bench.set_enabled(0, False)          # an edit, then undo and redo: still not run
    bench.undo()
    bench.redo()
    assert [s.enabled for s in bench.steps] == [False, False, False]
    path = bench.save(model)
    with open(path) as f:
        saved = json.load(f)["pipeline"]
    assert [(s["name"], s["enabled"]) for s in saved] == [
        ("remove_device", False), ("future_transform", True), ("future_off", False)]
    bench.set_enabled(1, False)          # the user's own choice is saved as made
    bench.save(model)
    with open(path) as f:
        assert [s["enabled"] for s in json.load(f)["pipeline"]] == [False, False, False]


def test_restored_input_sizes_that_contradict_the_model_or_are_absurd_are_dropped_alone(
        tmp_path, monkeypatch):
    """A session's input sizes were restored unchecked (note13's leftover): a size that
    contradicts the input's declared shape, or has a size under 1, or that no made-up input
    could take (past the feed budget), is dropped with one line naming it; every other part
    and size restores. (The Input sizes field refuses the same misfit in the same words.)"""
    from inspector.core.model import protos
    from inspector.core.model.graph import Graph
    from inspector.core.runtime import feed_budget

    gd = protos.GraphDef()
    for name, dims in (("image", [1, -1, -1, 3]), ("mask", [1, 4]), ("big", [-1, -1]),
                       ("free", None)):
        node = gd.node.add(name=name, op="Placeholder")
        node.attr["dtype"].type = 1
        if dims is not None:
            for d in dims:
                node.attr["shape"].shape.dim.add(size=d)
    model = _model(tmp_path)
    with open(session_path(model), "w") as fh:
        json.dump({"version": 1, "inputs": ["image", "mask"], "outputs": ["y"],
                   "input_shapes": {"image": [1, 32, 48, 3], "mask": [1, 5],
                                    "big": [100000, 100000], "free": [0, 3],
                                    "gone": [2, 2], "odd": "x"},
                   "pipeline": [{"name": "fold_constants"}]}, fh)
    monkeypatch.setattr(feed_budget, "feed_limit", lambda: (1 << 30, "a test's limit"))
    bench = Workbench()
    bench.restore(model, Graph(gd))
    assert bench.input_shapes == {"image": (1, 32, 48, 3), "gone": (2, 2)}
    assert bench.inputs == ["image", "mask"] and bench.outputs == ["y"]
    assert [s.name for s in bench.steps] == ["fold_constants"]
    assert sorted(bench.warnings) == sorted([
        "'input_shapes' of 'mask': mask=1,5 does not fit its declared shape [1,4]: dropped",
        "'input_shapes' of 'big': big=100000,100000 needs 37.3 GB, past the 1.0 GB that "
        "made-up inputs may take (a test's limit): dropped",
        "'input_shapes' of 'free': [0,3] has a size under 1: dropped",
        "'input_shapes' of 'odd' must be a list of sizes: dropped"])
    assert bench.partly_read          # the first save keeps the file aside


def test_an_input_whose_shape_attribute_is_no_shape_keeps_its_restored_size(tmp_path):
    """Review of 94fee84: a Placeholder whose 'shape' attribute holds another kind of value
    (an int: a hostile model, which opens, its input 'no shape') raised AttributeError
    out of Workbench.restore when its session named a size for it (the window's open caught
    only InspectorError), and out of the Input sizes field. It declares no shape: the size
    is kept, as for an input without one."""
    from types import SimpleNamespace

    from inspector.core.app.inputs import known_shapes, open_sizes, set_input_sizes
    from inspector.core.model import protos
    from inspector.core.model.graph import Graph

    gd = protos.GraphDef()
    node = gd.node.add(name="x", op="Placeholder")
    node.attr["dtype"].type = 1
    node.attr["shape"].i = 3
    model = _model(tmp_path)
    with open(session_path(model), "w") as fh:
        json.dump({"version": 1, "inputs": ["x"], "input_shapes": {"x": [2, 3]}}, fh)
    bench = Workbench()
    bench.restore(model, Graph(gd))
    assert bench.input_shapes == {"x": (2, 3)} and bench.warnings == []

    state = SimpleNamespace(original_view=SimpleNamespace(graph=Graph(gd)), summary=None,
                            workbench=bench)
    assert set_input_sizes(state, "x=4,5") == {"x": [4, 5]}
    assert open_sizes(Graph(gd), ["x"]) == {}
    assert known_shapes(Graph(gd), ["x"], {}, {}, [])[0] == {}      # as with no shape


def test_every_reader_of_a_declared_shape_takes_a_shape_of_another_kind_as_none():
    """The same hostile input for the other readers of a declared shape (Node.declared_dims,
    one rule): `check` stopped with a traceback (AttributeError in numeric_check), the
    .tflite conversion preview's made-up input likewise; now the one line of an input with
    no known shape."""
    import pytest

    from inspector.core.analysis.numeric_check import known_input_shapes, make_inputs
    from inspector.core.errors import InspectorError
    from inspector.core.mobile.tflite_preview import _input_shape
    from inspector.core.model import protos
    from inspector.core.model.graph import Graph

    gd = protos.GraphDef()
    node = gd.node.add(name="x", op="Placeholder")
    node.attr["dtype"].type = 1
    node.attr["shape"].i = 3
    graph = Graph(gd)
    assert graph.get("x").declared_dims is None
    with pytest.raises(InspectorError, match="no known shape"):
        make_inputs(graph, ["x"], {})
    with pytest.raises(InspectorError, match="no declared or inferred shape"):
        _input_shape(graph, "x", None)
    assert known_input_shapes(graph, gd, graph, ["x"], {"x": (2,)}) == {"x": (2,)}


def test_a_restored_size_of_64_dimensions_is_said_in_a_short_line(tmp_path):
    """hostile15: a session's 64 sizes of 2147483647 against a 4-dimension input were said in
    one line of ~700 characters (every size). The first 8 and how many are said."""
    from inspector.core.model import protos
    from inspector.core.model.graph import Graph

    gd = protos.GraphDef()
    node = gd.node.add(name="pixels", op="Placeholder")
    node.attr["dtype"].type = 1
    for d in (-1, 8, 8, 1):
        node.attr["shape"].shape.dim.add(size=d)
    model = _model(tmp_path)
    with open(session_path(model), "w") as fh:
        json.dump({"version": 1, "input_shapes": {"pixels": [2 ** 31 - 1] * 64}}, fh)
    bench = Workbench()
    bench.restore(model, Graph(gd))
    assert bench.input_shapes == {}
    assert bench.warnings == [
        "'input_shapes' of 'pixels': pixels=" + ",".join(["2147483647"] * 8) +
        ",… (64 sizes) does not fit its declared shape [?,8,8,1]: dropped"]


def test_a_400_digit_number_in_a_tour_stop_drops_only_its_stop(tmp_path):
    """hostile15: under the 4,300-digit limit a 400-digit integer stays an int, and the
    rect's check (math.isfinite) raised OverflowError out of parse_session: the restore
    failed as a whole (in the window, an exception out of model_loaded, not a dialog). Only
    its stop goes; the marks and the other stop restore."""
    text = ('{"version": 1, "inputs": ["x"], "tour": [{"title": "a"}, {"title": "b", "rect": '
            '[0, 0, 10, ' + "9" * 400 + ']}]}')
    session = parse_session(text)
    assert session["inputs"] == ["x"] and [s.title for s in session["tour"]] == ["a"]
    assert session["dropped"] == ["tour stop 2: 'rect' must be four finite numbers (x, y, "
                                  "width, height): stop dropped"]


def test_a_session_file_that_is_not_utf8_restores_and_says_so(tmp_path):
    """hostile15b: a session file with a byte that is not UTF-8 (an editor's Latin-1 'é')
    restored with U+FFFD in place of it, silently. It restores what it can and says which
    byte, once; the first save keeps the file aside (partly read)."""
    model = _model(tmp_path)
    text = json.dumps({"version": 1, "inputs": ["caf\u00e9"], "outputs": ["y"],
                       "pipeline": [{"name": "fold_constants"}]}, ensure_ascii=False)
    data = text.encode("latin-1")
    with open(session_path(model), "wb") as fh:
        fh.write(data)
    bench = Workbench()
    bench.restore(model)
    assert bench.inputs == ["caf\ufffd"] and bench.outputs == ["y"]
    assert [s.name for s in bench.steps] == ["fold_constants"]
    at = data.index(b"\xe9")
    assert bench.warnings == [f"the file is not valid UTF-8 (from byte {at:,}): what could "
                              "not be read was restored as \ufffd"], bench.warnings
    assert bench.partly_read


def test_a_session_file_an_editor_saved_with_a_byte_order_mark_is_restored(tmp_path):
    """review15: a session file saved by an editor that writes a UTF-8 byte order mark (as
    Notepad did) was refused whole, 'not JSON (Unexpected UTF-8 BOM ...)', and moved aside
    by the first save; a saved comparison takes one (comparison_files). It is restored."""
    model = _model(tmp_path)
    with open(session_path(model), "wb") as fh:
        fh.write(b"\xef\xbb\xbf" + json.dumps({"version": 1, "inputs": ["x"],
                                                "outputs": ["y"]}).encode())
    bench = Workbench()
    bench.restore(model)
    assert bench.inputs == ["x"] and bench.outputs == ["y"]
    assert bench.warnings == [] and bench.unreadable is None


def test_a_part_nested_too_deeply_drops_only_itself(tmp_path):
    """hostile17: a session file whose 'tour' (or 'pipeline', or 'expanded' with strings
    holding brackets) nested 100,000 lists refused the whole file ('nested too deeply'): the
    marks, sizes and pipeline beside it were lost. That part is dropped and said; a file
    that is too deep at its top, or not closed, is still refused in one line."""
    model = _model(tmp_path)
    deep = "[" * 100_000 + "]" * 100_000
    text = ('{"version": 1, "inputs": ["x"], "tour": ' + deep + ', "expanded": ["]", "\\"]",'
            ' "{", ' + deep + '], "pipeline": ' + '{"a":' * 100_000 + "1" + "}" * 100_000 +
            ', "input_shapes": {"x": [1, 8]}, "outputs": ["y"]}')
    path = session_path(model)
    with open(path, "w") as fh:
        fh.write(text)
    bench = Workbench()
    assert bench.restore(model) == path
    assert bench.inputs == ["x"] and bench.outputs == ["y"]
    assert bench.input_shapes == {"x": (1, 8)}
    assert sorted(w for w in bench.warnings if "nested too deeply" in w) == [
        "'expanded' is nested too deeply: dropped", "'pipeline' is nested too deeply: dropped",
        "'tour' is nested too deeply: dropped"], bench.warnings
    for bad in (deep, '{"version": 1, "tour": ' + "[" * 100_000,
                '{"version": 1, "tour": ' + deep + "} 5"):
        with pytest.raises(SessionError):
            parse_session(bad)
