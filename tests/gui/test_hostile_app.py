"""The app with hostile inputs: every broken file gives one dialog and the window keeps working;
a session file never makes anything run; consent is asked once per graph."""

from __future__ import annotations

import json
import os

import pytest
from PySide6.QtWidgets import QMessageBox

from tests.fixtures import hostile_models as H
from tests.fixtures.hostile.manifest import LOADER_CASES


def _open_and_wait(qtbot, window, path):
    """Open a file; return the error text, or '' once the model is drawn."""
    window.last_error = ""
    drawn = window.scenes_drawn
    window.open_path(path)
    # a scene of this model, not a late one of the model still shown (its shapes arriving)
    qtbot.waitUntil(lambda: bool(window.last_error) or (
        window.scenes_drawn > drawn and window.state.model is not None
        and window.state.model.path == path), timeout=60000)
    return window.last_error


def test_every_hostile_file_gives_one_message_and_the_window_survives(qtbot, window, tmp_path):
    from inspector.core.errors import InspectorError

    outcomes = {}
    for make, expect, message, overrides, _isolate in LOADER_CASES:
        directory = tmp_path / make.__name__
        directory.mkdir()
        path = make(str(directory))
        expect, message = overrides.get("summarize", (expect, message))
        error = _open_and_wait(qtbot, window, path)
        outcomes[make.__name__] = error
        assert "could not open:" not in error, error  # an unexpected exception type
        if expect in ("error", "refused"):
            assert error and message in error, (make.__name__, error)
            assert "\n" not in error.strip() and "Traceback" not in error
        elif expect in ("ok", "problems"):
            assert not error, (make.__name__, error)
        try:
            window.error_box.close()
        except (AttributeError, RuntimeError):  # none shown, or already gone
            pass
        qtbot.wait(10)
    # still alive and usable: the good model opens and draws after all of that
    assert _open_and_wait(qtbot, window, LOADER_CASES[0][0](str(tmp_path))) == ""
    assert len(outcomes) == len(LOADER_CASES)
    del InspectorError


def test_opening_a_model_with_a_hostile_session_file_runs_nothing(qtbot, window, tmp_path):
    from inspector.core.formats.writer import write_graph

    marker = str(tmp_path / "marker")
    model = str(tmp_path / "model.pb")
    write_graph(H.write_in_function(marker), model)
    session = {"version": 1, "inputs": ["x"], "outputs": ["y"], "input_shapes": {"x": [2]},
               "pipeline": [{"name": "fold_constants", "params": {}, "enabled": True}]}
    (tmp_path / "model.pb.inspector.json").write_text(json.dumps(session))
    assert _open_and_wait(qtbot, window, model) == ""
    qtbot.waitUntil(lambda: len(window.state.rows) == 2 and
                    window.state.rows[-1].metrics.flops is not None, timeout=60000)
    assert not os.path.exists(marker)


def test_a_session_step_this_version_does_not_know_is_said_kept_and_not_run(qtbot, window,
                                                                           tmp_path):
    """A session file's step named 'fold_everything' (a newer version's transform, or a
    typo) was kept without a word. It is said in one line naming it, kept for the next save,
    disabled; the known steps still preview."""
    from inspector.core.formats.writer import write_graph

    model = str(tmp_path / "model.pb")
    write_graph(H.write_in_function(str(tmp_path / "marker")), model)
    session = {"version": 1, "inputs": ["x"], "outputs": ["y"], "input_shapes": {"x": [2]},
               "pipeline": [{"name": "fold_constants", "params": {}, "enabled": True},
                            {"name": "fold_everything", "params": {}, "enabled": True}]}
    (tmp_path / "model.pb.inspector.json").write_text(json.dumps(session))
    error = _open_and_wait(qtbot, window, model)
    said = [ln for ln in error.splitlines() if "fold_everything" in ln]
    assert said == ["step 2 ('fold_everything') is not a transform this version knows: kept, "
                    "disabled, and not run"], error
    bench = window.state.workbench
    assert [(s.name, s.enabled) for s in bench.steps] == [("fold_constants", True),
                                                         ("fold_everything", False)]
    qtbot.waitUntil(lambda: len(window.state.rows) == 2 and
                    window.state.rows[-1].metrics.flops is not None, timeout=60000)
    assert not window.state.rows[-1].error


