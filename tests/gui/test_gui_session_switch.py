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
