"""A comparison window closed lets go of its comparison (review17)."""

import threading
import weakref

from test_gui import open_and_wait
from test_gui_compare import folded_copy, private_copy


def opened(qtbot, window, b: str):
    ctl = window.compare_ctl
    before = len(ctl.windows)
    ctl.compare_with(b)
    qtbot.waitUntil(lambda: len(ctl.windows) > before, timeout=60000)
    win = ctl.windows[-1]
    qtbot.waitUntil(win.ready, timeout=60000)
    return win


def test_a_closed_comparison_window_frees_its_comparison_off_the_gui_thread(qtbot, window,
                                                                            tmp_path):
    """Closed, a comparison window was hidden and kept by its controller with its
    comparison (a 550k-entry one: entries, three name maps and model B) until the app
    ended; freed with the window, that is one ~0.5 s C call on the GUI thread
    (perf17cmp's suspicion). Now the window is deleted and its comparison freed by
    letting_go on a thread of its own, in short calls; the next comparison opens as before.
    Fails on the old code: the comparison is never freed."""
    open_and_wait(qtbot, window, private_copy(tmp_path))
    b = folded_copy(tmp_path)
    ctl = window.compare_ctl
    win = opened(qtbot, window, b)
    freed = []
    weakref.finalize(win.session.diff, lambda: freed.append(
        threading.current_thread() is threading.main_thread()))
    win.close()
    del win
    qtbot.waitUntil(lambda: bool(freed), timeout=10000)
    assert freed == [False] and ctl.windows == []
    again = opened(qtbot, window, b)
    assert again.session.diff.entries and ctl.windows == [again]
    again.close()
    qtbot.waitUntil(lambda: ctl.windows == [], timeout=5000)


def test_a_closed_stages_window_lets_go_of_its_stages_off_the_gui_thread(qtbot, window,
                                                                        tmp_path):
    """Preview > All stages: closed, the lanes window was kept by the controller with every
    stage's graph and diff until the app ended (review17). Now it is deleted and its stages
    freed by letting_go on a thread of its own; its lanes' layouts are stopped. Fails on
    the old code: the stages are never freed."""
    from test_gui_lanes_fit import open_stages

    lanes = open_stages(qtbot, window, tmp_path)
    ctl = window.compare_ctl
    assert type(lanes).__name__ == "LanesWindow"
    freed = []
    weakref.finalize(lanes.session.diffs[0], lambda: freed.append(
        threading.current_thread() is threading.main_thread()))
    lanes.close()
    del lanes
    qtbot.waitUntil(lambda: bool(freed), timeout=10000)
    assert freed == [False] and ctl.windows == []
