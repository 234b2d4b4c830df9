"""Tours in the window, driven as a presenter would: the Tour panel's buttons, the auto-tour,
presentation mode with clicker keys, large text and a safe palette, the session file round
trip (same picture again), and the exports (HTML opened by the other tests in a real browser,
PDF pages rendered with poppler)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess

import pytest
from PySide6.QtCore import QRectF, Qt

from inspector.core.view.palette import AA, contrast_ratio, palette


def _open(window, qtbot, path):
    window.open_path(path)
    qtbot.waitUntil(lambda: window.scenes_drawn > 0, timeout=60_000)


def _auto(window, qtbot):
    qtbot.mouseClick(window.tour_panel.auto_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: len(window.tour.tour.stops) > 0, timeout=120_000)
    qtbot.waitUntil(lambda: not window.tasks.is_busy(), timeout=60_000)


def _settle(window, qtbot):
    """Wait until the stop's layout is drawn and the view has stopped gliding."""
    qtbot.waitUntil(lambda: window.tour.pending_rect is None and
                    window.tour.glide.state() == window.tour.glide.State.Stopped and
                    not window.tasks.is_busy(), timeout=30_000)
    qtbot.wait(50)


def _centre(window):
    return window.canvas.mapToScene(window.canvas.viewport().rect().center())


def test_palette_passes_wcag_aa_on_every_fill():
    for presenting in (True, False):
        for category, (fill, text) in palette(presenting).items():
            assert contrast_ratio(fill, text) >= AA, (presenting, category, fill, text)
    assert round(contrast_ratio("#000000", "#ffffff"), 1) == 21.0


def test_panel_buttons_add_rename_reorder_and_delete(window, qtbot, model):
    _open(window, qtbot, model)
    panel = window.tour_panel
    for _ in range(3):
        qtbot.mouseClick(panel.add_button, Qt.LeftButton)
    assert len(window.tour.tour.stops) == 3 and panel.stops.count() == 3
    panel.stops.setCurrentRow(0)
    panel.title.setText("Opening shot")
    panel.title.editingFinished.emit()
    panel.caption.setPlainText("Where the photo goes in")
    assert window.tour.tour.stops[0].title == "Opening shot"
    assert window.tour.tour.stops[0].caption == "Where the photo goes in"
    panel.moved.emit(0, 2)
    assert [s.title for s in window.tour.tour.stops][2] == "Opening shot"
    panel.stops.setCurrentRow(1)
    qtbot.mouseClick(panel.delete_button, Qt.LeftButton)
    assert len(window.tour.tour.stops) == 2
    qtbot.waitUntil(lambda: os.path.exists(model + ".inspector.json"), timeout=5_000)
    saved = json.loads(open(model + ".inspector.json").read())
    qtbot.waitUntil(lambda: len(json.loads(open(model + ".inspector.json").read())
                                .get("tour", [])) == 2, timeout=5_000)
    assert saved["version"] == 1


def test_clicker_keys_move_between_stops_and_blank(window, qtbot, demo_model, tmp_path):
    path = tmp_path / "digits.pb"
    shutil.copy(demo_model, path)
    _open(window, qtbot, str(path))
    _auto(window, qtbot)
    tour = window.tour
    stops = tour.tour.stops
    assert len(stops) >= 6
    tour.reduce_motion = True
    tour.present()
    assert tour.presenting and not window.menuBar().isVisible()
    assert not window.tour_dock.isVisible()
    canvas = window.canvas
    seen = []
    for key in (Qt.Key_PageDown, Qt.Key_Right, Qt.Key_Space, Qt.Key_Left, Qt.Key_PageUp):
        qtbot.keyClick(canvas, key)
        _settle(window, qtbot)
        seen.append(tour.current)
        stop = stops[tour.current]
        if stop.rect:   # the view shows the stop: its centre, at a readable zoom
            want = QRectF(*stop.rect).center()
            got = _centre(window)
            assert abs(got.y() - want.y()) < stop.rect[3], (tour.current, got, want)
            assert canvas.zoom_level() >= tour.ui_scale - 1e-6
    assert seen == [1, 2, 3, 2, 1]
    qtbot.keyClick(canvas, Qt.Key_B)
    assert window.tour.stage.blank
    qtbot.keyClick(canvas, Qt.Key_PageDown)        # the first click only lifts the black
    assert not window.tour.stage.blank and tour.current == 1
    qtbot.keyClick(canvas, Qt.Key_End)
    _settle(window, qtbot)
    assert tour.current == len(stops) - 1
    qtbot.keyClick(canvas, Qt.Key_Escape)
    assert not tour.presenting and window.menuBar().isVisible()
    assert not canvas.style.presenting and canvas.style.spotlight is None


