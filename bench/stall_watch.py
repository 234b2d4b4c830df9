"""Where the GUI thread stalls: opens a model as the app does, runs the scale bench's actions
and prints, per action, the longest time the GUI thread did not answer a 10 ms timer and the
Python stacks it was in when it was late (sampled by a thread every 5 ms).

The open is watched until the first picture, then the 10 s after it (the settle: warm-ups,
panels built later, collections), then each action.

    .venv/bin/python bench/stall_watch.py MODEL.pb [--late-ms 60] [--stacks 3] [--native]
                                               [--gil-ms 5] [--open-at-once] [--depth 8]
                                               [--compare B [--no-actions]]

A stall with no Python frame of ours on top is Qt's own work (painting, layout) or the GIL
held by another thread: the stacks of the other threads at that moment are printed too, and
with --native (needs `pip install py-spy`) the GUI thread's native stack, which tells the two
apart (a wait for the GIL shows take_gil). Dumping pauses the process: with --native, read
where the stalls are, not how long they last.

--gil-ms N also prints, per action, where other threads held the GIL for N ms or more in one
go (a thread that sleeps 1 ms and notes how late it woke; the holder's stack is taken when the
GIL comes back, so its top line is the long call or the one after it). Each Qt call the GUI
thread makes into Python waits that long: a few such holds make a stall. Below about 6 ms it
reports noise (the waking thread itself waits up to a switch interval). A hold in which the
process used less than half the time in CPU is left out (the machine ran other work).

Each action's longest stall comes with the CPU the process and the GUI thread used in it: on
a loaded machine a stall with little CPU is the machine's, not ours.

--compare B then opens the diff window through File > Compare with B and watches its
actions (scale_app.compare_actions); --no-actions / --actions a,b pick the main window's."""

from __future__ import annotations

