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


def test_a_dropped_tflite_file_opens_read_only_with_its_quantization(qtbot, window):
    before = window.scenes_drawn
    assert drop_files(window.canvas.viewport(), [wild("fer_tflite")])
    wait_drawn(qtbot, window, before)
    model = window.state.model
    assert model.kind == "tflite" and model.path.endswith("emotion_model_quantized.tflite")
    node = next(n for n in model.graph if n.has_attr("quant_scale"))
    window.state.reveal(node.name)
    window.state.select(node.name)
    tree = window.properties.tree
    keys = [tree.topLevelItem(k).text(0) for k in range(tree.topLevelItemCount())]
    assert "op" in keys
    texts = " ".join(tree.topLevelItem(k).text(0) + " " + tree.topLevelItem(k).text(1)
                     for k in range(tree.topLevelItemCount()))
    for k in range(tree.topLevelItemCount()):
        item = tree.topLevelItem(k)
        texts += " ".join(item.child(c).text(0) + " " + item.child(c).text(1)
                          for c in range(item.childCount()))
    assert "quant_scale" in texts and "quant_zero_point" in texts

def test_a_tflite_model_gets_no_tensorflow_shape_inference_nor_the_tflite_overlay(
        qtbot, window, demo_model, monkeypatch):
    """Issue 38.8: opening a .tflite asked TF to infer its shapes ("Op type not registered
    'CONV_2D'" in the status bar), and the TFLite overlay chosen for the previous model stayed
    checked though the new model had none."""
    from test_gui import open_and_wait

    open_and_wait(qtbot, window, demo_model)
    panel = window.overlays_panel
    panel.mode_buttons["compat"].click()
    qtbot.waitUntil(lambda: bool(window.state.overlay.compat), timeout=30000)
    kinds, messages, frames = [], [], []
    submit = window.tasks.submit
    monkeypatch.setattr(window.tasks, "submit",
                        lambda kind, *a, **k: (kinds.append(kind), submit(kind, *a, **k))[1])
    window.state.message.connect(messages.append)
    window.state.error.connect(messages.append)
    window.state.first_frame.connect(frames.append)
    open_and_wait(qtbot, window, wild("fer_tflite"))
    assert window.state.model.kind == "tflite"
    qtbot.waitUntil(lambda: bool(frames), timeout=30000)
    qtbot.wait(200)
    qtbot.waitUntil(lambda: not window.tasks.is_busy(), timeout=30000)
    assert "shapes" not in kinds
    assert not [m for m in messages if "not registered" in m or "No tensor shapes" in m]
    # the edges are labelled with the shapes the file carries
    scenes = []
    window.state.scene_changed.connect(scenes.append)
    window.state.expand_all()
    wait_drawn(qtbot, window)
    labels = [e.label for e in scenes[-1].edges if e.label]
    assert labels and all(any(c.isdigit() for c in x) for x in labels), labels
    # no overlay for the new model, and the buttons say so; the TFLite one does not apply
    assert window.state.overlay.mode == "none"
    assert panel.mode_buttons["none"].isChecked() and not panel.mode_buttons["compat"].isChecked()
    assert not panel.mode_buttons["compat"].isEnabled()
    open_and_wait(qtbot, window, demo_model)
    assert panel.mode_buttons["compat"].isEnabled()


def test_the_phone_check_of_a_tfjs_detector_uses_all_its_signature_outputs_as_the_cli(
        qtbot, window):
    """The TF.js SSD hand detector declares 8 outputs. `compat` took all 8 (482 builtin, 632
    removed by conversion); the window's Check compatibility took the first 3 of them (394
    builtin, 720 removed: the other 5 outputs' ops were counted as dropped)."""
    from PySide6.QtCore import Qt
    from conftest import run_cli
    from test_gui import open_and_wait

    path = wild("handtrack_float32")
    rc, out, err = run_cli("compat", path, "--json")
    assert rc == 0, err
    import json
    cli = json.loads(out)
    open_and_wait(qtbot, window, path)
    window.mobile_dock.raise_()
    qtbot.mouseClick(window.mobile_panel.check_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: window.state.tflite_check is not None and
                    not window.tasks.is_busy(), timeout=60000)
    check = window.state.tflite_check
    assert len(check.outputs) == 8
    label = window.mobile_panel.ports.text()
    assert all(f"Identity_{k}" in label for k in range(1, 8))
    assert dict(check.compat.counts()) == {k: v for k, v in cli["counts"].items() if v}


def test_a_tfjs_model_opens_without_a_fallback_notice_and_says_its_weights_were_quantized(
        qtbot, window):
    """Opening the TF.js SSD hand detector popped 'Opened model.json' up every time: its
    loading note said '17 fused op(s) TensorFlow cannot run split into plain ops', and the
    window takes a note with 'cannot' for a fallback's. The uint8 variant's notes never said
    its weights were stored 8-bit (every figure shows them as float32)."""
    from test_gui import open_and_wait

    folder = os.path.dirname(wild("handtrack_uint8"))
    open_and_wait(qtbot, window, os.path.join(folder, "model.json"))
    qtbot.wait(200)
    assert window.dialogs.last_box is None
    notes = " ".join(window.state.model.notes)
    assert "of its 619 weights the converter stored 272 as uint8 (quantized), turned back " \
           "into float32 here" in notes
    assert "17 fused op(s) TensorFlow has no kernel for split into plain ops" in notes


def test_a_tflite_output_s_properties_show_the_signature_s_open_batch_as_the_summary(
        qtbot, window):
    """basic-pitch's .tflite: the Properties of an output said its stored [1,172,88] (in its
    outputs row and its _output_shapes) where the Summary said [?,172,88], LiteRT's
    shape_signature (wild16). Both say [?,172,88] now; the stored sizes the FLOP count
    reads are not listed."""
    before = window.scenes_drawn
    assert drop_files(window.canvas.viewport(), [wild("basic_pitch_tflite")])
    wait_drawn(qtbot, window, before)
    qtbot.waitUntil(lambda: window.state.summary is not None, timeout=60000)
    out = next(c for c in window.state.summary.outputs if c.label == "note")
    assert out.shape == "[?,172,88]"
    name = out.name.partition(":")[0]
    window.state.reveal(name)
    window.state.select(name)
    tree = window.properties.tree
    rows = {tree.topLevelItem(k).text(0): tree.topLevelItem(k)
            for k in range(tree.topLevelItemCount())}
    outputs = rows["outputs"]
    assert [outputs.child(c).text(1) for c in range(outputs.childCount())] == \
        ["float [?,172,88]"]
    attrs = rows["attributes"]
    shown = {attrs.child(c).text(0): attrs.child(c).text(1) for c in range(attrs.childCount())}
    assert "tflite_shape" not in shown and shown["_output_shapes"] == "[[?,172,88]]", shown
    assert attrs.text(1) == str(attrs.childCount())
