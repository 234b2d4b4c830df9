"""The one owner of process-wide garbage collection switching. A full collection over a big
graph's objects holds the GIL long enough to freeze the window, so long tasks and scene
building pause collection; the last one to finish turns it back on. Objects that live as long
as the model are frozen out of later collections."""

from __future__ import annotations

import gc
import threading

_lock = threading.Lock()
_users = 0


class paused:
    """`with paused():` no garbage collection until every user has left."""

    def __enter__(self):
        global _users
        with _lock:
            _users += 1
            gc.disable()
        return self

    def __exit__(self, *exc):
        global _users
        with _lock:
            _users -= 1
            if _users == 0:
                gc.enable()
        return False


def keep_out_of_collections() -> None:
    """Move everything alive now (a loaded model, a built scene) to the permanent generation."""
    gc.freeze()