import argparse
import os
import sys
import threading
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class Watch:
    """A 10 ms timer on the GUI thread and a sampling thread that keeps the stacks seen while
    the timer was late, per action."""

    def __init__(self, late: float, native: bool = False, sample: bool = True,
                 depth: int = 8):
        """`sample`: run the stack-sampling thread (it takes the GIL every 5 ms while the
        GUI thread is late, which makes those stalls longer: off for the figures alone)."""
        from PySide6.QtCore import QTimer

        self.late, self.action, self.native, self.depth = late, "open", native, depth
        self.last, self.last_cpu = time.perf_counter(), time.process_time()
        self.worst: dict = {}
        self.worst_busy: dict = {}    # action -> longest gap in which the process used at
        #                               least half the CPU one thread's share allows (ours,
        #                               not the machine's: a loaded machine's stalls drop out)
        self.share = float(os.environ.get("SLOW_CLASS_SHARE", "1"))
        self.over: dict = {}          # action -> [waits over 50 ms, of them with it busy]
        self.cpu_of_worst: dict = {}  # action -> (process, GUI thread) CPU s in its worst gap
        self.threads_of_worst: dict = {}  # action -> {thread name: CPU s in its worst gap}
        self.where_of_worst: dict = {}    # action -> the busy threads' stacks as it ended
        self.fds: dict = {}           # native thread id -> its open schedstat
        self.fds_at = 0.0
        self.ran = self.cpu_of_threads()
        self.stacks: dict = {}        # action -> {stack text: longest lateness seen in it}
        self.holds: dict = {}         # action -> {stack text: longest GIL hold} (--gil-ms)
        self.gui = threading.get_ident()
        self.timer = QTimer()
        self.timer.timeout.connect(self._beat)
        self.timer.start(10)
        self.running = True
        if sample:
            threading.Thread(target=self._sample, daemon=True, name="stall-watch").start()

    def _beat(self) -> None:
        now, cpu, own = time.perf_counter(), time.process_time(), time.thread_time()
        ran = self.cpu_of_threads()
        gap = now - self.last
        busy = cpu - self.last_cpu >= gap * self.share / 2
        if busy and gap > self.worst_busy.get(self.action, 0.0):
            self.worst_busy[self.action] = gap
        if gap >= 0.05:
            counts = self.over.setdefault(self.action, [0, 0])
            counts[0] += 1
            counts[1] += busy
        if gap > self.worst.get(self.action, 0.0):
            self.worst[self.action] = gap
            self.cpu_of_worst[self.action] = (cpu - self.last_cpu,
                                              own - getattr(self, "last_own", own))
            self.threads_of_worst[self.action] = _named(
                {t: ran[t] - self.ran.get(t, 0) for t in ran if ran[t] > self.ran.get(t, 0)})
            me = threading.get_ident()    # where the other threads are as the gap ends
            self.where_of_worst[self.action] = "".join(
                f"  [{_name_of(tid)}]\n" + _stack(f, 4)
                for tid, f in sys._current_frames().items()
                if tid != me and "inspector/" in _stack(f, 4) and
                "_arrived.wait" not in _stack(f, 4))
        self.ran = ran
        self.last, self.last_cpu, self.last_own = now, cpu, own

    def cpu_of_threads(self) -> dict:
        """Native thread id -> CPU seconds it ran so far (/proc/self/task/*/schedstat, in
        ns; the files kept open, the list of threads read again every 0.5 s)."""
        now = time.perf_counter()
        if now - self.fds_at > 0.5:
            self.fds_at = now
            try:
                tids = {int(t) for t in os.listdir("/proc/self/task")}
            except OSError:
                tids = set()
            for gone in set(self.fds) - tids:
                os.close(self.fds.pop(gone))
            for tid in tids - set(self.fds):
                try:
                    self.fds[tid] = os.open(f"/proc/self/task/{tid}/schedstat", os.O_RDONLY)
                except OSError:
                    pass
        ran = {}
        for tid, fd in self.fds.items():
            try:
                ran[tid] = int(os.pread(fd, 100, 0).split()[0]) / 1e9
            except (OSError, ValueError, IndexError):
                pass
        return ran

    def threads_line(self, action: str) -> str:
        """The CPU each thread used in the action's worst gap (the GUI thread's own work,
        a task's, the stall watcher's), busiest first."""
        seen = sorted(self.threads_of_worst.get(action, {}).items(), key=lambda kv: -kv[1])
        return ", ".join(f"{name} {1000 * s:.0f}" for name, s in seen if s >= 0.0005)

    def _sample(self) -> None:
        while self.running:
            time.sleep(0.005)
            late = time.perf_counter() - self.last
            if late < self.late:
                continue
            frames = sys._current_frames()
            text = _stack(frames.get(self.gui), self.depth)
            if "inspector/" not in text:       # Qt's own work, or the GIL held elsewhere
                text += "".join(f"  [thread {tid}]\n" + _stack(f, 4)
                                for tid, f in frames.items()
                                if tid not in (self.gui, threading.get_ident()))
                if self.native:
                    text += _native_gui_stack()
            seen = self.stacks.setdefault(self.action, {})
            seen[text] = max(seen.get(text, 0.0), late)

    def watch_gil(self, hold: float) -> None:
        """Note the stacks of the threads that kept the GIL for `hold` seconds or more."""

        # on the slow class (bench/slow_class.py) each thread runs a share of its time
        share = float(os.environ.get("SLOW_CLASS_SHARE", "1"))

        def run():
            me = threading.get_ident()
            while self.running:
                t, cpu = time.perf_counter(), time.process_time()
                time.sleep(0.001)
                late = time.perf_counter() - t - 0.001
                if late < hold or time.process_time() - cpu < late / 2 * share:
                    continue        # not long, or the machine ran other work meanwhile
                frames = sys._current_frames()
                text = "".join(f"  [thread {'GUI' if tid == self.gui else tid}]\n" +
                               _stack(f, 3) for tid, f in frames.items() if tid != me)
                seen = self.holds.setdefault(self.action, {})
                seen[text] = max(seen.get(text, 0.0), late)

        threading.Thread(target=run, daemon=True, name="gil-watch").start()
        import gc

        started = {}

        def collected(phase, info):     # collections hold the GIL too: note the long ones
            if phase == "start":
                started["t"] = time.perf_counter()
                return
            took = time.perf_counter() - started.get("t", time.perf_counter())
            if took >= hold:
                text = (f"  [garbage collection of generation {info['generation']} in "
                        f"{threading.current_thread().name}, {info['collected']} freed]\n")
                seen = self.holds.setdefault(self.action, {})
                seen[text] = max(seen.get(text, 0.0), took)

        gc.callbacks.append(collected)


def _named(ran: dict) -> dict:
    names = {t.native_id: t.name for t in threading.enumerate()}
    names[os.getpid()] = "GUI"
    return {names.get(tid, f"native {tid}"): s for tid, s in ran.items()}


def _name_of(ident: int) -> str:
    return next((t.name for t in threading.enumerate() if t.ident == ident), str(ident))


