"""The task protocol (core.runtime.tasks) delivered on the GUI thread through a queued Qt signal."""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from inspector.core.runtime.tasks import Tasks


class _Poster(QObject):
    call = Signal(object)


def gui_tasks(parent: QObject) -> Tasks:
    """Tasks whose results, partials and progress run on the thread that owns `parent`."""
    poster = _Poster(parent)
    poster.call.connect(lambda fn: fn())  # queued when emitted from a worker thread

    def post(fn):
        try:
            poster.call.emit(fn)
        except RuntimeError:  # the window is gone (closing): nobody to tell
            pass

    tasks = Tasks(post)
    tasks.poster = poster  # keep it alive as long as the tasks
    return tasks
