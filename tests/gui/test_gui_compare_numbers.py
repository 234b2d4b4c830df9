"""File > Compare with… shows the diff's own figures and verdicts: a .tflite's file bytes,
why the size changed, unrelated models called so (issue 45, items 4, 5, 9)."""

import os
import shutil

from test_gui import open_and_wait

from conftest import DATA, DEMO


def compared(qtbot, window, path):
    ctl = window.compare_ctl
    before = len(ctl.windows)
    ctl.compare_with(path)
    qtbot.waitUntil(lambda: len(ctl.windows) > before, timeout=60000)
    win = ctl.windows[-1]
    qtbot.addWidget(win)
    qtbot.waitUntil(win.ready, timeout=60000)
    return win


def test_the_window_shows_file_bytes_the_size_note_and_the_unrelated_verdict(qtbot, window,
                                                                          tmp_path):
    from inspector.core.runtime.executor import tensorflow

    demo = tmp_path / "demo.pb"                  # the window writes its session beside it
    shutil.copy(DEMO, demo)
    open_and_wait(qtbot, window, str(demo))
    gd = window.state.model.graph.graph_def
    folded = tmp_path / "folded.pb"              # TF's own transform engine made B
    folded.write_bytes(tensorflow().run_native_transform(
        gd, ["pixels"], ["output"], "strip_unused_nodes(type=float) fold_constants("
        "ignore_errors=true) remove_nodes(op=Identity)").SerializeToString())
    win = compared(qtbot, window, str(folded))
    rows = win.changes.model().stringList()
    assert any(r.startswith("• size: 12 constants kept only by control inputs") for r in rows)
    assert not any(r.lstrip().startswith("added ") for r in rows)
    assert f"file bytes {os.path.getsize(demo):,} -> {os.path.getsize(folded):,}" in \
        win.totals.text()
    int8 = os.path.join(DATA, "digits_int8.tflite")
    win = compared(qtbot, window, int8)
    assert f"file bytes {os.path.getsize(demo):,} -> 14,488" in win.totals.text()
    assert os.path.getsize(int8) == 14488
    win = compared(qtbot, window, os.path.join(DATA, "inception_jpeg.pb"))
    assert "unrelated: different models" in win.status.text()
