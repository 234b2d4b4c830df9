"""Where a big model's first picture goes, in both processes: the app started as
bench/startup_trace.py starts it (offscreen, exits at `first frame drawn`), with the stages
of the start-up reader process (its walk, each piece's columns, its sends) and of the
window's receive (each frame's add, its scope grouping, the waits for frames, what runs
after the last frame) timed: wall time from this script's start and the thread's CPU time.
Prints startup_trace's lines, then a table per process and thread (count, wall, CPU per
stage) and, with --timeline, every stage in time order.

  python bench/reader_trace.py [--timeline] MODEL
  bench/slow_class.py -- .venv/bin/python bench/reader_trace.py MODEL      (the slow class)"""

from __future__ import annotations

import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))

import startup_trace  # noqa: E402  (its T0: this script's start)

T0 = startup_trace.T0
EVENTS: list = []          # (start, end, cpu seconds, label, pid, thread name)
DEPTH: dict = {}
FIRST_FRAME: list = []     # when the app printed `first frame drawn`


def timed(owner, name: str, label: str | None = None) -> None:
    """owner.name timed at every call (nested calls of timed functions count in both)."""
    import threading

    inner = getattr(owner, name)
    label = label or name

    def traced(*args, **kwargs):
        t, c = time.perf_counter(), time.thread_time()
        try:
            return inner(*args, **kwargs)
        finally:
            EVENTS.append((t - T0, time.perf_counter() - T0, time.thread_time() - c, label,
                           os.getpid(), threading.current_thread().name))

    setattr(owner, name, traced)


def timed_frames(stream_class) -> None:
    """Stream.frames' waits: the time between asking for the next frame and getting it."""
    import threading

    inner = stream_class.frames

    def frames(self, *args, **kwargs):
        it = inner(self, *args, **kwargs)
        while True:
            t, c = time.perf_counter(), time.thread_time()
            try:
                frame = next(it)
            except StopIteration:
                return
            EVENTS.append((t - T0, time.perf_counter() - T0, time.thread_time() - c,
                           f"wait for frame {frame[0].decode() or 'end'}", os.getpid(),
                           threading.current_thread().name))
            yield frame

    stream_class.frames = frames


def patch() -> None:
    from inspector.core.loaders import (lazy_graphdef, reader_frames, reader_process,
                                        reader_sink, readers)
    from inspector.core.model import columns, graph, graph_index, node_store

    # the reader process (forked: these patches are its too)
    sink = reader_sink.SendingSink
    timed(sink, "cut", "reader: cut (columns + send)")
    timed(sink, "_columns", "reader: _columns")
    timed(columns, "read_wire", "read_wire")
    timed(graph_index, "append", "graph_index.append")
    timed(graph_index, "appended", "graph_index.appended")
    timed(lazy_graphdef, "read_fields", "reader: read_fields (whole walk)")
    inner_serve = reader_process.serve

    def serve(*args, **kwargs):
        try:
            return inner_serve(*args, **kwargs)
        finally:
            with open(f"/tmp/reader_trace.{os.getpid()}", "w") as fh:
                fh.write(repr([e for e in EVENTS if e[4] == os.getpid()]))

    reader_process.serve = serve
    # the window
    timed(reader_frames, "add", "window: reader_frames.add")
    timed(node_store.NodeStore, "add", "window: NodeStore.add")
    timed(graph_index, "take", "window: graph_index.take")
    timed(graph.Graph, "read_scopes_ahead", "window: read_scopes_ahead")
    timed(graph.Graph, "read_batch", "window: read_batch")
    timed(graph.Graph, "add_new_nodes", "window: add_new_nodes")
    timed(graph.Graph, "finish", "window: Graph.finish")
    timed(graph.Graph, "scope_tree", "Graph.scope_tree")
    timed(graph.Graph, "scope_ids", "Graph.scope_ids")
    timed(readers, "_receive", "window: readers._receive")
    timed(readers, "_check_graph_def", "window: _check_graph_def")
    timed(readers, "problems_of", "window: problems_of")
    timed_frames(reader_process.Stream)
    if os.environ.get("READER_TRACE_SAMPLE"):     # (a thread before the fork would make
        inner_receive = reader_process.receive      # the reader a subprocess)

        def receive(*args, **kwargs):
            if not SAMPLES:
                start_sampler(float(os.environ["READER_TRACE_SAMPLE"]))
            return inner_receive(*args, **kwargs)

        reader_process.receive = receive
    from inspector.gui import app as gui_app

    real_exit_after = gui_app.exit_after_first_frame

    def exit_after(window, qapp):      # the time of the `first frame drawn` line
        real_exit = qapp.exit

        def exit_(code=0):
            FIRST_FRAME.append(time.perf_counter() - T0)
            real_exit(code)

        qapp.exit = exit_
        real_exit_after(window, qapp)

    gui_app.exit_after_first_frame = exit_after
    import atexit

    atexit.register(report)


STACKS: list = []           # (when, thread name, innermost inspector frames)
SAMPLES: dict = {}          # thread name -> {function: samples holding it}, from the mark on


