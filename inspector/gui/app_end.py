"""The app's end (its event loop has returned: the last window closed, or the start-up bench's
exit at the first picture): the background work stops before the interpreter is torn down.

A daemon thread still running Python when the interpreter is torn down is ended by it where
it next waits for the GIL; inside a C++ frame (PySide making an enum while the later panels'
modules are imported, a task's thread emitting its result) that unwound the frame's cleanups
without the GIL while the main thread freed the modules: SIGSEGV at exit (test_gui_startup's
big-graph app, which exits at its first picture: 5 of 1,200 runs on the shared 2-core
machine). So every request is cancelled and the app waits for the threads
(core.runtime.threads.settle). A step no cancel reaches that is still
running after SETTLE_SECONDS: the process ends there without tearing the interpreter down.

The windows' settings are written before the wait, not after it: the app relaunched during
the wait reads them, and what it writes then is not overwritten by this process's end
(QSettings writes only the keys a process changed, at its sync or its teardown)."""

from __future__ import annotations

import os
import sys

from inspector.core.runtime import tasks, threads

SETTLE_SECONDS = 10.0


def end_background_work(code: int, windows=()) -> None:
    """Write the `windows`' settings, then cancel every window's requests and wait for their
    threads and the app's own (imports); returns once none runs, or ends the process with
    `code` after SETTLE_SECONDS."""
    write_settings(windows)       # now: a relaunch during the wait reads them, and keeps its own
    tasks.cancel_all()
    if threads.settle(SETTLE_SECONDS):
        return
    print(f"graphdef-inspector: background work still running {SETTLE_SECONDS:g} s after the "
          "window closed; ending without waiting for it", file=sys.stderr)
    end_now(code)


def write_settings(windows) -> None:
    """Every window's settings written to their file now (closeEvent's geometry, layout and
    task; nothing is left for the interpreter's teardown to write)."""
    for window in windows:
        try:
            window.settings.sync()
        except (AttributeError, RuntimeError):    # no settings, or a deleted window
            pass


def end_now(code: int) -> None:
    """End the process at once: the output flushed, but no teardown of the interpreter nor of
    Qt under the threads still running. Not even the exit handlers: PySide's deletes the
    application's objects (SIGSEGV under a thread emitting a signal); what they would do is
    left undone (a temporary copy's folder stays). The settings were written before the
    wait (write_settings): written again now, they could undo a relaunch's."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code)
