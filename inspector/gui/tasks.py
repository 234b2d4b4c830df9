"""The task protocol (core.runtime.tasks) delivered on the GUI thread through a queued Qt signal."""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from inspector.core.runtime.tasks import Tasks


class _Poster(QObject):
    call = Signal(object)


def gui_tasks(parent: QObject) -> Tasks:
    """Tasks whose results, partials and progress run on the GUI thread while `parent` lives.

    The poster has no Qt parent: a task thread may still post while the window is being
    deleted, and emitting on a QObject that Qt deletes meanwhile crashed the process (seen as
    a segfault in tests that close a window while its pipeline preview ran). It lives as long
    as the tasks; once `parent` is destroyed, what arrives is dropped on the GUI thread."""
    poster = _Poster()
    gone = []
    parent.destroyed.connect(lambda *_: gone.append(True))

    def deliver(fn):
        if not gone:
            fn()

    poster.call.connect(deliver)  # queued when emitted from a worker thread

    def post(fn):
        if gone:
            return
        try:
            poster.call.emit(fn)
        except RuntimeError:  # the application is shutting down: nobody to tell
            pass

    tasks = Tasks(post)
    tasks.poster = poster  # keep it alive as long as the tasks
    return tasks
