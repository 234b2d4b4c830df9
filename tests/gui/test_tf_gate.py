"""Without TensorFlow (the light build) every action that needs it is visibly disabled with
the reason and the remedy, and stays disabled when its panel would enable it (issue 37)."""

from __future__ import annotations

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_tf_actions_disabled_with_reason_and_remedy(qtbot, window):
    from inspector.gui import tf_gate

    assert window.tf_gated == []            # this test environment has TensorFlow
    gated = tf_gate.apply(window, reachable=False)
    assert "Check outputs in TensorFlow" in gated and "Profile in TensorFlow" in gated
    assert "&Confirm with the converter" in gated and "&Run on a file…" in gated
    assert "Run recipes" in gated              # quantization recipes run in the worker
    button = window.preview_panel.check_button
    assert not button.isEnabled()
    assert "--tf-python" in button.toolTip() and "TensorFlow" in button.toolTip()
    button.setEnabled(True)                  # what a panel does when a model arrives
    assert not button.isEnabled()
    demo = next(a for m in window.menuBar().actions() if m.menu()
                for a in m.menu().actions() if a.text() == "&Run on a file…")
    demo.setEnabled(True)
    assert not demo.isEnabled() and "full build" in demo.toolTip()
    from PySide6.QtWidgets import QLabel

    badge = window.statusBar().findChild(QLabel, "tf_missing")
    assert badge.isVisible() and "--tf-python" in badge.toolTip()
    # what does not need TensorFlow stays usable
    assert window.mobile_panel.check_button.isEnabled()
    assert window.quant_panel.sens_button.text() not in gated   # pure numpy: not gated


def test_the_app_without_tensorflow_gates_and_with_tf_python_does_not():
    code = ("from PySide6.QtWidgets import QApplication; app = QApplication([])\n"
            "from inspector.gui.main_window import MainWindow; w = MainWindow()\n"
            "print(len(w.tf_gated))")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([os.path.join(ROOT, "tests", "no_qt"),
                                                       ROOT]),
               INSPECTOR_HIDE="tf", QT_QPA_PLATFORM="offscreen",
               INSPECTOR_SETTINGS="/dev/null")
    env.pop("INSPECTOR_TF_PYTHON", None)
    hidden = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            env=env, timeout=120)
    assert int(hidden.stdout.split()[-1]) >= 8, hidden.stderr
    env["INSPECTOR_TF_PYTHON"] = "/usr/bin/python3"    # a Python named for the worker
    named = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           env=env, timeout=120)
    assert named.stdout.split()[-1] == "0", named.stderr


def test_choosing_a_tensorflow_python_lifts_the_gate_and_is_saved(qtbot, window, tmp_path,
                                                                    monkeypatch):
    from inspector.gui import tf_gate, tf_python

    tf_gate.apply(window, reachable=False)
    button = window.preview_panel.check_button
    button.setEnabled(True)                       # the panel wants it on meanwhile
    assert not button.isEnabled()
    monkeypatch.setenv("INSPECTOR_TF_PYTHON", "")   # restored (absent) after the test
    monkeypatch.delenv("INSPECTOR_TF_PYTHON")
    errors = []
    window.error_shown.connect(errors.append)
    fake = tmp_path / "python"                    # a Python without TensorFlow: refused
    fake.write_text("#!/bin/sh\necho 'ModuleNotFoundError: no tensorflow' >&2\nexit 1\n")
    fake.chmod(0o755)
    got = []
    tf_python.choose(window, str(fake), got.append)
    qtbot.waitUntil(lambda: bool(got), timeout=30000)
    assert got == [None]
    assert errors and "cannot import tensorflow" in errors[-1] and not button.isEnabled()
    tf_python.choose(window, sys.executable, got.append)   # this one has TensorFlow
    qtbot.waitUntil(lambda: len(got) == 2, timeout=120000)
    version = got[-1]
    assert version and version[0].isdigit()
    assert button.isEnabled() and "Disabled" not in button.toolTip()
    from PySide6.QtWidgets import QLabel

    assert all(not b.isVisible() for b in window.statusBar().findChildren(QLabel, "tf_missing"))
    assert tf_python.saved(window.settings) == sys.executable
    assert os.environ["INSPECTOR_TF_PYTHON"] == sys.executable


