"""The --html report's pictures of both graphs around the changes (issue 45.21): one picture
per change group, A beside B, drawn at Graphviz's own size so that the labels read at 14.7 px
(the old report fitted all changes of a side into one page-wide picture: ~5 px text on
Inception, an 8-px strip of 150 nodes on a big diff). Measured in headless Chromium."""

import html
import os
import re

import pytest
from test_tour_html import DevTools, _browser, open_page

from inspector.core.compare.diff import diff_graphs
from inspector.core.compare.html_pictures import MAX_PICTURES, picture_sets
from inspector.core.compare.html_report import diff_html
from inspector.core.loaders import load
from inspector.core.model.graph import Graph
from inspector.core.transforms.pipeline import run_pipeline

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(ROOT, "tests", "core", "data")
MIN_PX = 12          # the smallest label text, in CSS pixels at the page's own scale


def _pairs():
    ga = load(os.path.join(DATA, "inception_jpeg.pb")).graph
    gb = Graph(run_pipeline(ga.graph_def, "fold_old_batch_norms", ["Mul"],
                            ["softmax"])[-1].graph_def)
    demo = load(os.path.join(ROOT, "inspector", "core", "app", "demo_model", "demo_digits.pb")).graph
    lite = load(os.path.join(DATA, "digits_float.tflite")).graph
    return [("inception", ga, gb), ("demo_vs_tflite", demo, lite)]


def test_one_picture_per_change_group_each_at_its_own_size():
    for _, ga, gb in _pairs():
        d = diff_graphs(ga, gb, "a.pb", "b.pb")
        sets = picture_sets(d)
        page = diff_html(d, ga, gb)
        sections = re.findall(r"<section class='pic'><h3>(.*?)</h3>", page)
        assert len(sections) == min(len(sets), MAX_PICTURES) >= len(d.groups[:MAX_PICTURES])
        assert sections[:len(d.groups)] == [html.escape(g.title, quote=True)
                                            for g in d.groups][:MAX_PICTURES]
        # every change is in a picture's set once; a group's picture draws its first scope
        drawn = [k for _, _, members in sets for k in members]
        assert len(drawn) == len(set(drawn))
        for root in re.findall(r"<svg class=\"graph\"[^>]*>", page):
            width, box = re.search(r'width="(\d+)"', root), re.search(r'viewBox="([^"]+)"', root)
            assert width and box, root                    # a size of its own, not 100 %
            assert int(width.group(1)) == round(float(box.group(1).split()[2]) * 4 / 3)


def test_the_pictures_labels_are_legible_in_a_browser(tmp_path):
    binary = _browser()
    if binary is None:
        pytest.skip("no Chromium found: apt-get install chromium")
    browser = DevTools(binary, str(tmp_path / "profile"))
    try:
        for name, ga, gb in _pairs():
            d = diff_graphs(ga, gb, "a.pb", "b.pb")
            page = tmp_path / f"{name}.html"
            page.write_text(diff_html(d, ga, gb), encoding="utf-8")
            session = open_page(browser, page.as_uri())
            answer = browser.call(
                "Runtime.evaluate", session, returnByValue=True, expression=(
                    "Array.from(document.querySelectorAll('section.pic')).map(s => "
                    "Array.from(s.querySelectorAll('svg text')).map(t => "
                    "parseFloat(t.getAttribute('font-size')) * t.getScreenCTM().a))"))
            sizes = answer["result"]["value"]
            assert len(sizes) == min(len(picture_sets(d)), MAX_PICTURES)
            assert all(s for s in sizes), name                  # every picture has labels
            smallest = min(px for s in sizes for px in s)
            assert smallest >= MIN_PX, (name, smallest)
    finally:
        browser.close()


def test_totals_in_words_are_said_once_not_as_a_change():
    """The "FLOPs counted from" row (words on each side) had its words repeated as a change."""
    _, ga, gb = _pairs()[1]
    from inspector.core.analysis.graph_flops import cost_totals

    d = diff_graphs(ga, gb, "a.pb", "b.tflite", extra_totals=cost_totals(ga, gb))
    row = re.search(r"<tr><td>FLOPs counted from</td>(.*?)</tr>", diff_html(d)).group(1)
    cells = re.findall(r"<td class='n'>(.*?)</td>", row)
    assert cells[1] == "the .tflite&#x27;s tensor shapes" and cells[2] == ""
    flops = re.search(r"<tr><td>FLOPs</td>(.*?)</tr>", diff_html(d)).group(1)
    assert re.findall(r"<td class='n'>(.*?)</td>", flops)[2].endswith("%)")
