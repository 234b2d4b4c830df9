"""File > Compare with… a file holding the same bytes as the open model: B is A's graph (not
parsed again, nothing matched), the comparison says equal and a node chosen on one side
selects itself on the other (issue 47)."""

import shutil

from PySide6.QtCore import QPointF, Qt
from test_gui import open_and_wait
from test_gui_compare import INCEPTION


def test_comparing_with_the_same_bytes_answers_from_the_bytes(qtbot, window, tmp_path,
                                                            monkeypatch):
    import inspector.core.compare.diff as diff

    a, b = tmp_path / "a.pb", tmp_path / "b.pb"
    shutil.copy(INCEPTION, a)
    shutil.copy(INCEPTION, b)
    open_and_wait(qtbot, window, str(a))
    calls = []
    real = diff.diff_graphs
    monkeypatch.setattr(diff, "diff_graphs", lambda *x, **k: calls.append(1) or real(*x, **k))
    ctl = window.compare_ctl
    ctl.compare_with(str(b))
    qtbot.waitUntil(lambda: bool(ctl.windows), timeout=60000)
    win = ctl.windows[-1]
    qtbot.addWidget(win)
    qtbot.waitUntil(win.ready, timeout=60000)
    s = win.session
    assert s.diff.equal and s.diff.quality["same_file_bytes"] and not calls
    assert s.graphs["B"] is s.graphs["A"] is window.state.model.graph
    assert s.diff.counts()["unchanged"] == len(window.state.model.graph)
    canvas = win.canvases["A"]
    name = next(i for i in canvas.items_by_id if not i.endswith("/"))
    node = canvas.items_by_id[name]
    canvas.centerOn(node.sceneBoundingRect().center())
    pos = canvas.mapFromScene(node.sceneBoundingRect().topLeft() + QPointF(10, 10))
    qtbot.mouseClick(canvas.viewport(), Qt.LeftButton, pos=pos)
    qtbot.waitUntil(lambda: not window.tasks.is_busy(), timeout=60000)
    assert s.selected["A"] == [name] and s.selected["B"] == [name]
