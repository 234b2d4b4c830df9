"""The window with models other people made: dropped as a user would drop them."""

import os

from test_gui import drop_files, wait_drawn
from test_wild_models import wild


def test_a_dropped_tfjs_folder_opens_and_draws(qtbot, window):
    folder = os.path.dirname(wild("basic_pitch_tfjs"))
    before = window.scenes_drawn
    assert drop_files(window.canvas.viewport(), [folder])
    wait_drawn(qtbot, window, before)
    assert window.state.model.kind == "tfjs"
    assert window.canvas.items_by_id and "input_2" in window.canvas.items_by_id


def test_a_dropped_meta_is_frozen_with_the_checkpoint_beside_it(qtbot, window):
    before = window.scenes_drawn
    assert drop_files(window.canvas.viewport(), [wild("musicnn_meta")])
    wait_drawn(qtbot, window, before)
    model = window.state.model
    assert model.frozen and any("likely output model/Sigmoid" in n for n in model.notes)
    assert not [n for n in model.graph if n.op == "VariableV2"]


def test_a_dropped_tflite_file_gives_one_message_and_the_model_shown_stays(qtbot, window):
    before = window.scenes_drawn
    assert drop_files(window.canvas.viewport(), [os.path.dirname(wild("basic_pitch_tfjs"))])
    wait_drawn(qtbot, window, before)
    shown = window.state.model
    window.last_error = ""
    assert drop_files(window.canvas.viewport(), [wild("fer_tflite")])
    qtbot.waitUntil(lambda: bool(window.last_error), timeout=30000)
    assert "TensorFlow Lite model" in window.last_error and "\n" not in window.last_error
    assert window.state.model is shown
