"""What Save report / Save comparison and the other exports propose for the bundled demo model
and for a model against its own .tflite (seen on a walk through issue 45): the demo model
lives among the app's own files (a frozen build's temporary folder, an install's
site-packages), so "beside A" proposed a file there; net.pb against net.tflite proposed
net_vs_net. Now: the home folder for the demo, net_pb_vs_net_tflite."""

import os
import shutil

from PySide6.QtCore import Qt
from test_gui_compare_window import open_comparison

from conftest import DEMO, ROOT


def _proposals(qtbot, win, monkeypatch) -> list:
    from PySide6.QtWidgets import QFileDialog

    proposed = []
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        lambda *args, **kw: proposed.append(args[2]) or ("", ""))
    qtbot.mouseClick(win.report_button, Qt.LeftButton)
    qtbot.mouseClick(win.keep_button, Qt.LeftButton)
    return proposed


def test_the_demo_models_comparison_is_proposed_in_the_home_folder(qtbot, window, tmp_path,
                                                                    monkeypatch):
    from inspector.core.formats.writer import beside

    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    tflite = tmp_path / "digits_int8.tflite"
    shutil.copy(os.path.join(ROOT, "tests", "core", "data", "digits_int8.tflite"), tflite)
    win = open_comparison(qtbot, window, str(tflite), DEMO)
    assert _proposals(qtbot, win, monkeypatch) == [
        str(home / "demo_digits_vs_digits_int8.html"),
        str(home / "demo_digits_vs_digits_int8.json")]
    assert beside(DEMO, ".tour.html") == str(home / "demo_digits.tour.html")   # the others
    mine = tmp_path / "net.pb"
    assert beside(str(mine), "_timings.txt") == str(tmp_path / "net_timings.txt")


def test_a_model_and_its_tflite_of_the_same_name_keep_their_extensions(qtbot, window,
                                                                        tmp_path, monkeypatch):
    a, b = tmp_path / "net.pb", tmp_path / "net.tflite"
    shutil.copy(DEMO, a)
    shutil.copy(os.path.join(ROOT, "tests", "core", "data", "digits_int8.tflite"), b)
    win = open_comparison(qtbot, window, str(b), str(a))
    assert _proposals(qtbot, win, monkeypatch) == [
        str(tmp_path / "net_pb_vs_net_tflite.html"), str(tmp_path / "net_pb_vs_net_tflite.json")]


def test_save_optimized_graph_of_the_demo_is_proposed_in_the_home_folder(qtbot, window,
                                                                         tmp_path, monkeypatch):
    from PySide6.QtWidgets import QFileDialog
    from test_gui import open_and_wait
    from test_gui_workbench import wait_preview

    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    open_and_wait(qtbot, window, DEMO)    # its own session file's pipeline: nothing changed
    wait_preview(qtbot, window, 3)        # (a change would be saved into the app's files)
    proposed = []
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        lambda *args, **kw: proposed.append(args[2]) or ("", ""))
    from test_gui_compare_window import menu_action

    menu_action(window, "Save optimized graph…").trigger()       # File > Save optimized graph…
    assert proposed == [str(home / "demo_digits_optimized.pb")]
