"""File > Compare with…: two synced canvases, the change list, n / p (issue 35)."""

import os

from PySide6.QtCore import QPointF, Qt
from test_gui import open_and_wait

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
INCEPTION = os.path.join(ROOT, "tests", "core", "data", "inception_jpeg.pb")


def folded_copy(tmp_path) -> str:
    from inspector.core.loaders import load
    from inspector.core.transforms.pipeline import run_pipeline

    gd = load(INCEPTION).graph.graph_def
    out = run_pipeline(gd, "fold_old_batch_norms", ["Mul"], ["softmax"])[-1].graph_def
    path = tmp_path / "folded.pb"
    path.write_bytes(out.SerializeToString())
    return str(path)


def private_copy(tmp_path) -> str:
    """The model copied aside: the window writes its session file beside the model."""
    import shutil

    path = tmp_path / "inception_jpeg.pb"
    if not path.exists():
        shutil.copy(INCEPTION, path)
    return str(path)


def compare_window(qtbot, window, tmp_path):
    return compare_paths(qtbot, window, private_copy(tmp_path), folded_copy(tmp_path))


def compare_paths(qtbot, window, a: str, b: str, size=None):
    """The comparison window of `a` (opened in `window`) with `b`, as File > Compare with
    makes it, resized to `size` before it is ready, once both sides are built and fitted."""
    open_and_wait(qtbot, window, a)
    ctl = window.compare_ctl
    before = len(ctl.windows)
    ctl.compare_with(b)
    qtbot.waitUntil(lambda: len(ctl.windows) > before, timeout=60000)
    win = ctl.windows[-1]
    qtbot.addWidget(win)
    if size is not None:
        win.resize(*size)
    qtbot.waitUntil(win.ready, timeout=60000)     # both sides built, fitted, decorated
    return win


def test_n_and_p_focus_the_same_matched_node_on_both_sides(qtbot, window, tmp_path):
    win = compare_window(qtbot, window, tmp_path)
    m = win.session.diff.matching
    assert "merged" in win.status.text()
    totals = win.totals.text()                     # measured in the worker's TensorFlow
    assert totals.startswith("nodes 73 -> 58") and "FLOPs" in totals and "gzip" in totals
    seen = []
    for key in (Qt.Key_N, Qt.Key_N, Qt.Key_N, Qt.Key_P):
        qtbot.keyClick(win, key)
        qtbot.waitUntil(lambda: not window.tasks.is_busy(), timeout=60000)
        e = win.session.diff.entries[win.session.index]
        a_sel, b_sel = win.session.selected["A"], win.session.selected["B"]
        assert a_sel and b_sel and e.a in a_sel and e.b in b_sel
        assert any(b in m.counterparts_in_b(a_sel[0]) for b in b_sel)
        # both canvases draw the focused node (its scopes were opened) and centre it
        for side, name in (("A", a_sel[0]), ("B", b_sel[0])):
            item = win.session.visible(side, name)      # itself, or the node a constant
            assert not item.endswith("/")                 # is drawn on: no scope left shut
            qtbot.waitUntil(lambda: item in win.canvases[side].items_by_id, timeout=30000)
        seen.append(win.session.index)
    order = win.session.entry_order()          # the change list's order: its first row first
    assert seen == [order[0], order[1], order[2], order[1]]
    assert win.changes.currentIndex().row() == win.session.stops()[1]  # a group: its row
    assert "n / p: 2 of" in win.status.text()


def test_a_click_on_one_side_selects_the_counterparts_on_the_other(qtbot, window, tmp_path):
    win = compare_window(qtbot, window, tmp_path)
    canvas = win.canvases["A"]
    name = "conv/BatchNorm"          # merged into conv/Conv2D in B
    qtbot.waitUntil(lambda: name in canvas.items_by_id, timeout=30000)
    node = canvas.items_by_id[name]
    canvas.centerOn(node.sceneBoundingRect().center())
    pos = canvas.mapFromScene(node.sceneBoundingRect().topLeft() + QPointF(10, 10))
    qtbot.mouseClick(canvas.viewport(), Qt.LeftButton, pos=pos)
    qtbot.waitUntil(lambda: not window.tasks.is_busy(), timeout=60000)
    assert win.session.selected["A"] == [name]
    # merged into the Conv; the BiasAdd and its offset came out of it
    assert set(win.session.selected["B"]) == {"conv/Conv2D", "conv/BatchNorm",
                                             "conv/Conv2D_bn_offset"}


