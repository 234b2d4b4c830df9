"""The glossary in the window: selecting a node shows what it does in plain words and its
registry facts in Properties; hovering a node or a block tells what it does."""

import os

import pytest
from test_gui import click_item, open_and_wait, wait_drawn

from inspector.core.analysis import glossary

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def test_a_clicked_node_is_explained_in_both_tiers(qtbot, window, fx):
    open_and_wait(qtbot, window, os.path.join(fx, "inception_jpeg.pb"))
    hover = window.canvas.items_by_id["conv/"].toolTip()
    assert glossary.scope_caption({"Conv2D": 1, "FusedBatchNorm": 1, "Relu": 1}).split(":")[0] \
        in hover.lower()
    before = window.scenes_drawn
    window.state.set_expanded("conv", True)
    wait_drawn(qtbot, window, before)
    click_item(qtbot, window, "conv/Conv2D")
    assert window.state.selected == "conv/Conv2D"
    text = window.properties.meaning.text()
    assert window.properties.meaning.isVisibleTo(window.properties)
    assert glossary.plain("Conv2D") in text
    assert "Conv2D(input: T, filter: T) -&gt; output: T" in text or \
        "Conv2D(input: T, filter: T) -> output: T" in text
    node_tip = window.canvas.items_by_id["conv/Conv2D"].toolTip()
    assert glossary.plain("Conv2D") in node_tip
    # TensorFlow's own words follow, read at run time and credited
    qtbot.waitUntil(lambda: "TensorFlow says" in window.properties.meaning.text(),
                    timeout=60000)
    assert "tf.raw_ops.Conv2D" in window.properties.meaning.text()
    assert "convolution" in window.properties.meaning.text().lower()