def test_presentation_text_is_at_least_18_px_at_1920x1080(window, qtbot, model):
    window.resize(1920, 1080)
    _open(window, qtbot, model)
    _auto(window, qtbot)
    tour = window.tour
    tour.reduce_motion = True
    tour.present()
    window.resize(1920, 1080)
    canvas = window.canvas
    checked = 0
    for k in range(len(tour.tour.stops)):
        tour.go_to(k, animate=False)
        _settle(window, qtbot)
        if tour.tour.stops[k].kind == "card":
            continue
        canvas.viewport().grab()           # paints what is on screen now
        visible = canvas.mapToScene(canvas.viewport().rect()).boundingRect()
        zoom = canvas.zoom_level()
        for node in canvas.items_by_id.values():
            if not node.sceneBoundingRect().intersects(visible):
                continue
            for px, text in node.drawn:
                checked += 1
                assert px * zoom >= 18 - 1e-6, (k, node.item.id, text, px, zoom)
    assert checked > 20
    tour.leave()


def test_a_tour_of_ten_stops_restores_the_same_picture(window, qtbot, model):
    _open(window, qtbot, model)
    _auto(window, qtbot)
    tour = window.tour
    tour.reduce_motion = True
    stops = [s.to_dict() for s in tour.tour.stops]
    assert len(stops) >= 10
    pictures = {}
    for k in (1, 4, len(stops) - 2):
        tour.go_to(k, animate=False)
        _settle(window, qtbot)
        pictures[k] = window.canvas.viewport().grab().toImage()
    tour.save()
    window.open_path(model)                     # the same model again: the tour comes back
    qtbot.waitUntil(lambda: window.tour.tour.stops and window.tour.current == -1 and
                    window.scenes_drawn > 1, timeout=60_000)
    assert [s.to_dict() for s in window.tour.tour.stops] == stops
    for k, before in pictures.items():
        tour.go_to(k, animate=False)
        _settle(window, qtbot)
        after = window.canvas.viewport().grab().toImage()
        assert after == before, k


def _chromium_free_pdf_tools():
    return shutil.which("pdftoppm") and shutil.which("pdftotext")


def test_tour_exports_pdf_slides_with_large_text(window, qtbot, model, tmp_path):
    if not _chromium_free_pdf_tools():
        pytest.skip("poppler-utils (pdftoppm, pdftotext) not installed: apt-get install "
                    "poppler-utils")
    _open(window, qtbot, model)
    _auto(window, qtbot)
    n = len(window.tour.tour.stops)
    out = str(tmp_path / "tour.pdf")
    window.tour.export(out)
    qtbot.waitUntil(lambda: window.tour.exported == out, timeout=60_000)
    subprocess.run(["pdftoppm", "-r", "40", "-png", out, str(tmp_path / "page")], check=True,
                   timeout=120)
    pages = [f for f in os.listdir(tmp_path) if f.startswith("page") and f.endswith(".png")]
    assert len(pages) == n
    bbox = subprocess.run(["pdftotext", "-bbox", out, "-"], capture_output=True, text=True,
                          check=True, timeout=120).stdout
    import re

    words = re.findall(r'yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)">([^<]+)<', bbox)
    caption = window.tour.tour.stops[1].caption.split()[0]
    heights = [float(b) - float(a) for a, b, w in words if w == caption]
    # the page is 960 pt wide: shown 1920 px wide, 1 pt is 2 px, so 9 pt is 18 px
    assert heights and min(heights) >= 9.0, heights


def _chain_graph_file(folder, n: int) -> str:
    """A GraphDef of `n` nodes in 20 scopes (Placeholder, then Relu/Tanh chains)."""
    from inspector.core.model.protos import graph_pb2

    g = graph_pb2.GraphDef()
    x = g.node.add(name="x", op="Placeholder")
    x.attr["dtype"].type = 1
    prev = "x"
    for k in range(1, n):
        node = g.node.add(name=f"s{k // 100}/n{k}", op="Relu" if k % 2 else "Tanh")
        node.input.append(prev)
        node.attr["T"].type = 1
        prev = node.name
    path = os.path.join(folder, "chain.pb")
    with open(path, "wb") as f:
        f.write(g.SerializeToString())
    return path


def test_view_exports_stay_vector_and_scale(window, qtbot, tmp_path):
    path = _chain_graph_file(tmp_path, 2000)
    _open(window, qtbot, path)
    drawn = window.scenes_drawn
    window.state.expand_all()
    qtbot.waitUntil(lambda: window.scenes_drawn > drawn, timeout=60_000)
    assert len(window.canvas.items_by_id) >= 2000
    svg = window.exporter.svg(str(tmp_path / "all.svg"), whole=True, font_scale=2.0)
    text = open(svg, encoding="utf-8").read()
    assert "<image" not in text and text.count("<text") >= 2000
    png = window.exporter.png(False, str(tmp_path / "view.png"), scale=4.0)
    from PySide6.QtGui import QImage

    image = QImage(png)
    visible = window.canvas.mapToScene(window.canvas.viewport().rect()).boundingRect()
    assert abs(image.width() - visible.width() * 4) <= 2


