"""Issue 37 in the app: one app per session (a second launch hands its file over and the
running app opens it in a new window), the crash log in the XDG cache folder, Help > About
with the versions and licences of what is bundled."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(ROOT, "tests", "core", "data")


def launch(*args, **env):
    environ = dict(os.environ, PYTHONPATH=ROOT, QT_QPA_PLATFORM="offscreen", **env)
    return subprocess.Popen([sys.executable, "-m", "inspector", *args], env=environ,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_second_launch_hands_its_file_to_the_running_app(qtbot, tmp_path, monkeypatch):
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from inspector.gui.app import serve_later_launches

    name = f"gi-test-{uuid.uuid4().hex[:8]}"
    monkeypatch.setenv("INSPECTOR_INSTANCE_NAME", name)   # this test's own server
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.IniFormat)
    server = serve_later_launches(QApplication.instance(), settings)
    assert server is not None and server.listening()
    model = os.path.join(DATA, "v1_training.pb")
    second = launch(model, INSPECTOR_INSTANCE_NAME=name)   # a double-click, in effect
    try:
        qtbot.waitUntil(lambda: len(server.windows) == 1 and server.windows[0].state.model
                        is not None and not server.windows[0].tasks.is_busy(), timeout=60000)
        out, err = second.communicate(timeout=60)
    finally:
        if second.poll() is None:
            second.kill()
    assert second.returncode == 0, err
    assert "in the running app" in out
    window = server.windows[0]
    assert window.state.model.path == model and window.isVisible()
    window.tasks.cancel()
    window.tasks.wait(10.0)
    window.close()
    qtbot.waitUntil(lambda: not server.windows)       # closing frees it
    server.close()


def test_a_launch_with_no_running_app_starts_its_own(tmp_path):
    from inspector.gui.startup import single_instance

    assert not single_instance.hand_over(None, name=f"gi-none-{uuid.uuid4().hex[:8]}")
    assert not single_instance.wanted("offscreen")          # tests and CI: never shared


def test_crash_log_gets_uncaught_exceptions_in_qt_slots(tmp_path):
    code = ("import sys; from inspector import crash_log; crash_log.install()\n"
            "from PySide6.QtCore import QTimer; from PySide6.QtWidgets import QApplication\n"
            "app = QApplication([])\n"
            "def boom(): raise ValueError('boom in a slot')\n"
            "QTimer.singleShot(0, boom); QTimer.singleShot(300, app.quit); app.exec()\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60, env=dict(os.environ, PYTHONPATH=ROOT,
                                              XDG_CACHE_HOME=str(tmp_path),
                                              QT_QPA_PLATFORM="offscreen"))
    log = tmp_path / "graphdef-inspector" / "crash.log"
    text = log.read_text()
    assert "ValueError: boom in a slot" in text and "graphdef-inspector 0.1.0" in text
    assert str(log) in out.stderr                        # the user is told where


def test_crash_log_gets_a_hard_crash(tmp_path):
    code = "from inspector import crash_log; crash_log.install(); import ctypes; ctypes.string_at(0)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60, env=dict(os.environ, PYTHONPATH=ROOT,
                                              XDG_CACHE_HOME=str(tmp_path)))
    assert out.returncode != 0
    text = (tmp_path / "graphdef-inspector" / "crash.log").read_text()
    assert "Segmentation fault" in text and "string_at" in text


def test_help_about_lists_versions_and_licences(qtbot, window):
    from PySide6.QtWidgets import QLabel, QTableWidget

    from inspector.diagnostics import VERSION

    help_menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Help")
    about = next(a for a in help_menu.actions() if "About" in a.text())
    about.trigger()
    dialog = window.help_dialog
    qtbot.waitUntil(dialog.isVisible)
    text = dialog.findChild(QLabel, "about_text").text()
    assert VERSION in text and "offline" in text and "telemetry" in text
    table = dialog.findChild(QTableWidget, "about_parts")
    rows = {table.item(r, 0).text(): (table.item(r, 1).text(), table.item(r, 2).text())
            for r in range(table.rowCount())}
    for part in ("numpy", "protobuf", "Qt", "CPython"):
        assert part in rows and rows[part][0] and rows[part][1], part
    assert "LGPL" in rows["Qt"][1]
    dialog.close()