def start_sampler(from_ms: float) -> None:
    SAMPLES["started"] = {None: 0}
    """Every ~1 ms from `from_ms` (wall, from this script's start) on: each other thread's
    stack, counted per function (cumulative: once a sample however deep)."""
    import threading

    me = []

    def run():
        me.append(threading.get_ident())
        names = {}
        while True:
            time.sleep(0.001)
            if 1000 * (time.perf_counter() - T0) < from_ms:
                continue
            if not names or len(names) != threading.active_count():
                names = {t.ident: t.name for t in threading.enumerate()}
            for ident, frame in sys._current_frames().items():
                if ident == me[0]:
                    continue
                seen, counts = set(), SAMPLES.setdefault(names.get(ident, ident), {})
                counts[None] = counts.get(None, 0) + 1
                inner, f = [], frame
                while f is not None and len(inner) < 3:
                    if "/inspector/" in f.f_code.co_filename:
                        inner.append(f"{os.path.basename(f.f_code.co_filename)[:-3]}."
                                     f"{f.f_code.co_name}")
                    f = f.f_back
                if inner and "wait" not in inner[0] and "_loop" not in inner[0]:
                    STACKS.append((time.perf_counter() - T0, names.get(ident, ident),
                                   " < ".join(inner)))
                while frame is not None:
                    code = frame.f_code
                    key = f"{os.path.basename(code.co_filename)}:{code.co_name}"
                    if key not in seen:
                        seen.add(key)
                        counts[key] = counts.get(key, 0) + 1
                    frame = frame.f_back

    threading.Thread(target=run, name="trace-sampler", daemon=True).start()


def report() -> None:
    if STACKS:        # per 10 ms and thread: the innermost frames seen most
        buckets: dict = {}
        for t, thread, inner in STACKS:
            b = buckets.setdefault((int(100 * t), str(thread)), {})
            b[inner] = b.get(inner, 0) + 1
        for (b, thread), seen in sorted(buckets.items()):
            top = max(seen, key=seen.get)
            print(f"{10 * b:6d} ms {str(thread)[:18]:<18} {seen[top]:3d}/{sum(seen.values()):<3d}"
                  f" {top}")
    for thread, counts in SAMPLES.items():
        total = counts.pop(None)
        print(f"-- {thread}: {total} samples")
        for key, n in sorted(counts.items(), key=lambda kv: -kv[1])[:30]:
            print(f"{n:6d} {key}")
    events = list(EVENTS)
    me = os.getpid()
    for name in os.listdir("/tmp"):
        if name.startswith("reader_trace."):
            path = os.path.join("/tmp", name)
            try:
                with open(path) as fh:
                    events += eval(fh.read())       # noqa: S307  (our own repr)
                os.remove(path)
            except (OSError, SyntaxError):
                pass
    groups: dict = {}
    for start, end, cpu, label, pid, thread in events:
        key = ("window" if pid == me else f"reader {pid}", thread, label)
        g = groups.setdefault(key, [0, 0.0, 0.0, start, end])
        g[0] += 1
        g[1] += end - start
        g[2] += cpu
        g[3], g[4] = min(g[3], start), max(g[4], end)
    print(f"{'process/thread':<34}{'stage':<40}{'n':>4}{'wall ms':>9}{'cpu ms':>8}"
          f"{'first':>7}{'last':>7}")
    for (proc, thread, label), (n, wall, cpu, first, last) in sorted(
            groups.items(), key=lambda kv: (kv[0][0], kv[1][3])):
        print(f"{proc + ' ' + thread:<34.34}{label:<40.40}{n:>4}{1000 * wall:>9.0f}"
              f"{1000 * cpu:>8.0f}{1000 * first:>7.0f}{1000 * last:>7.0f}")
    critical_path(events, me)
    if "--timeline" in sys.argv[1:] or os.environ.get("READER_TRACE_TIMELINE"):
        for start, end, cpu, label, pid, thread in sorted(events):
            who = "W" if pid == me else "R"
            print(f"{1000 * start:7.0f} {1000 * end:7.0f} {1000 * cpu:6.1f} {who} "
                  f"{thread[:16]:<16} {label}")


def critical_path(events: list, me: int) -> None:
    """Which side the first picture waited for: the reader's last frame sent against the
    window's last frame added (the window after the reader: the window's receive is the
    long side; a few ms: the reader is), the frames sent before the window's receive began
    (its backlog), and how long the first picture took after the receive."""
    def ends(label, pid_is_me):
        return sorted(e[1] for e in events if e[3] == label and (e[4] == me) == pid_is_me)

    sent = ends("reader: cut (columns + send)", False)
    added = ends("window: reader_frames.add", True)
    received = [(e[0], e[1]) for e in events if e[3] == "window: readers._receive"]
    if not sent or not added or not received:
        return
    begin, end = received[0]
    print(f"critical path: reader's last frame sent at {1000 * sent[-1]:.0f} ms, the "
          f"window's last added at {1000 * added[-1]:.0f} ms ({1000 * (added[-1] - sent[-1]):+.0f}"
          f" ms); the receive began at {1000 * begin:.0f} ms with "
          f"{sum(t <= begin for t in sent)} of {len(sent)} frames sent, ended at "
          f"{1000 * end:.0f} ms; the first frame drawn " + (
              f"{1000 * (FIRST_FRAME[0] - end):.0f} ms after, at {1000 * FIRST_FRAME[0]:.0f} ms"
              if FIRST_FRAME else "not seen"))


if __name__ == "__main__":
    if "--timeline" in sys.argv:
        sys.argv.remove("--timeline")
        os.environ["READER_TRACE_TIMELINE"] = "1"
    patch()
    startup_trace.main()