def test_tour_exports_html_that_opens_offline(window, qtbot, model, tmp_path):
    from test_tour_html import DevTools, _browser

    _open(window, qtbot, model)
    _auto(window, qtbot)
    n = len(window.tour.tour.stops)
    out = str(tmp_path / "tour.html")
    window.tour.export(out)
    qtbot.waitUntil(lambda: window.tour.exported == out, timeout=60_000)
    page = open(out, encoding="utf-8").read()
    assert page.count('<section class="slide"') == n
    assert page.count("<svg") == n and "<text" in page
    binary = _browser()
    if binary is None:
        pytest.skip("no Chromium: apt-get install chromium")
    browser = DevTools(binary, str(tmp_path / "profile"))
    try:
        target = browser.call("Target.createTarget", url="about:blank")["targetId"]
        session = browser.call("Target.attachToTarget", targetId=target,
                               flatten=True)["sessionId"]
        browser.call("Page.enable", session)
        browser.call("Page.navigate", session, url="file://" + out + "#3")
        browser.wait_event("Page.loadEventFired")
        value = browser.call("Runtime.evaluate", session, returnByValue=True, expression=(
            "[document.body.dataset.current, document.querySelectorAll('section.slide')"
            ".length, document.querySelector('section.current h2').textContent]"))
        current, slides, title = value["result"]["value"]
        assert (current, slides) == ("2", n)
        assert title == window.tour.tour.stops[2].title
    finally:
        browser.close()


def test_cli_writes_the_auto_tour(demo_model, tmp_path):
    from tests.conftest import run_cli

    out = tmp_path / "tour.html"
    code, stdout, stderr = run_cli("tour", demo_model, "--auto", "-o", str(out))
    assert code == 0, stderr
    assert "The input" in stdout and out.read_text().count('<section class="slide"') >= 6
    code, _, stderr = run_cli("tour", demo_model, "--auto", "-o", str(out))
    assert code == 2 and "exists" in stderr            # never over a file without --force
    code, _, stderr = run_cli("tour", demo_model, "--auto", "-o", str(tmp_path / "t.docx"))
    assert code == 2 and ".html or .pdf" in stderr


def test_the_auto_tour_of_a_keras_mobilenet_walks_all_of_it(window, qtbot, fx):
    """Keras names a MobileNet v2's layers flatly (block_1_expand, block_1_expand_BN, ...):
    its 150 boxes in one scope made 40 one-layer stops over the first four blocks and one
    stop 'block_4_depthwise_BN_1 … predictions_1 (x 116)' for the rest. Each named block is
    one stop now (blocks of the same make-up folded), through to the classifier."""
    window.show_panel(window.tour_dock)
    _open(window, qtbot, os.path.join(fx, "mobilenet_v2.pb"))
    qtbot.waitUntil(lambda: not window.tasks.is_busy(), timeout=60_000)
    _auto(window, qtbot)
    titles = [s.title for s in window.tour.tour.stops]
    assert not any("(x 116)" in t or "… predictions" in t for t in titles), titles
    assert titles[-3:] == ["predictions_1", "The answer", "The model in numbers"], titles
    assert "block_1" in titles and "block_16" in titles and len(titles) < 30, titles
    assert "block_7 … block_9 (x 3)" in titles, titles
    block = window.tour.tour.stops[titles.index("block_1")]
    assert block.caption.startswith("A block of 9 steps: pattern detection, arithmetic"), \
        block.caption
    assert len(block.focus) == 9 and all("block_1_" in f for f in block.focus)


def test_the_auto_tour_skips_scopes_that_only_pass_values_on(window, qtbot, fx):
    """A SavedModel frozen by TF inlines its function and leaves a 'Func' scope of Identity
    and NoOp nodes: the auto-tour made it a stop of its own ('Func: Processing step. 4 nodes';
    'Func: ... 1 node' in the TF.js SSD hand detector's tour), a block of nothing to show."""
    window.show_panel(window.tour_dock)
    window.open_path(os.path.join(fx, "two_signatures"), "serving_default")
    qtbot.waitUntil(lambda: window.scenes_drawn > 0, timeout=60_000)
    qtbot.waitUntil(lambda: not window.tasks.is_busy(), timeout=60_000)
    _auto(window, qtbot)
    titles = [s.title for s in window.tour.tour.stops]
    assert "Func" not in titles, titles
    assert titles == ["The input", "StatefulPartitionedCall/MatMul (MatMul)", "The answer",
                      "The model in numbers"], titles
