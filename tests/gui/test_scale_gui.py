"""Big models: weights read only when someone looks at them, flat graphs grouped, and the scale
benchmark's measurements run functionally on a 100k-node graph (generous bounds: the figures
themselves are bench/scale.py's).

This file holds the tests that need Qt; the others are in tests/core/test_scale.py,
tests/tf/test_scale_tf.py."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from conftest import ROOT

from tests.fixtures import scale_models


def test_the_flat_graph_in_the_app_draws_groups_and_search_finds_a_node(qtbot, window):
    from PySide6.QtCore import Qt

    path = scale_models.flat_graph(10_000)
    window.open_path(path)
    qtbot.waitUntil(lambda: window.state.model is not None and window.scenes_drawn > 0 and
                    not window.tasks.is_busy(), timeout=60000)
    window.canvas.fit()
    drawn = [i for i in window.canvas.scene().items() if i.isVisible()]
    assert len(window.state.scene.items) < 200 and len(drawn) < 2000
    window.search_panel.box.setText("conv_777_Relu")
    qtbot.waitUntil(lambda: window.search.searches > 0, timeout=30000)
    qtbot.keyClick(window.search_panel.box, Qt.Key_Return)
    qtbot.waitUntil(lambda: window.state.selected == "conv_777_Relu" and
                    "conv_777_Relu" in window.state.scene.items and
                    not window.tasks.is_busy(), timeout=30000)


def test_the_scale_measurements_run_on_a_100k_node_graph():
    """Functional version of bench/scale.py (app half) on 100k nodes: opens, draws, expands,
    searches, marks and previews in a fresh process with the worker; bounds are generous
    (~30 s on the 2-core machine, building the graph the first time adds ~15 s)."""
    path = scale_models.blocks_graph(100_000)
    out = subprocess.run([sys.executable, "-c", f"import sys; sys.path.insert(0, {ROOT!r}); "
                          "from bench.scale_app import main; main()", path],
                         capture_output=True, text=True, timeout=600, cwd=ROOT,
                         env=dict(os.environ, QT_QPA_PLATFORM="offscreen",
                                  TF_CPP_MIN_LOG_LEVEL="3"))
    assert out.returncode == 0, out.stderr[-2000:]
    r = json.loads(out.stdout.strip().splitlines()[-1])
    assert r["first"] < 60 and r["items"] < 400
    assert set(r["stalls"]) == {"open", "expand", "search", "mark", "strip preview",
                                "constants"}
    assert max(r["stalls"].values()) < 5.0, r["stalls"]
    assert r["window_peak"] < os.path.getsize(path) / 2 ** 20 + 2000
    assert r["worker_rss"] > 0   # the strip preview ran in the worker


def test_the_scale_bench_puts_back_a_session_file_beside_the_model_it_opens(tmp_path):
    """bench/scale_app.open_app deleted `<model>.inspector.json` beside the model it timed:
    a user's session, or one beside the shared cache models. It is moved aside for the run
    and put back byte for byte (the app half ends with os._exit: no atexit)."""
    import shutil

    path = str(tmp_path / "blocks.pb")
    shutil.copy(scale_models.blocks_graph(2_000), path)
    session = tmp_path / "blocks.pb.inspector.json"
    session.write_bytes(b'{"a user\'s": "marks"}')
    out = subprocess.run([sys.executable, "-c", f"import sys; sys.path.insert(0, {ROOT!r}); "
                          "from bench.scale_app import main; main()", path],
                         capture_output=True, text=True, timeout=600, cwd=ROOT,
                         env=dict(os.environ, QT_QPA_PLATFORM="offscreen",
                                  TF_CPP_MIN_LOG_LEVEL="3"))
    assert out.returncode == 0, out.stderr[-2000:]
    assert session.read_bytes() == b'{"a user\'s": "marks"}'
    assert sorted(p.name for p in tmp_path.iterdir()) == ["blocks.pb", session.name]


def test_a_search_with_thousands_of_matches_says_how_many_it_lists_and_steps_through_them(
        qtbot, window):
    """'conv' matches every node of the 10k flat graph: the status said "5000+ matches
    (showing the first 5000)" over a list of 2000 rows that F3 wrapped around at 2000."""
    from PySide6.QtCore import Qt

    window.open_path(scale_models.flat_graph(10_000))
    qtbot.waitUntil(lambda: window.state.model is not None and window.scenes_drawn > 0 and
                    not window.tasks.is_busy(), timeout=60000)
    panel = window.search_panel
    panel.box.setText("conv")
    qtbot.waitUntil(lambda: window.search.searches > 0, timeout=30000)
    listed = panel.results.count()
    assert listed > 1000
    assert panel.status.text() == f"{listed}+ matches (showing the first {listed})"
    panel.results.setCurrentRow(listed - 2)
    qtbot.keyClick(panel.box, Qt.Key_Return)
    qtbot.waitUntil(lambda: window.state.selected == panel.matches[listed - 1], timeout=30000)
