"""Threads that are already running when work arrives: `start(fn, name)` hands fn to an idle
thread and returns at once. threading.Thread.start() waits until the new thread has run its
first lines, which needs the GIL: while another thread computes, the GUI thread waited there
56-93 ms (a layout or shapes request on a 300k-node graph, bench/stall_watch.py). A thread that
takes the last idle place starts the next spare itself (it waits for it, the caller does
not); spares beyond SPARE end after IDLE_SECONDS without work."""

from __future__ import annotations

import threading
import time
import traceback
from collections import deque

SPARE = 2                   # idle threads kept waiting beyond the first
IDLE_SECONDS = 60.0

_lock = threading.Lock()
_arrived = threading.Condition(_lock)
_queue: deque = deque()     # (fn, name, done Event)
_idle = 0                   # threads waiting for work
_starting = 0               # threads started that have not yet waited once
_running = 0                # threads running work now
_ended = threading.Condition(_lock)     # notified when a work or a daemon() thread ends
_own: set = set()           # daemon() threads not yet ended
started = 0                 # threads ever started (tests count them)


def start(fn, name: str) -> threading.Event:
    """fn() on a thread (named `name` while it runs); the Event is set once fn returned or
    raised (an exception is printed: catch it inside fn). Never waits for a thread to start,
    except the very first time (no thread yet: see warm)."""
    done = threading.Event()
    with _lock:
        _queue.append((fn, name, done))
        if _idle:
            _arrived.notify()
            return done
        if _starting:       # one on its way takes it
            return done
    _spawn()                # no thread at all yet (the first call) or all busy
    return done


def busy() -> bool:
    """Some work runs on these threads now (any window's request, quiet or not, cancelled
    or not): Qt work on the GUI thread made then waits for the GIL at each call into Python
    (a chart, a panel: 10-20 ms became ~100 ms). What can wait for a quiet moment asks this."""
    return _running > 0 or bool(_queue)


def warm() -> None:
    """Start a spare thread now (at a quiet moment, e.g. when a window is made), so that the
    first start() does not wait either."""
    with _lock:
        if _idle or _starting:
            return
    _spawn()


def daemon(fn, name: str) -> threading.Thread:
    """fn() on a new daemon thread of its own (started, and returned), which settle() waits
    for: for bounded work that must not queue behind a task (imports)."""
    def run():
        try:
            fn()
        finally:
            with _lock:
                _own.discard(thread)
                _ended.notify_all()

    thread = threading.Thread(target=run, name=name, daemon=True)
    with _lock:
        _own.add(thread)
    try:
        thread.start()
    except BaseException:
        with _lock:
            _own.discard(thread)
        raise
    return thread


def settle(seconds: float) -> bool:
    """Wait until no work runs on these threads (nor waits for one) and every daemon() thread
    has ended, at most `seconds`; True when so. Cancel the work first (Tasks.cancel_all).
    The app's end calls it before the interpreter is torn down: a daemon thread still running
    Python then is ended by the interpreter where it next waits for the GIL, and inside a C++
    frame (PySide making an enum for an import, emitting a signal) that unwound the frame's
    cleanups without the GIL while the main thread freed the modules: SIGSEGV at exit."""
    end = time.monotonic() + seconds
    with _lock:
        while _running or _queue or _own:
            left = end - time.monotonic()
            if left <= 0:
                return False
            _ended.wait(min(left, 0.5))
    return True


def _spawn() -> None:
    global _starting, started
    with _lock:
        _starting += 1
        started += 1
    threading.Thread(target=_loop, name="inspector-idle", daemon=True).start()


def _loop() -> None:
    global _idle, _starting, _running
    me = threading.current_thread()
    first = True
    while True:
        with _lock:
            if first:
                _starting -= 1
                first = False
            while not _queue:
                _idle += 1
                woke = _arrived.wait(IDLE_SECONDS)
                _idle -= 1
                if not woke and not _queue and _idle >= SPARE:
                    return
            fn, name, done = _queue.popleft()
            spare = _idle == 0 and _starting == 0
            _running += 1
        if spare:            # the next request finds a thread waiting
            _spawn()
        me.name = name
        try:
            fn()
        except BaseException:       # noqa: BLE001 - the thread lives on for the next work
            traceback.print_exc()
        finally:
            with _lock:
                _running -= 1
                _ended.notify_all()
            done.set()
            del fn, done     # nothing of the work stays referenced while idle
            me.name = "inspector-idle"
