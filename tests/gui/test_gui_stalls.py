"""What the GUI thread does during a user's actions (issue 47's stall budget), counted rather
than timed: it starts no thread (Thread.start() waits for the new thread to get the GIL:
56-93 ms while another thread computes, bench/stall_watch.py on 300k nodes)."""

from __future__ import annotations

import os
import threading

from test_gui import open_and_wait, wait_drawn


def test_expand_search_select_and_constants_start_no_thread_on_the_gui_thread(
        qtbot, window, fx, monkeypatch):
    open_and_wait(qtbot, window, os.path.join(fx, "inception_jpeg.pb"))
    qtbot.waitUntil(lambda: window.state.summary is not None and not window.tasks.is_busy(),
                    timeout=60000)
    on_gui = []
    real = threading.Thread.start

    def start(self):
        if threading.current_thread() is threading.main_thread():
            on_gui.append(self.name)
        real(self)

    monkeypatch.setattr(threading.Thread, "start", start)
    before = window.scenes_drawn
    window.state.set_expanded("mixed", True)                    # a layout
    wait_drawn(qtbot, window, before)
    searches = window.search.searches
    window.search_panel.box.setText("Conv2D")                   # search as you type
    qtbot.waitUntil(lambda: window.search.searches > searches, timeout=20000)
    window.state.select("mixed/join")
    before = window.scenes_drawn
    window.consts_action.trigger()                              # another view, its layout
    wait_drawn(qtbot, window, before)
    qtbot.waitUntil(lambda: not window.tasks.is_busy(), timeout=60000)
    assert on_gui == []
