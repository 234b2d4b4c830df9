"""The app's end while background work still runs (gui/app_end.py): the start-up bench's exit
at the first picture, and the user closing the window (e.g. while a big model loads). Its
threads (the later panels' imports, any window's tasks) are cancelled and waited for before
the interpreter is torn down: one still running Python under a C++ frame then (PySide making
an enum while importing a module, a task emitting its progress) was ended inside it and the
app died of SIGSEGV after "first frame drawn" (test_gui_startup's big-graph test in CI dry run
4; its app alone: 5 in 1,200 runs on the old code). Here the work runs long enough that the
old code fails every time (cut off at the exit, or SIGSEGV)."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid

import pytest

from conftest import ROOT

# at the first picture: background work of each kind the app has, each running Python
# called from C++ for WORK_SECONDS (a direct-connected slot of a signal emitted in a loop,
# as PySide's lazy enums run Python under its frames) and deaf to cancelling; once all of it
# runs, the app is ended the way argv[1] says
CHILD = r"""
import os, sys, time
from PySide6.QtCore import QObject, QTimer, Signal
import inspector.gui.app as app
from inspector.gui.startup.thread_then import on_thread_then
from inspector.gui.tasks import gui_tasks

WORK_SECONDS = 2.0
STUCK = sys.argv[2:] == ["stuck"]
if STUCK:
    from inspector.gui import app_end
    app_end.SETTLE_SECONDS = 3.0
running = []

from inspector.core.runtime import threads
settle = threads.settle


def said_settle(seconds):                          # the app's end starts waiting: said
    os.write(1, b"waiting\n")
    return settle(seconds)


threads.settle = said_settle


class Ping(QObject):
    ping = Signal(object)


def busy(name, seconds=WORK_SECONDS):
    def work(job=None):
        ping = Ping()
        seen = []
        ping.ping.connect(lambda value: seen.append(len(value)))
        running.append(name)
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            ping.ping.emit([1, 2, 3])
            if job is not None:
                job.progress(len(seen), 0, name)     # posted to the GUI thread through Qt
        os.write(1, f"{name} finished\n".encode())     # one write: lines never mix
    return work


def at_first_picture(window, qapp):
    def go():
        holder = QObject(window)
        other = gui_tasks(holder)                  # another window's tasks (a comparison's)
        works = 0
        for i in range(2):
            on_thread_then(busy(f"import {i}"), lambda: None, f"test-import-{i}")
            other.submit(f"kind {i}", busy(f"other task {i}"), lambda _: None)
            works += 2
        window.tasks.submit("layout", busy("window task", 0.2), lambda _: None)
        works += 1
        if STUCK:                                  # a step no cancel reaches, for long
            other.submit("stuck", busy("stuck task", 600.0), lambda _: None)
            works += 1

        def end_when_all_run():
            if len(running) < works:
                QTimer.singleShot(10, end_when_all_run)
                return
            os.write(1, b"ending\n")
            if sys.argv[1] == "close":
                window.close()                     # the user closes the window
            elif sys.argv[1] == "close-exit":      # closed and the loop left at once: the
                window.close()                     # settings' own write, posted, never ran
                qapp.exit(0)
            else:
                os.write(1, b"first frame drawn\n")
                qapp.exit(0)                       # INSPECTOR_EXIT_AFTER_FIRST_FRAME's end
        end_when_all_run()
    app.on_first_picture(window, go)


