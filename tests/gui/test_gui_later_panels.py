"""Panels hidden at start (Preview; Phone with its Quantization tab; Demo; Sizes) are made after
the first picture, when first shown or when first read, whichever comes first; nobody sees
them missing, they catch up with what happened before them, and the light build's gate still
disables their TensorFlow buttons. The Target report's and the comparisons' controllers are
made when first read."""

from __future__ import annotations

import pytest

LATER = ("preview_panel", "preview", "mobile_panel", "quant_panel", "mobile", "quant",
         "demo_panel", "demo", "sizes_panel", "sizes")
ON_READ = ("targets", "compare_ctl")


@pytest.fixture
def deferred(monkeypatch):
    """The app's start: work deferred until the first picture (start_order.defer)."""
    from inspector.gui.startup import start_order

    for name, value in (("_deferred", False), ("_waiting", {}), ("_released", False),
                        ("_ready", False), ("_busy", None)):
        monkeypatch.setattr(start_order, name, value)
    start_order.defer()
    return start_order


def _window(qtbot, tmp_path):
    from PySide6.QtCore import QSettings

    from inspector.gui.main_window import MainWindow

    win = MainWindow(QSettings(str(tmp_path / "settings.ini"), QSettings.IniFormat))
    qtbot.addWidget(win)
    return win


def _waiting(win) -> set:
    return {name for name in LATER if name not in win.__dict__}


def test_hidden_panels_wait_for_the_first_picture(qtbot, tmp_path, deferred):
    win = _window(qtbot, tmp_path)
    win.show()                                       # the explore task: both hidden
    qtbot.wait(50)
    assert _waiting(win) == set(LATER)
    assert win.preview_dock.widget().widget() is None
    deferred._run_waiting()                          # the first picture is up (release)
    qtbot.waitUntil(lambda: not _waiting(win), timeout=5000)
    assert win.preview_dock.widget().widget() is win.preview_panel
    assert win.mobile_dock.widget().widget() is win.mobile_panel
    assert win.mobile_panel.tabs.indexOf(win.quant_panel) >= 0
    assert win.demo_dock.widget().widget() is win.demo_panel
    assert win.sizes_dock.widget().widget() is win.sizes_panel
    assert not any(name in win.__dict__ for name in ON_READ)    # no one asked for them
    assert win.targets.state is win.state and win.compare_ctl.state is win.state


def test_hidden_panels_wait_while_the_window_is_busy(qtbot, tmp_path, deferred):
    """After the first picture the panels are made only while no task computes (a widget
    made beside a busy thread waits for the GIL at each Qt call: the settle's stall)."""
    win = _window(qtbot, tmp_path)
    win.show()
    busy = [True]
    deferred.wait_while(lambda: busy[0])
    deferred._run_waiting()                          # the first picture is up (release)
    qtbot.wait(300)
    assert _waiting(win) == set(LATER)               # a task computes: nothing made
    busy[0] = False
    qtbot.waitUntil(lambda: not _waiting(win), timeout=5000)


def test_a_read_or_a_show_makes_the_panel_at_once(qtbot, tmp_path, deferred):
    win = _window(qtbot, tmp_path)
    win.show()
    assert win.quant.p is win.quant_panel            # a read: made now, never None
    assert _waiting(win) == {"preview_panel", "preview", "demo_panel", "demo", "sizes_panel",
                             "sizes"}
    win.workspace.switch("optimize")                 # shows Preview; Sizes behind its tab
    assert _waiting(win) == {"demo_panel", "demo", "sizes_panel", "sizes"}
    assert win.preview_dock.widget().widget() is win.preview_panel
    win.sizes_dock.raise_()                          # its tab clicked: seen, made
    assert _waiting(win) == {"demo_panel", "demo"}
    assert win.sizes_dock.widget().widget() is win.sizes_panel
    win.show_panel(win.mobile_dock, 1)               # a Phone menu action's tab
    assert win.mobile_panel.tabs.currentIndex() == 1
    win.workspace.switch("present")                  # Demo and tour: behind the Tour's tab
    assert "demo_panel" in _waiting(win)
    win.demo_dock.raise_()                           # its tab clicked: seen, made
    assert "demo_panel" not in _waiting(win)
    assert win.demo_dock.widget().widget() is win.demo_panel


