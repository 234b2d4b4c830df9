"""Which C calls of the app's threads run long without a Python frame in between (so hold
the GIL the whole time, unless the call itself lets it go: numpy's big array loops, zlib,
file reads, sleeps and waits do). A profile hook (sys.setprofile) on every thread that
inspector.core.runtime.threads starts notes the time from each C call to the next event of
that thread (its return, or a Python function it calls back): stretches longer than
`threshold` are kept with their C function, the thread's name and the Python line that made
the call. The hook slows Python code ~2x; the C calls' own durations stay as they are, so
read which calls are long, not how long the whole work takes. Long waits (a lock, a sleep)
are told apart by the CPU the thread used in the stretch: a stretch counts by its CPU (at
least half the threshold); one with little CPU is a wait (the hook itself may wait for the
GIL after it read the clock).

    watch = Holds(0.005).install()   # before the work starts; bench/compare_gui_bench --c-holds
    ...
    print(watch.report(20))
"""

from __future__ import annotations

import sys
import threading
import time


class Holds:
    def __init__(self, threshold: float):
        self.threshold = threshold
        self.seen: dict = {}     # (thread, C function, caller line) -> [count, longest, cpu]
        self.lock = threading.Lock()

    def install(self) -> "Holds":
        from inspector.core.runtime import threads

        plain, watch = threads.start, self

        def start(fn, name):
            def profiled():
                sys.setprofile(watch._hook(name))
                try:
                    fn()
                finally:
                    sys.setprofile(None)
            return plain(profiled, name)

        threads.start = start
        return self

    def _hook(self, name: str):
        perf, cpu_of = time.perf_counter, time.thread_time
        state = {"at": None}
        threshold = self.threshold

        def hook(frame, event, arg):
            at = state["at"]
            if at is not None:
                took = perf() - at[0]
                if took >= threshold:
                    self._note(name, at[1], at[2], took, cpu_of() - at[3])
                state["at"] = None
            if event == "c_call":
                state["at"] = (perf(), arg, f"{frame.f_code.co_filename.split('inspector/')[-1]}"
                               f":{frame.f_lineno} {frame.f_code.co_name}", cpu_of())
        return hook

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
