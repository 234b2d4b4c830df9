"""Which C calls of the app's threads run long without a Python frame in between (so hold
the GIL the whole time, unless the call itself lets it go: numpy's big array loops, zlib,
file reads, sleeps and waits do). A profile hook (sys.setprofile) on every thread that
inspector.core.runtime.threads starts notes the time from each C call to the next event of
that thread (its return, or a Python function it calls back): stretches longer than
`threshold` are kept with their C function, the thread's name and the Python line that made
the call. A stretch in which a ticking thread (0.5 ms sleeps) ran more than twice is left
out: the call let the GIL go (numpy's sorts of numbers do). The hook slows Python code ~2x; the C calls' own durations stay as they are, so
read which calls are long, not how long the whole work takes. Long waits (a lock, a sleep)
are told apart by the CPU the thread used in the stretch: a stretch counts by its CPU (at
least half the threshold); one with little CPU is a wait (the hook itself may wait for the
GIL after it read the clock).

    watch = Holds(0.005).install()   # before the work starts; bench/compare_gui_bench --c-holds
    ...
    print(watch.report(20))
"""

from __future__ import annotations

import os
import sys
import threading
import time


def _where(frame, line: int) -> str:
    """The calling line, and the nearest line of ours above it where the call is in a
    library (numpy's unique called from ours)."""
    text = f"{frame.f_code.co_filename.split('inspector/')[-1]}:{line} {frame.f_code.co_name}"
    up = frame
    while up is not None and "/inspector/" not in up.f_code.co_filename:
        up = up.f_back
    if up is not None and up is not frame:
        text += (f" <- {up.f_code.co_filename.split('inspector/')[-1]}:{up.f_lineno} "
                 f"{up.f_code.co_name}")
    return text


class Holds:
    def __init__(self, threshold: float):
        self.threshold = threshold
        self.seen: dict = {}     # (thread, C function, caller line) -> [count, longest, cpu]
        self.lock = threading.Lock()
        self.ticks = [0]         # a thread's count of 0.5 ms sleeps: what a C call that lets
        #                          the GIL go leaves it free to do (told apart from holds)

    def _tick(self) -> None:
        ticks, sleep = self.ticks, time.sleep
        while True:
            sleep(0.0005)
            ticks[0] += 1

    def install(self) -> "Holds":
        from inspector.core.runtime import threads

        plain, watch = threads.start, self

        lines = os.environ.get("GIL_HOLDS_LINES") == "1"

        def start(fn, name):
            def profiled():
                if lines:
                    sys.settrace(watch._line_hook(name))
                else:
                    sys.setprofile(watch._hook(name))
                try:
                    fn()
                finally:
                    sys.setprofile(None)
                    sys.settrace(None)
            return plain(profiled, name)

        threads.start = start
        threading.Thread(target=self._tick, daemon=True, name="gil-holds-tick").start()
        return self

    def _hook(self, name: str):
        perf, cpu_of = time.perf_counter, time.thread_time
        state = {"at": None}
        threshold, ticks = self.threshold, self.ticks

        def hook(frame, event, arg):
            at = state["at"]
            if at is not None:
                took = perf() - at[0]
                if took >= threshold and ticks[0] - at[5] <= 2:     # the GIL kept throughout
                    self._note(name, at[1], _where(at[2], at[4]), took, cpu_of() - at[3])
                state["at"] = None
            if event == "c_call":
                state["at"] = (perf(), arg, frame, cpu_of(), frame.f_lineno, ticks[0])
        return hook

    def _line_hook(self, name: str):
        """GIL_HOLDS_LINES=1: the thread's CPU between two traced lines (what a C call, a
        collection or a big object freed took, with no Python line between), kept where
        the ticking thread did not run meanwhile: the GIL held."""
        cpu_of, threshold, ticks = time.thread_time, self.threshold, self.ticks
        state = {"at": (cpu_of(), None, 0, ticks[0])}

        def trace(frame, event, arg):
            now = cpu_of()
            at = state["at"]
            if now - at[0] >= threshold and ticks[0] - at[3] <= 2 and at[1] is not None:
                self._note(name, "(between lines)", _where(at[1], at[2]), now - at[0],
                           now - at[0])
            state["at"] = (cpu_of(), frame, frame.f_lineno, ticks[0])
            return trace
        return trace

    def _note(self, name, func, where, took, cpu) -> None:
        key = (name, getattr(func, "__qualname__", repr(func)), where)
        with self.lock:
            got = self.seen.setdefault(key, [0, 0.0, 0.0, 0.0])
            got[0] += 1
            got[3] += took
            if cpu > got[2]:
                got[1], got[2] = took, cpu

    def report(self, top: int = 20) -> str:
        ranked = sorted(((k, v) for k, v in self.seen.items() if v[2] >= self.threshold / 2),
                        key=lambda kv: -kv[1][2])[:top]
        lines = [f"  {longest * 1000:6.1f} ms (CPU {cpu * 1000:5.1f}) x{count:<4d} "
                 f"sum {total * 1000:7.1f}  {func:28s} {where}  [{name}]"
                 for (name, func, where), (count, longest, cpu, total) in ranked]
        return "\n".join(lines)
