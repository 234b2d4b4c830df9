"""Marks made just before another model is opened are not lost: the session is saved with a
400 ms debounce, and opening a second model within it reset the workbench first (the edit
was then never written, and reopening the first model showed no marks)."""

import os
import shutil

from test_gui import open_and_wait


def test_marks_made_right_before_opening_another_model_come_back(qtbot, window, tmp_path,
                                                                   data, demo_model):
    model = str(tmp_path / "inception.pb")
    shutil.copy(os.path.join(data, "inception_jpeg.pb"), model)
    open_and_wait(qtbot, window, model)
    qtbot.waitUntil(lambda: window.state.engine is not None and not window.tasks.is_busy(),
                    timeout=30000)
    window.workbench.set_marks(["Mul"], ["softmax"])
    other = str(tmp_path / "demo.pb")
    shutil.copy(demo_model, other)
    open_and_wait(qtbot, window, other)          # at once: within the save's debounce
    assert os.path.exists(model + ".inspector.json")
    open_and_wait(qtbot, window, model)
    qtbot.waitUntil(lambda: window.workbench.outputs == ["softmax"], timeout=10000)
    assert window.workbench.inputs == ["Mul"]


def test_a_stop_added_right_before_opening_another_model_is_kept_for_its_model(
        qtbot, window, tmp_path, demo_model):
    """The tour's edits were saved 400 ms later for whichever model was open by then: a stop
    added just before opening B was lost for A, and B got a session file it never had; and
    merely opening a model rewrote its session file (the restore counted as a tour edit)."""
    from PySide6.QtCore import Qt

    a, b = str(tmp_path / "a.pb"), str(tmp_path / "b.pb")
    shutil.copy(demo_model, a)
    shutil.copy(demo_model, b)
    open_and_wait(qtbot, window, a)
    qtbot.waitUntil(lambda: hasattr(window, "tour_panel"), timeout=30000)
    qtbot.mouseClick(window.tour_panel.add_button, Qt.LeftButton)
    assert len(window.state.workbench.tour.stops) == 1
    open_and_wait(qtbot, window, b)              # at once: within the save's debounce
    qtbot.wait(1000)                             # past any debounce
    assert not os.path.exists(b + ".inspector.json")     # B was not edited
    with open(a + ".inspector.json") as f:
        saved = f.read()
    stat = os.stat(a + ".inspector.json")
    open_and_wait(qtbot, window, a)
    qtbot.waitUntil(lambda: len(window.state.workbench.tour.stops) == 1, timeout=10000)
    qtbot.wait(1000)                             # opening it changed nothing: not rewritten
    assert os.stat(a + ".inspector.json").st_mtime_ns == stat.st_mtime_ns
    with open(a + ".inspector.json") as f:
        assert f.read() == saved
    assert sorted(f for f in os.listdir(tmp_path) if "inspector.json" in f) == \
        ["a.pb.inspector.json"]


def test_an_edit_right_before_the_window_closes_is_saved(qtbot, window, tmp_path, demo_model):
    """The session is saved 400 ms after an edit; closing the window (File > Quit) within
    them ended the app with the timer pending, and the edit was never written."""
    model = str(tmp_path / "a.pb")
    shutil.copy(demo_model, model)
    open_and_wait(qtbot, window, model)
    qtbot.waitUntil(lambda: window.pipeline.ready, timeout=30000)
    assert not os.path.exists(model + ".inspector.json")
    window.workbench.set_marks([], ["softmax"])
    window.close()                               # at once: within the save's debounce
    assert os.path.exists(model + ".inspector.json")
    with open(model + ".inspector.json") as f:
        assert "softmax" in f.read()
