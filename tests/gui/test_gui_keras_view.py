"""A Keras file no Keras can load, opened in the app (issue 38.6): its layers drawn from the
file's config, a notice saying why it cannot be frozen, weights readable, and no TensorFlow
shape inference tried on layer ops (which only put an error in the status bar)."""

import os

import pytest
from test_gui import click_item, open_and_wait

from tests.fixtures.keras_rnn_models import keras_rnn_dir

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def test_a_keras_file_no_keras_loads_opens_as_its_layers(qtbot, window):
    path = os.path.join(keras_rnn_dir(), "custom_layer.h5")
    said = []
    window.state.message.connect(said.append)          # what the status bar says
    open_and_wait(qtbot, window, path)
    model = window.state.model
    assert model.kind == "keras-layers"
    box = window.dialogs.last_box
    assert "cannot be frozen" in box.text() and "Gate" in box.text()
    qtbot.wait(1500)        # past the 300 ms after the first frame when TF work starts
    assert any("Keras layers" in s for s in said), said
    assert not any("shapes" in s for s in said), said   # 'No tensor shapes: ... Dense'
    assert window.last_error == ""
    click_item(qtbot, window, "hidden")
    assert window.state.selected == "hidden"
    tree = window.properties.tree
    rows, todo = {}, [tree.topLevelItem(i) for i in range(tree.topLevelItemCount())]
    while todo:
        item = todo.pop()
        rows[item.text(0)] = item.text(1)
        todo += [item.child(i) for i in range(item.childCount())]
    assert rows["op"] == "Dense" and "relu" in rows["activation"], rows
    window.jump_to("hidden/kernel")      # a weight: its values read from the .h5 on demand
    qtbot.waitUntil(lambda: window.properties.tensor is not None, timeout=10000)
    assert window.properties.tensor.shape == (5, 8)
