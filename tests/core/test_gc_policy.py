"""Garbage collection switching (core.app.gc_policy): paused while any user is inside, and
what survived a pause never makes the next collection long."""

import gc
import threading

from inspector.core.runtime import gc_policy


def test_collection_is_off_until_the_last_user_leaves():
    assert gc.isenabled()
    inside, leave = threading.Event(), threading.Event()

    def other():
        with gc_policy.paused():
            inside.set()
            leave.wait(10)

    thread = threading.Thread(target=other)
    with gc_policy.paused():
        thread.start()
        inside.wait(10)
        assert not gc.isenabled()
    assert not gc.isenabled()          # the other thread is still inside
    leave.set()
    thread.join(10)
    assert gc.isenabled()


def test_what_survived_a_pause_is_not_walked_by_the_next_collection():
    with gc_policy.paused():
        kept = [[i] for i in range(50_000)]       # what a long task leaves alive
    young = {id(o) for o in gc.get_objects(generation=0)}
    assert id(kept) not in young and id(kept[0]) not in young
    assert not any(kept[0] is o for g in range(3) for o in gc.get_objects(generation=g))
    made_after = [[1]]
    assert any(made_after[0] is o for o in gc.get_objects(generation=0))  # collected as ever
    del kept


def test_a_pause_that_does_not_freeze_leaves_its_objects_to_the_collector():
    """The TensorFlow worker's calls: what they leave is collected as usual (their graphs
    and sessions are reference cycles), not frozen."""
    with gc_policy.paused(freeze=False):
        cycle = [[]]
        cycle[0].append(cycle)
    assert any(cycle is o for g in range(3) for o in gc.get_objects(generation=g))
    del cycle
