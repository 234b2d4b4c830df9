"""Demo > Model card, driven as a presenter would: open a model, choose the menu entry, read
the card (its figures equal the Summary panel's), hover for definitions, Esc back to the graph.
The window runs TensorFlow in-process here (conftest installs the executor)."""

import os

import pytest
from PySide6.QtCore import Qt

from tests.test_gui import open_and_wait

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _menu_action(window, menu_title: str, text: str):
    for menu_action in window.menuBar().actions():
        if menu_action.text().replace("&", "") == menu_title:
            for action in menu_action.menu().actions():
                if action.text().replace("&", "") == text:
                    return action
    raise AssertionError(f"no {menu_title} > {text}")


def test_the_model_card_opens_from_the_demo_menu_and_esc_closes_it(qtbot, window, fx):
    open_and_wait(qtbot, window, os.path.join(fx, "mobilenet_v2.pb"))
    qtbot.waitUntil(lambda: window.state.summary is not None, timeout=60000)
    action = _menu_action(window, "Demo", "Model card")
    assert action.shortcut().toString() == "Ctrl+M"
    action.trigger()
    qtbot.waitUntil(lambda: window.card_panel.isVisible(), timeout=60000)
    panel, summary = window.card_panel, window.state.summary
    assert panel.geometry() == window.rect()          # the whole window
    card = panel.card
    assert card.inputs[0].plain == "a 224x224 colour photo"
    params = summary.const_parameters + summary.variable_parameters
    assert card.fact("learned numbers").value == params
    assert panel.tiles["learned numbers"].big.text() == "3.54 million"
    assert "FLOPs" in panel.tiles["arithmetic"].toolTip()
    assert "20 GFLOP/s" in panel.tiles["speed on 2016 high-end phone"].toolTip()
    assert card.fact("arithmetic").value > 0
    qtbot.keyClick(panel, Qt.Key_Escape)
    assert not panel.isVisible()


def test_a_loaded_profile_shows_as_measured_time(qtbot, window, fx):
    from inspector.core.app.state import OverlayState
    from inspector.core.overlays.profiling import Profile

    open_and_wait(qtbot, window, os.path.join(fx, "mobilenet_v2.pb"))
    window.state.set_overlay(OverlayState("timings", (Profile({}, "test", [2000, 4000]),), 0))
    window.card.show_card()
    qtbot.waitUntil(lambda: window.card_panel.isVisible(), timeout=60000)
    tile = window.card_panel.tiles["measured time"]
    assert tile.big.text() == "3.0 ms" and "measured" in tile.small.text()
    window.card_panel.close_button.click()
    assert not window.card_panel.isVisible()