def test_the_change_list_opens_a_change_and_the_report_is_saved(qtbot, window, tmp_path):
    win = compare_window(qtbot, window, tmp_path)
    model = win.changes.model()
    rows = [r for r, (_, _, kind) in enumerate(win.session.change_rows()) if kind == "entry"]
    index = model.index(rows[2])
    win.changes.scrollTo(index)
    rect = win.changes.visualRect(index)
    qtbot.mouseClick(win.changes.viewport(), Qt.LeftButton, pos=rect.center())
    k = win.session.change_rows()[rows[2]][1]
    assert win.session.index == k
    path = win.save_report(str(tmp_path / "report.html"))
    assert path and open(path).read().startswith("<!DOCTYPE html>")
    if os.environ.get("INSPECTOR_SHOTS"):
        qtbot.wait(500)
        win.grab().save(os.path.join(os.environ["INSPECTOR_SHOTS"], "compare.png"))


def test_a_saved_comparison_reopens_with_its_models(qtbot, window, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QMessageBox

    from inspector.core.app.comparison_files import save_document

    win = compare_window(qtbot, window, tmp_path)
    saved = win.save_document(str(tmp_path / "cmp.json"))
    assert saved
    asked = []
    monkeypatch.setattr(QMessageBox, "question",
                        lambda *a, **k: asked.append(a[2]) or QMessageBox.Yes)
    before = len(window.compare_ctl.windows)
    window.compare_ctl.open_document(saved)
    assert not asked                  # both models sit beside the file: nothing to ask
    qtbot.waitUntil(lambda: len(window.compare_ctl.windows) > before, timeout=60000)
    again = window.compare_ctl.windows[-1]
    qtbot.addWidget(again)
    assert again.session.diff.counts() == win.session.diff.counts()
    assert again.session.diff.matching.b_of == win.session.diff.matching.b_of
    # a comparison naming a model outside its folder asks first; "No" opens nothing
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    win.session.paths = (INCEPTION, win.session.paths[1])
    save_document(win.session, str(elsewhere / "cmp.json"))
    monkeypatch.setattr(QMessageBox, "question",
                        lambda *a, **k: asked.append(a[2]) or QMessageBox.No)
    count = len(window.compare_ctl.windows)
    window.compare_ctl.open_document(str(elsewhere / "cmp.json"))
    qtbot.waitUntil(lambda: bool(asked), timeout=60000)         # asked once the file is read
    assert "inception_jpeg.pb" in asked[0] and "b.pb" not in asked[0]
    qtbot.waitUntil(lambda: not window.tasks.is_busy(), timeout=60000)
    assert len(window.compare_ctl.windows) == count


def test_run_both_colours_the_matched_nodes_by_their_divergence(qtbot, window, tmp_path):
    from inspector.core.loaders import load
    from inspector.core.transforms.pipeline import run_pipeline

    gd = load(INCEPTION).graph.graph_def
    out = run_pipeline(gd, "fold_old_batch_norms quantize_weights(minimum_size=100)", ["Mul"],
                       ["softmax"])[-1].graph_def
    path = tmp_path / "quantized.pb"
    path.write_bytes(out.SerializeToString())
    open_and_wait(qtbot, window, private_copy(tmp_path))
    window.compare_ctl.compare_with(str(path))
    qtbot.waitUntil(lambda: bool(window.compare_ctl.windows), timeout=60000)
    win = window.compare_ctl.windows[-1]
    qtbot.addWidget(win)
    qtbot.waitUntil(lambda: all(bool(c.items_by_id) for c in win.canvases.values()) and
                    not window.tasks.is_busy(), timeout=60000)
    qtbot.mouseClick(win.numeric_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: win.divergence is not None and not window.tasks.is_busy(),
                    timeout=120000)
    d = win.divergence
    # the headline on its own wrapped line, whole (in the one-line status it was cut after
    # '174 matched tens…' at 1366x768: walk5)
    assert d.first and f"Run both: {d.headline()}" in win.totals.text()
    assert win.totals.wordWrap() and "first node past" not in win.status.text()
    assert win.session.selected["A"] == [d.first]           # focused where answers part
    heat, badges = win.heat["A"]
    item = win.session.visible("A", d.first)
    assert item in heat and badges[item].startswith("▲ first")
    if os.environ.get("INSPECTOR_SHOTS"):
        qtbot.wait(500)
        win.grab().save(os.path.join(os.environ["INSPECTOR_SHOTS"], "compare_numeric.png"))


def test_a_pipeline_step_compares_with_the_original_and_all_stages_as_lanes(qtbot, window,
                                                                            tmp_path):
    from test_gui_workbench import wait_preview

    open_and_wait(qtbot, window, private_copy(tmp_path))
    window.workbench.set_marks(["Mul"], ["softmax"])
    window.workbench.set_text("fold_old_batch_norms quantize_weights(minimum_size=100)")
    wait_preview(qtbot, window, 2)
    ctl = window.compare_ctl
    qtbot.mouseClick(window.preview_panel.compare_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: bool(ctl.windows), timeout=60000)
    win = ctl.windows[-1]
    qtbot.addWidget(win)
    # the pipeline's provenance: every batch norm merged into its Conv, nothing removed
    d = win.session.diff
    merged = {e.a for e in d.entries if e.status == "merged" and e.op_a.startswith("Fused")}
    assert len(merged) == 5 and not [e for e in d.entries if e.status == "removed"]
    assert window.state.rows[1].report.merged          # the step's own provenance came along
    quantized = [e for e in d.entries if e.status == "changed" and e.op_b == "Dequantize"]
    parts = [e for e in d.entries if e.status == "split" and e.op_a == "Const"]
    assert quantized and len(parts) == 3 * len(quantized)
    qtbot.mouseClick(window.preview_panel.stages_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: len(ctl.windows) == 2, timeout=60000)
    lanes = ctl.windows[-1]
    qtbot.addWidget(lanes)
    assert lanes.session.labels[0] == "original" and len(lanes.canvases) == 3
    qtbot.waitUntil(lambda: all(bool(c.items_by_id) for c in lanes.canvases) and
                    not window.tasks.is_busy(), timeout=60000)
    canvas = lanes.canvases[0]
    name = "conv/weights"       # quantized in the last stage: 1 -> 1 -> 4 nodes
    lanes.session.select(0, name)
    lanes.refresh()
    qtbot.waitUntil(lambda: not window.tasks.is_busy(), timeout=60000)
    item = lanes.session.visible(0, name)
    qtbot.waitUntil(lambda: item in canvas.items_by_id, timeout=30000)
    node = canvas.items_by_id[item]
    canvas.centerOn(node.sceneBoundingRect().center())
    pos = canvas.mapFromScene(node.sceneBoundingRect().topLeft() + QPointF(10, 10))
    qtbot.mouseClick(canvas.viewport(), Qt.LeftButton, pos=pos)
    qtbot.waitUntil(lambda: not window.tasks.is_busy(), timeout=60000)
    found = lanes.session.selected
    assert found[0] == [item] and all(found), found
    if item == name:
        assert "conv/weights_quantized_const" in found[2]
    if os.environ.get("INSPECTOR_SHOTS"):
        qtbot.wait(500)
        lanes.grab().save(os.path.join(os.environ["INSPECTOR_SHOTS"], "lanes.png"))


def test_a_step_comparison_says_why_it_cannot_be_saved_before_asking_for_a_file(
        qtbot, window, tmp_path, monkeypatch):
    """walk5: Preview > Compare…, then Save comparison…: a file was written whose model B
    (the step's graph, made in memory) is no file, and File > Open comparison then said only
    'the comparison file names no model B'. Now the button says why and what to do, and no
    file dialog comes up."""
    from PySide6.QtWidgets import QFileDialog, QMessageBox
    from test_gui_workbench import wait_preview

    open_and_wait(qtbot, window, private_copy(tmp_path))
    window.workbench.set_marks(["Mul"], ["softmax"])
    window.workbench.set_text("fold_old_batch_norms")
    wait_preview(qtbot, window, 1)
    ctl = window.compare_ctl
    qtbot.mouseClick(window.preview_panel.compare_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: bool(ctl.windows), timeout=60000)
    win = ctl.windows[-1]
    qtbot.addWidget(win)
    qtbot.waitUntil(win.ready, timeout=60000)
    target = tmp_path / "step.json"
    asked, said = [], []
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        lambda *a, **k: asked.append(a) or (str(target), ""))
    monkeypatch.setattr(QMessageBox, "information", lambda *a, **k: said.append(a[2]))
    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: said.append(a[2]))
    qtbot.mouseClick(win.keep_button, Qt.LeftButton)
    assert not asked and not target.exists()
    assert len(said) == 1 and "Model B ('after fold_old_batch_norms') is not a file" in \
        said[0] and "Save optimized graph" in said[0], said
    win.save_report(str(tmp_path / "step.html"))    # the page still keeps it
    assert (tmp_path / "step.html").exists()


