"""The one owner of process-wide garbage collection switching. A full collection over a big
graph's objects holds the GIL long enough to freeze the window, so long tasks and scene
building pause collection; the last one to finish turns it back on. Objects that live as long
as the model are frozen out of later collections.

What survived a pause is frozen too when it ends: left young, the first collection after it
would walk all of it in one go (50-70 ms after a search index or a view of 300k nodes, with
the GIL held, so the window paused that long). Freezing costs nothing, but a reference cycle
among frozen objects is never collected: whatever holds a model or a scene must not be in a
cycle (a nested function that schedules or disconnects itself is one). Measured: opening a
100k-node model, expanding scopes, then opening another left 33 objects in cycles; a test
checks that the first model and its scenes are freed."""

from __future__ import annotations

import gc
import threading

_lock = threading.Lock()
_users = 0
HOLD_TILL_EXIT = False   # set by the launcher when this process ends by os._exit (quick_exit)
_held: list = []


class paused:
    """`with paused():` no garbage collection until every user has left; the last one to
    leave freezes what survived unless it says freeze=False (the TensorFlow worker, which has
    no window to keep answering and collects after its long calls instead)."""

    def __init__(self, freeze: bool = True):
        self.freeze = freeze

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
                if self.freeze:
                    gc.freeze()
                gc.enable()
        return False


def hold_till_exit(*objects) -> None:
    """Keep a command's big objects (a diff's graphs, matching and entries) alive until the
    process ends by os._exit, where HOLD_TILL_EXIT says it will: left to the command's return,
    they were freed one by one first (300k-node pair: ~0.35 s, ~1 s on the slow class)."""
    if HOLD_TILL_EXIT:
        _held.append(objects)


def release_held() -> None:
    """What hold_till_exit kept, freed now (the process ends the usual way after all)."""
    _held.clear()


def keep_out_of_collections() -> None:
    """Move everything alive now (a loaded model, a built scene) to the permanent generation."""
    gc.freeze()


def give_back_memory() -> None:
    """Hand the heap's free pages back to the system (glibc's malloc_trim; nothing where
    there is none). Opening a big graph frees hundreds of MB of parse buffers between the
    objects it keeps; left to the allocator, they stay in the process's RSS."""
    import ctypes  # only once a big graph is open: 8 ms of import the start does not pay

    try:
        ctypes.CDLL(None).malloc_trim(0)
    except Exception:  # noqa: BLE001  (no glibc: macOS, Windows, musl)
        pass