def test_phone_menu_action_makes_its_panel(qtbot, tmp_path, deferred):
    win = _window(qtbot, tmp_path)
    win.show()
    action = next(a for m in win.menuBar().actions() if m.menu()
                  for a in m.menu().actions() if a.text() == "Check &TFLite compatibility")
    action.trigger()                                 # no model: it only says so
    assert "mobile_panel" in win.__dict__ and win.mobile_dock.isVisible()
    assert win.mobile_panel.tabs.currentIndex() == 0


def test_panels_made_later_are_gated_without_tensorflow(qtbot, tmp_path, deferred,
                                                        monkeypatch):
    from inspector.gui import tf_gate

    monkeypatch.setattr(tf_gate, "tensorflow_reachable", lambda: False)
    win = _window(qtbot, tmp_path)
    assert "Check outputs in TensorFlow" not in win.tf_gated     # not made yet
    button = win.preview_panel.check_button                      # made now: gated too
    assert not button.isEnabled() and "--tf-python" in button.toolTip()
    button.setEnabled(True)
    assert not button.isEnabled()
    assert not win.quant_panel.run_button.isEnabled()
    assert not win.mobile_panel.convert_button.isEnabled()
    assert not win.demo_panel.run_button.isEnabled()
    assert "Check outputs in TensorFlow" in win.tf_gated and "Run recipes" in win.tf_gated
    assert win.demo_panel.run_button.text() in win.tf_gated
    assert tf_gate.lift(win) > 0
    assert win.preview_panel.check_button.toolTip() != tf_gate.TIP


def test_without_deferring_everything_is_made_with_the_window(window):
    assert not _waiting(window)                      # tests and later windows: as before
    assert window.preview_dock.widget().widget() is window.preview_panel


def test_the_sizes_panel_made_after_the_first_picture_sizes_the_open_model(
        qtbot, tmp_path, deferred):
    import shutil

    from conftest import ROOT

    model = tmp_path / "demo_digits.pb"
    shutil.copy(f"{ROOT}/inspector/core/app/demo_model/demo_digits.pb", model)
    win = _window(qtbot, tmp_path)
    win.show()
    win.open_path(str(model))
    qtbot.waitUntil(lambda: win.scenes_drawn >= 1, timeout=20000)   # the first picture
    assert "sizes" not in win.__dict__
    deferred._run_waiting()
    qtbot.waitUntil(lambda: "sizes" in win.__dict__, timeout=5000)
    assert win.sizes.shown == 0                      # its dock is hidden: no work yet
    win.show_panel(win.sizes_dock)                   # the user looks: the open model's sizes
    qtbot.waitUntil(lambda: win.sizes.shown >= 1, timeout=20000)
    assert "in 59 nodes" in win.sizes_panel.totals.text()


def test_a_tour_restored_before_its_panel_existed_is_listed(qtbot, tmp_path, deferred):
    import os
    import shutil

    from conftest import ROOT
    from PySide6.QtCore import Qt

    model = tmp_path / "demo_digits.pb"
    shutil.copy(f"{ROOT}/inspector/core/app/demo_model/demo_digits.pb", model)
    deferred._deferred = False                       # a first window, made as before
    first = _window(qtbot, tmp_path)
    first.open_path(str(model))
    qtbot.waitUntil(lambda: first.state.scene is not None, timeout=20000)
    for _ in range(2):
        qtbot.mouseClick(first.tour_panel.add_button, Qt.LeftButton)
    session = f"{model}.inspector.json"
    qtbot.waitUntil(lambda: os.path.exists(session) and '"tour"' in open(session).read(),
                    timeout=5000)
    first.close()
    deferred.defer()                                 # the app's start again
    win = _window(qtbot, tmp_path)
    win.show()
    win.open_path(str(model))                        # the session's tour is restored here
    qtbot.waitUntil(lambda: win.scenes_drawn >= 1, timeout=20000)
    assert "tour" not in win.__dict__ and len(win.state.workbench.tour.stops) == 2
    deferred._run_waiting()
    qtbot.waitUntil(lambda: "tour" in win.__dict__, timeout=5000)
    assert win.tour_panel.stops.count() == 2
    assert win.tour_dock.widget().widget() is win.tour_panel