def test_the_merged_view_draws_what_b_lost_as_ghosts(qtbot, window, tmp_path):
    win = compare_window(qtbot, window, tmp_path)
    win.merged_box.click()
    canvas = win.canvases["B"]
    qtbot.waitUntil(lambda: "M" in win._drawn and not window.tasks.is_busy(), timeout=60000)
    assert not win.boxes["A"].isVisible()
    painted = win._drawn["M"][1]
    assert painted.get("conv/BatchNorm (gone)") == "merged"       # the folded batch norm
    assert painted.get("conv/BatchNorm") == "split"               # the BiasAdd out of it
    qtbot.waitUntil(lambda: "conv/BatchNorm (gone)" in canvas.items_by_id, timeout=30000)
    node = canvas.items_by_id["conv/BatchNorm (gone)"]
    canvas.centerOn(node.sceneBoundingRect().center())
    pos = canvas.mapFromScene(node.sceneBoundingRect().topLeft() + QPointF(10, 10))
    view, ghosts = win.session.merged

    class Unwalked(dict):    # a click looks its ghost up: no walk over every ghost (a
        def items(self):     # pair that lost 100k nodes: a 100k-entry dict a click)
            raise AssertionError("the ghosts walked on the GUI thread")

    win.session.merged = (view, Unwalked(ghosts))
    qtbot.mouseClick(canvas.viewport(), Qt.LeftButton, pos=pos)
    qtbot.waitUntil(lambda: not window.tasks.is_busy(), timeout=60000)
    assert win.session.selected["A"] == ["conv/BatchNorm"]       # the ghost is A's node
    assert "conv/Conv2D" in win.session.selected["B"]
    if os.environ.get("INSPECTOR_SHOTS"):
        qtbot.wait(500)
        win.grab().save(os.path.join(os.environ["INSPECTOR_SHOTS"], "compare_merged.png"))
    win.merged_box.click()
    assert win.boxes["A"].isVisible()