def test_the_target_reports_run_is_gated_when_its_window_opens(qtbot, window):
    """Phone > Target report: LiteRT and Vela run in the TensorFlow worker, so without it the
    report's Run button says why and how (the window itself still opens)."""
    from inspector.gui import tf_gate

    tf_gate.apply(window, reachable=False)
    action = next(a for m in window.menuBar().actions() if m.menu()
                  for a in m.menu().actions() if a.text().startswith("Target &report"))
    assert action.isEnabled()
    action.trigger()
    view = window.targets.view
    assert view is not None and window.targets.dialog.isVisible()
    assert not view.run_button.isEnabled() and "--tf-python" in view.run_button.toolTip()
    view.run_button.setEnabled(True)             # what the view does after a report
    assert not view.run_button.isEnabled()
    assert tf_gate.lift(window) > 0
    assert view.run_button.isEnabled()


def test_a_program_that_is_not_python_is_refused_in_one_line(qtbot, window, tmp_path,
                                                               monkeypatch):
    """File > TensorFlow Python… answered with /usr/bin/true (exits 0, prints nothing) or
    /bin/echo (prints its arguments): one line says so, nothing is saved, the worker keeps its
    Python. Before, true raised IndexError out of the menu (crash.log, no word to the user)
    and echo's "-c import tensorflow…" was taken for a TensorFlow version and saved."""
    from PySide6.QtWidgets import QFileDialog

    from inspector.gui import tf_python

    monkeypatch.delenv("INSPECTOR_TF_PYTHON", raising=False)
    action = next(a for m in window.menuBar().actions() if m.menu()
                  for a in m.menu().actions() if a.text().startswith("TensorFlow &Python"))
    errors = []
    window.error_shown.connect(errors.append)
    for program in ("/usr/bin/true", "/bin/echo"):
        monkeypatch.setattr(QFileDialog, "getOpenFileName",
                            staticmethod(lambda *a, p=program, **k: (p, "")))
        before = len(errors)
        action.trigger()
        qtbot.waitUntil(lambda: len(errors) > before, timeout=30000)
        assert errors and program in errors[-1] and "is it a Python?" in errors[-1]
        assert "\n" not in errors[-1]
        assert tf_python.saved(window.settings) is None
        assert "INSPECTOR_TF_PYTHON" not in os.environ


def test_the_tensorflow_python_check_runs_off_the_gui_thread_and_stops_a_writer(
        qtbot, window, tmp_path, monkeypatch):
    """File > TensorFlow Python…'s check (an import of TensorFlow: seconds; up to 120 s)
    ran on the GUI thread with all of the program's output kept (review16: /usr/bin/yes
    would fill the memory for 120 s, a real TensorFlow froze the window for seconds). It runs
    in a task now: the menu returns at once, the window answers meanwhile, and a program
    that writes for ever is stopped with one line. Fails on the old code: the check ran
    inside the action (and the writer's 120 s timeout is not waited for here)."""
    import time

    from PySide6.QtWidgets import QFileDialog

    from inspector.gui import tf_python

    monkeypatch.setenv("INSPECTOR_TF_PYTHON", "")   # restored (absent) after the test
    monkeypatch.delenv("INSPECTOR_TF_PYTHON")
    used = []       # (not this process's worker: a fake Python there broke the later tests)
    monkeypatch.setattr(tf_python, "use", used.append)
    slow = tmp_path / "slow_python"        # answers after 3 s, as a TensorFlow import does
    slow.write_text("#!/bin/sh\nsleep 3\necho 2.99.0\n")
    slow.chmod(0o755)
    writer = tmp_path / "writer"
    writer.write_text("#!/bin/sh\nwhile :; do echo yyyyyyyyyyyyyyyyyyyyyyyy; done\n")
    writer.chmod(0o755)
    action = next(a for m in window.menuBar().actions() if m.menu()
                  for a in m.menu().actions() if a.text().startswith("TensorFlow &Python"))
    errors = []
    window.error_shown.connect(errors.append)
    monkeypatch.setattr(QFileDialog, "getOpenFileName",
                        staticmethod(lambda *a, **k: (str(slow), "")))
    start = time.monotonic()
    action.trigger()
    assert time.monotonic() - start < 1.0, "the check ran on the GUI thread"
    assert window.tasks.is_busy()
    qtbot.waitUntil(lambda: not window.tasks.is_busy(), timeout=30000)
    assert not errors and used == [str(slow)]
    assert tf_python.saved(window.settings) == str(slow)
    monkeypatch.setattr(QFileDialog, "getOpenFileName",
                        staticmethod(lambda *a, **k: (str(writer), "")))
    action.trigger()
    qtbot.waitUntil(lambda: bool(errors), timeout=30000)
    assert "wrote on and on" in errors[-1] and "\n" not in errors[-1]
    assert tf_python.saved(window.settings) == str(slow) and used == [str(slow)]