@pytest.fixture
def answers(monkeypatch):
    """Answer the consent dialog: pop answers from the list, record the questions."""
    asked, replies = [], []

    def exec_(box):
        asked.append(box.text())
        return replies.pop(0) if replies else QMessageBox.No

    monkeypatch.setattr(QMessageBox, "exec", exec_)
    return asked, replies


def test_check_outputs_asks_once_per_graph_and_only_runs_with_consent(qtbot, window, tmp_path,
                                                                      answers):
    from inspector.core.formats.writer import write_graph

    asked, replies = answers
    marker = str(tmp_path / "marker")
    model = str(tmp_path / "model.pb")
    write_graph(H.write_in_function(marker), model)
    assert _open_and_wait(qtbot, window, model) == ""
    window.workbench.set_marks(["x"], ["y"])
    window.workbench.add_step("remove_device")
    qtbot.waitUntil(lambda: len(window.state.rows) == 2, timeout=60000)
    window.preview.check_outputs(False)
    qtbot.waitUntil(lambda: len(asked) == 1, timeout=60000)
    assert "WriteFile" in asked[0] and "via function" in asked[0]
    assert not os.path.exists(marker)
    replies.append(QMessageBox.Yes)
    window.preview.check_outputs(False)
    qtbot.waitUntil(lambda: "max abs error" in window.preview_panel.check_result.text(),
                    timeout=60000)
    assert os.path.exists(marker) and len(asked) == 2
    os.remove(marker)
    window.preview.check_outputs(False)  # the same graph: allowed without asking again
    qtbot.waitUntil(lambda: os.path.exists(marker), timeout=60000)
    assert len(asked) == 2


def test_profile_asks_before_running_a_writing_function(qtbot, window, tmp_path, answers):
    from inspector.core.formats.writer import write_graph

    asked, _ = answers
    marker = str(tmp_path / "marker")
    model = str(tmp_path / "model.pb")
    write_graph(H.print_to_file(marker), model)
    assert _open_and_wait(qtbot, window, model) == ""
    window.workbench.set_marks(["x"], ["y"])
    window.overlays.profile(False)
    qtbot.waitUntil(lambda: len(asked) == 1, timeout=60000)
    assert "PrintV2" in asked[0]
    qtbot.wait(200)
    assert not os.path.exists(marker)


def test_a_refused_initialiser_says_the_model_was_not_opened(qtbot, window, tmp_path, answers):
    """Opening a SavedModel whose initialiser writes a file, and answering No, left the model
    shown before with no word (the title and canvas still the old model's). One line now
    says the model was not opened, what would have run, and what is still shown."""
    from inspector.core.formats.writer import write_graph

    asked, _ = answers
    first = str(tmp_path / "first.pb")
    write_graph(H.write_in_function(str(tmp_path / "unused")), first)
    assert _open_and_wait(qtbot, window, first) == ""
    marker = str(tmp_path / "marker")
    saved = H.saved_model_tf2_initializer(str(tmp_path), marker)
    window.last_error = ""
    window.open_path(saved)
    qtbot.waitUntil(lambda: bool(window.last_error), timeout=60000)
    assert len(asked) == 1 and not os.path.exists(marker)
    line = window.last_error
    assert line.startswith("tf2_initializer was not opened: loading it would run node '"), line
    assert "WriteFile" in line and line.endswith("which you did not allow; first.pb is "
                                                 "still shown"), line
    assert "\n" not in line and window.state.model.path == first



def test_a_tflite_whose_while_calls_itself_opens_and_its_target_report_says_why_not(
        qtbot, window, tmp_path):
    """A .tflite whose WHILE's body is its own main subgraph: LiteRT recursed preparing it
    until a segmentation fault (the target report, diff --numeric). The window shows it, with
    a note, and the report's Run says in one line why LiteRT cannot run it."""
    from PySide6.QtCore import Qt

    from tests.fixtures.hostile import inputs as I

    path = I.tflite_while_into_itself(str(tmp_path))
    assert _open_and_wait(qtbot, window, path) == ""
    assert any("LiteRT cannot run this model" in n for n in window.state.model.notes)
    view = window.targets.open()
    view.choose("xnnpack")
    window.last_error = ""
    qtbot.mouseClick(view.run_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: bool(window.last_error), timeout=60000)
    assert window.last_error == ("LiteRT cannot run this model: subgraph 0's operator 0 "
                                 "(WHILE) calls subgraph 0, itself: LiteRT would recurse into "
                                 "it without end"), window.last_error
    # the window still works: another model opens and draws
    assert _open_and_wait(qtbot, window, I.good(str(tmp_path))) == ""
