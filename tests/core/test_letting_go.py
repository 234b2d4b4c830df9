"""letting_go: a big structure freed in short calls, so other threads run while it is freed
(review17: freed in one C call, a 550k-entry comparison held the GIL ~0.5 s, and so the
window, on whichever thread it was dropped)."""

import sys
import threading
import weakref

from inspector.core.compare.records import Diff, Entry, Matching
from inspector.core.runtime import letting_go


def Doc(n):
    """A comparison as a saved one reads back: n entries, three n-name maps."""
    m = Matching()
    for i in range(n):
        m.pair(f"a/{i}", f"b/{i}", "name")
    entries = [Entry("changed", f"a/{i}", f"b/{i}", "Conv2D", "Conv2D", "name", 1.0,
                     [f"attr {i}"]) for i in range(n)]
    return Diff("A", "B", entries, 0, m, [], {"nodes": [n, n]}, {}, [[list(range(50))] * 3],
                {})


def freed_seen(free) -> set:
    """How far along another thread saw `free(box)` free box's Doc (how many of 400 of its
    entries were gone), sampled as it ran, the states between none and all: a free in one C
    call holds the GIL throughout, so the other thread sees none gone or all (each sample is
    one C call too)."""
    box = [Doc(200_000)]
    refs = [weakref.ref(e) for e in box[0].entries[::500]]
    seen, stop, ready = set(), threading.Event(), threading.Event()
    alive = weakref.ref.__call__

    def other():
        ready.set()
        while not stop.is_set():
            seen.add(list(map(alive, refs)).count(None))

    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)
    t = threading.Thread(target=other)
    t.start()
    ready.wait(5)
    try:
        free(box)
    finally:
        stop.set()
        t.join()
        sys.setswitchinterval(old)
    assert all(r() is None for r in refs)    # (after the samples, which hold what they read)
    return seen - {0, len(refs)}


def test_a_big_structure_is_freed_in_short_calls_and_another_thread_runs_meanwhile():
    assert not freed_seen(lambda box: box.clear())      # the old way (the test can fail)
    assert freed_seen(lambda box: letting_go.free_in_steps(box.pop()))


def test_what_is_held_elsewhere_is_left_whole():
    doc = Doc(1000)
    kept_list, kept_pair, kept_parts = doc.entries, doc.entries[5], doc.groups[0]
    letting_go.free_in_steps(doc)     # (the local doc still holds it: nothing emptied)
    assert len(doc.entries) == 1000 and doc.matching.a_of
    box = [doc]
    del doc
    letting_go.free_in_steps(box.pop())
    assert len(kept_list) == 1000 and kept_pair.a == "a/5"   # its list was held: untouched
    assert len(kept_parts) == 3 and len(kept_parts[0]) == 50


def test_let_go_waits_for_the_last_other_holder():
    doc = Doc(1000)
    entries = doc.entries
    held = [doc]
    thread = letting_go.let_go(doc)
    del doc
    thread.join(0.3)
    assert thread.is_alive() and len(entries) == 1000       # held: not touched
    held.clear()
    thread.join(5)
    assert not thread.is_alive()
    assert len(entries) == 1000      # our reference to the list kept it whole; the rest went