def _native_gui_stack(limit: int = 14) -> str:
    """The main thread's native and Python frames, from py-spy (innermost first)."""
    import subprocess

    try:
        out = subprocess.run(["py-spy", "dump", "--native", "--pid", str(os.getpid())],
                             capture_output=True, text=True, timeout=20).stdout
    except (OSError, subprocess.SubprocessError) as exc:
        return f"  (py-spy: {exc})\n"
    pid = os.getpid()      # the main thread's id is the process id ("Thread 123 (active)")
    block = out.split(f"Thread {pid} ", 1)[-1].split("\nThread ", 1)[0].splitlines()
    return "  [native, innermost first]\n" + "\n".join(block[:limit]) + "\n"


def _stack(frame, limit: int = 8) -> str:
    if frame is None:
        return "  (no Python frame)\n"
    return "".join(traceback.format_stack(frame)[-limit:])


def main() -> None:
    if os.environ.get("PYTHONDONTWRITEBYTECODE"):     # run as an install: compiled (bench/ab.py)
        from bench import ab

        os.execve(sys.executable, [sys.executable] + sys.argv, ab.env(ab.ROOT))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model")
    parser.add_argument("--late-ms", type=float, default=60.0)
    parser.add_argument("--stacks", type=int, default=3)
    parser.add_argument("--native", action="store_true",
                        help="add the GUI thread's native stack (py-spy) to stalls in Qt")
    parser.add_argument("--open-at-once", action="store_true",
                        help="open before the window's first paint (the app waits for it)")
    parser.add_argument("--depth", type=int, default=8,
                        help="frames of the GUI thread's stack printed per stall")
    parser.add_argument("--compare", metavar="B",
                        help="then compare with B through the window's Compare entry point "
                             "and watch the diff window's actions (scale_app.compare_actions)")
    parser.add_argument("--no-actions", action="store_true",
                        help="skip the main window's actions (expand, search, ...)")
    parser.add_argument("--actions", default="",
                        help="only these of the main window's actions (comma list; also "
                             "'expand all scopes', 'collapse all scopes')")
    parser.add_argument("--gil-ms", type=float, default=0.0,
                        help="print where other threads held the GIL this long in one go")
    args = parser.parse_args()
    from bench.scale_app import actions, compare_actions, open_app

    app, win, _client, restore = open_app(args.model)
    from bench.heartbeat import wait

    if args.native:    # py-spy is run by its name: the venv's bin first on the path
        os.environ["PATH"] = os.path.dirname(sys.executable) + os.pathsep + \
            os.environ.get("PATH", "")
    watch = Watch(args.late_ms / 1000, args.native, depth=args.depth)
    if args.gil_ms:
        watch.watch_gil(args.gil_ms / 1000)
    from inspector.gui.app import open_once_painted

    if args.open_at_once:
        win.open_path(args.model)
    else:
        open_once_painted(win, args.model)    # as the app's start does
    wait(app, lambda: win.scenes_drawn > 0)
    watch.action, painted = "settle (10 s after the first picture)", time.perf_counter()
    watch.last, watch.last_cpu = painted, time.process_time()
    wait(app, lambda: win.state.summary is not None and not win.tasks.is_busy(), timeout=900)
    wait(app, lambda: time.perf_counter() > painted + 10.0, timeout=900)
    todo = [] if args.no_actions else [a for a in actions(win, bool(args.actions))
                                       if not args.actions or
                                       a[0] in args.actions.split(",")]
    if args.compare:
        todo += compare_actions(win, args.compare)
    for name, action, done in todo:
        watch.action = name
        watch.last, watch.last_cpu = time.perf_counter(), time.process_time()
        action()
        wait(app, done)
        wait(app, lambda: not win.tasks.is_busy(), timeout=900)
    watch.running = False
    for name, worst in watch.worst.items():
        cpu, own = watch.cpu_of_worst.get(name, (0.0, 0.0))
        print(f"== {name}: longest stall {worst * 1000:.0f} ms (CPU in it: the process "
              f"{cpu * 1000:.0f} ms, the GUI thread {own * 1000:.0f} ms; much less than the "
              "stall: the machine ran other work)")
        print(f"   CPU per thread in it (ms): {watch.threads_line(name)}")
        ranked = sorted(watch.stacks.get(name, {}).items(), key=lambda kv: -kv[1])
        for text, late in ranked[:args.stacks]:
            print(f"-- late {late * 1000:.0f} ms in:\n{text}")
        holds = sorted(watch.holds.get(name, {}).items(), key=lambda kv: -kv[1])
        for text, late in holds[:args.stacks]:
            print(f"-- GIL held {late * 1000:.0f} ms, then:\n{text}")
    win.close()
    restore()
    sys.stdout.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