app.exit_after_first_frame = at_first_picture
code = app.main([])
os.write(1, f"main returned {code}\n".encode())
sys.exit(code)
"""

WORKS = ["import 0", "import 1", "other task 0", "other task 1", "window task"]


def _env(tmp_path) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "INSPECTOR_SINGLE_INSTANCE"}
    env.update(PYTHONPATH=ROOT, QT_QPA_PLATFORM="offscreen", INSPECTOR_EXIT_AFTER_FIRST_FRAME="1",
               INSPECTOR_INSTANCE_NAME=f"gi-end-{uuid.uuid4().hex[:8]}",
               INSPECTOR_SETTINGS=str(tmp_path / "settings.ini"),
               XDG_CACHE_HOME=str(tmp_path / "cache"))      # its own crash log
    return env


def _run(tmp_path, *args):
    return subprocess.run([sys.executable, "-c", CHILD, *args], cwd=str(tmp_path),
                          env=_env(tmp_path), capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("how", ["exit", "close"])
def test_the_app_ends_cleanly_while_its_background_work_runs(tmp_path, how):
    proc = _run(tmp_path, how)
    crash_log = tmp_path / "cache" / "graphdef-inspector" / "crash.log"
    assert proc.returncode == 0, (proc.stderr[-3000:], crash_log.read_text()[-3000:]
                                  if crash_log.exists() else "")
    lines = proc.stdout.splitlines()
    assert "ending" in lines and "main returned 0" in lines, (proc.stdout, proc.stderr)
    # every work ran to its end before main() returned (none was cut off at the exit)
    before = lines[:lines.index("main returned 0")]
    assert sorted(line for line in before if line.endswith(" finished")) == \
        [f"{name} finished" for name in WORKS]
    assert not crash_log.exists() or "Fatal Python error" not in crash_log.read_text()


def test_work_still_running_long_after_the_window_closed_ends_with_the_process(tmp_path):
    """A step that no cancel reaches, still running SETTLE_SECONDS (3 s here) after the
    window closed: the process ends there, with its exit code and the window's settings
    written, and without tearing the interpreter down under that thread."""
    proc = _run(tmp_path, "close", "stuck")
    assert proc.returncode == 0, proc.stderr[-3000:]
    lines = proc.stdout.splitlines()
    assert "ending" in lines and "stuck task finished" not in lines
    assert "main returned 0" not in lines            # ended inside main(), at once
    assert "background work still running 3 s after the window closed" in proc.stderr
    assert "geometry=" in (tmp_path / "settings.ini").read_text()   # closeEvent's, synced


# the app started again: what it writes to the settings file, through QSettings as the app does
RELAUNCHED = r"""
import sys
from PySide6.QtCore import QByteArray, QSettings
settings = QSettings(sys.argv[1], QSettings.IniFormat)
print(settings.value("task"))                    # what the closed window left it
settings.setValue("geometry", QByteArray(b"the relaunched window's"))
settings.setValue("task", "relaunched")
settings.sync()
"""


@pytest.mark.parametrize("how", ["close", "close-exit"])
def test_a_relaunch_during_the_wait_keeps_the_settings_it_wrote(tmp_path, how):
    """Regression (note12's review): the window's settings (closeEvent's geometry, layout,
    task) were written at the process's very end, after waiting up to SETTLE_SECONDS for
    work that no cancel reaches. The app relaunched during that wait read the old values,
    and what it wrote was then overwritten by the old process's end. They are written
    before the wait now: the relaunch reads them, and the old process writes nothing after.
    Two processes: the old app stuck in its wait (3 s here), the relaunch's writes in it."""
    from PySide6.QtCore import QSettings

    path = str(tmp_path / "settings.ini")
    old = subprocess.Popen([sys.executable, "-c", CHILD, how, "stuck"], cwd=str(tmp_path),
                           env=_env(tmp_path), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True)
    try:
        seen = []
        for line in old.stdout:                    # up to the start of the wait
            seen.append(line.strip())
            if seen[-1] == "waiting":
                break
        assert seen[-1:] == ["waiting"], seen
        read = subprocess.run([sys.executable, "-c", RELAUNCHED, path], env=_env(tmp_path),
                              check=True, timeout=60, capture_output=True, text=True).stdout
        rest, err = old.communicate(timeout=60)
    finally:
        if old.poll() is None:
            old.kill()
    assert old.returncode == 0, err[-3000:]
    assert "background work still running 3 s after the window closed" in err
    assert "main returned 0" not in rest            # it ended in its wait, after the writes
    assert read.split() == ["explore"], read         # the closed window's, to start from
    settings = QSettings(path, QSettings.IniFormat)
    assert settings.value("task") == "relaunched"
    assert bytes(settings.value("geometry")) == b"the relaunched window's"