def test_with_every_scope_closed_the_boxes_stay_readable(qtbot, window, tmp_path):
    """Regression: "Changed only" off fitted a tall graph whole, at a scale where no box had
    a label; now it is fitted while readable, else shown from its start (as the main canvas)."""
    win = compare_window(qtbot, window, tmp_path)
    win.only.click()                                   # "Changed only" off: all closed
    qtbot.waitUntil(win.ready, timeout=60000)
    qtbot.wait(50)
    for side, canvas in win.canvases.items():
        assert canvas.zoom_level() >= canvas.MIN_FIT_SCALE - 1e-6, side


def test_the_change_list_is_filled_after_the_window_is_made(qtbot, window, tmp_path):
    """Regression: the change list's rows (50k in a big pair, ~40 ms on the slow class) were
    converted while the window was made; now on the next event-loop turn, and a step taken
    before then is selected once they are in."""
    from inspector.gui.compare_window import CompareWindow

    win = compare_window(qtbot, window, tmp_path)
    rows = [r[0] for r in win.session.change_rows()]
    fresh = CompareWindow(win.session, window.tasks)
    qtbot.addWidget(fresh)
    assert fresh.changes.model().rowCount() == 0 and not fresh.ready()
    fresh.session.go_to(fresh.session.entry_order()[2])
    qtbot.waitUntil(lambda: fresh.changes.model().rowCount() == len(rows), timeout=10000)
    assert fresh.changes.model().stringList() == rows
    assert fresh.changes.currentIndex().row() == fresh.session.row_of(fresh.session.index)


def test_two_models_of_the_same_file_name_are_told_apart(qtbot, window, tmp_path, demo_model):
    """File > Compare with… on a TF.js pair (base/model.json, int8/model.json): the title
    and both panes said "model.json"; the sides carry the folder that tells them apart."""
    import shutil

    for side in ("base", "int8"):
        os.makedirs(tmp_path / side)
        shutil.copy(demo_model, tmp_path / side / "model.pb")
    win = compare_paths(qtbot, window, str(tmp_path / "base" / "model.pb"),
                        str(tmp_path / "int8" / "model.pb"))
    assert win.windowTitle() == "Compare: base/model.pb  ↔  int8/model.pb"


def test_a_saved_comparison_is_read_off_the_gui_thread(qtbot, window, tmp_path, monkeypatch):
    """hostile2: File > Open comparison parsed the JSON on the GUI thread (a deep 1 MB file
    held it 155 ms; a saved comparison may be 512 MB). It is read in a task; a bad one is
    still one dialog."""
    import threading

    from PySide6.QtWidgets import QMessageBox

    from inspector.core.app import comparison_files

    read_on, real = [], comparison_files.read_document

    def reading(path, **kw):
        read_on.append(threading.current_thread() is threading.main_thread())
        return real(path, **kw)

    monkeypatch.setattr(comparison_files, "read_document", reading)
    warned = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: warned.append(a[2]))
    bad = tmp_path / "cmp.json"
    bad.write_text("[" * 100_000)
    window.compare_ctl.open_document(str(bad))
    qtbot.waitUntil(lambda: bool(warned), timeout=60000)
    assert read_on == [False]
    assert len(warned) == 1 and str(bad) in warned[0], warned