def test_the_tensorflow_python_check_of_hostile_programs_ends_and_leaves_nothing_running(
        qtbot, window, tmp_path, monkeypatch):
    """hostile17, through File > TensorFlow Python…: a program that closed its output and
    slept held the check's task for ever (its wait had no time limit, nor Cancel); one that
    answered and left a child holding its output was waited for to the time limit and
    called silent, and its child was left running; a 60 kB last line of its errors filled
    the dialog. Each ends now in one short line (or is taken), and nothing it started is
    left. Fails on the old code: the closed program's check never ends."""
    import os

    from PySide6.QtWidgets import QFileDialog

    from inspector.core.app import tf_python_check
    from inspector.gui import tf_python

    monkeypatch.setenv("INSPECTOR_TF_PYTHON", "")   # restored (absent) after the test
    monkeypatch.delenv("INSPECTOR_TF_PYTHON")
    used = []
    monkeypatch.setattr(tf_python, "use", used.append)
    monkeypatch.setattr(tf_python_check.tensorflow_version_of, "__defaults__", (4.0, None))
    pids = tmp_path / "pids"

    def program(name, body):
        path = tmp_path / name
        path.write_text("#!/bin/sh\n" + body)
        path.chmod(0o755)
        return str(path)

    closer = program("closer", f"echo $$ >> {pids}\nexec >&- 2>&-\nexec sleep 1000\n")
    parent = program("parent", f"sleep 1000 & echo $! >> {pids}\necho 2.99.0\n")
    loud = program("loud", "head -c 60000 /dev/zero | tr '\\0' e >&2\nexit 1\n")
    action = next(a for m in window.menuBar().actions() if m.menu()
                  for a in m.menu().actions() if a.text().startswith("TensorFlow &Python"))
    errors = []
    window.error_shown.connect(errors.append)
    for chosen, said in ((closer, "could not run it (no answer within 4 s)"),
                         (parent, None), (loud, "cannot import tensorflow: eeee")):
        monkeypatch.setattr(QFileDialog, "getOpenFileName",
                            staticmethod(lambda *a, chosen=chosen, **k: (chosen, "")))
        before = len(errors)
        action.trigger()
        qtbot.waitUntil(lambda: not window.tasks.is_busy(), timeout=30000)
        if said is None:
            assert len(errors) == before and used == [parent], errors[before:]
        else:
            assert len(errors) == before + 1 and said in errors[-1], errors[before:]
            assert "\n" not in errors[-1] and len(errors[-1]) < 500, len(errors[-1])

    def running(pid):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return open(f"/proc/{pid}/stat").read().split()[2] != "Z"

    started = [int(p) for p in pids.read_text().split()]
    assert len(started) == 2
    qtbot.waitUntil(lambda: not any(running(p) for p in started), timeout=10000)
