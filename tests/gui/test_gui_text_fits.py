"""Text that fits (issue 38.19): edge labels never pile up (a tensor read by several nodes is
labelled once; no label covers another, a box, or the room of a block's feature strip);
long names and op lists fit their boxes, names keeping their distinguishing end; the
output check's result never reflows the Preview; latencies in plain digits."""

import itertools
import shutil
from types import SimpleNamespace

import pytest
from conftest import DEMO
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QFont, QFontMetricsF
from test_gui import open_and_wait
from test_gui_workbench import wait_preview

from inspector.core.model import protos

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def fan_graph(path) -> str:
    """x feeds three Relus and a Mul(x, x) (inside a scope, a block); each Relu feeds an
    output and a sum: labels that used to sit on top of each other."""
    g = protos.GraphDef()
    x = g.node.add(name="x", op="Placeholder")
    x.attr["dtype"].type = 1
    for size in (1, 4):
        x.attr["shape"].shape.dim.add(size=size)

    def add(name, op, inputs):
        node = g.node.add(name=name, op=op, input=inputs)
        node.attr["T"].type = 1
        return node

    for i in range(3):
        add(f"blk/r{i}", "Relu", ["x"])
    add("m", "Mul", ["x", "x"])
    for i in range(3):
        add(f"out{i}", "Identity", [f"blk/r{i}"])
    add("sum", "AddN", ["blk/r0", "blk/r1", "blk/r2", "m"]).attr["N"].i = 4
    path.write_bytes(g.SerializeToString())
    return str(path)


def drawn_labels(window) -> list:
    from inspector.gui.canvas.edges import EdgeLayer

    return [(point, text) for layer in window.canvas.scene().items()
            if isinstance(layer, EdgeLayer) for point, text in layer.labels]


def label_box(point: QPointF, text: str) -> QRectF:
    from inspector.gui.canvas.items import _font

    metrics = QFontMetricsF(_font(6.5))
    return QRectF(point.x() + 4, point.y() - metrics.ascent(), metrics.horizontalAdvance(text),
                  metrics.ascent() + metrics.descent())


def test_edge_labels_never_pile_up(qtbot, window, tmp_path):
    open_and_wait(qtbot, window, fan_graph(tmp_path / "fan.pb"))
    window.state.set_expanded("blk", True)
    qtbot.waitUntil(lambda: any("[1,4]" in t for _, t in drawn_labels(window)) and
                    not window.tasks.is_busy(), timeout=60000)
    window.state.set_expanded("blk", False)              # the block collapsed: a scope box
    qtbot.waitUntil(lambda: "blk/" in window.canvas.items_by_id and
                    not window.tasks.is_busy(), timeout=30000)
    labels = drawn_labels(window)
    boxes = [label_box(p, t) for p, t in labels]
    for (a, ta), (b, tb) in itertools.combinations(zip(boxes, [t for _, t in labels]), 2):
        assert not a.intersects(b), (ta, a, tb, b)       # no label over another
    items = window.canvas.items_by_id
    for box, (_, text) in zip(boxes, labels):
        for item_id, node in items.items():
            it = node.item
            assert not box.intersects(QRectF(it.x, it.y, it.w, it.h)), (text, item_id)
    # one label per tensor: an output read by several nodes is labelled once
    tensors = {(e.src, e.label) for e in window.state.scene.edges if e.label and not e.control}
    labelled = [e for e in window.state.scene.edges if e.label and not e.control]
    assert len(labelled) > len(tensors)                # some tensors have several readers
    assert 0 < len(labels) <= len(tensors), (labels, tensors)


def test_feature_strips_never_half_cover_a_label(qtbot, window, tmp_path):
    import numpy as np
    from PIL import Image

    from inspector.gui.canvas.edges import EdgeLayer
    from inspector.gui.canvas.feature_strip import FeatureStrip

    path = tmp_path / "digits.pb"
    shutil.copy(DEMO, path)
    open_and_wait(qtbot, window, str(path))
    picture = np.zeros((8, 8), np.uint8)
    picture[2:6, 3:5] = 255
    Image.fromarray(picture, "L").save(tmp_path / "digit.png")
    window.demo.run_on(str(tmp_path / "digit.png"))
    qtbot.waitUntil(lambda: window.demo.runs > 0 and not window.tasks.is_busy(),
                    timeout=120000)
    canvas = window.canvas
    qtbot.waitUntil(lambda: any(isinstance(i, FeatureStrip) for i in canvas.scene().items()),
                    timeout=10000)
    strips = [i for i in canvas.scene().items() if isinstance(i, FeatureStrip)]
    layers = [i for i in canvas.scene().items() if isinstance(i, EdgeLayer)]
    canvas.resetTransform()
    canvas.scale(1.5, 1.5)
    under = 0
    for strip in strips:
        canvas.centerOn(strip)
        canvas.viewport().grab()
        for layer in layers:
            for point, text in layer.drawn:
                assert not label_box(point, text).intersects(strip.sceneBoundingRect()), text
            under += sum(label_box(p, t).intersects(strip.sceneBoundingRect())
                         for p, t in layer.labels)
    assert under > 0          # there were labels where the strips went: left out


def long_names_graph(path) -> str:
    g = protos.GraphDef()
    x = g.node.add(name="x", op="Placeholder")
    x.attr["dtype"].type = 1
    ops = ["Relu", "Sigmoid", "Tanh", "Softplus", "Softsign", "Elu", "Selu", "Relu6"]
    last = "x"
    for block in ("a_block_with_a_very_long_name_that_never_fits_any_box_0",
                  "a_block_with_a_very_long_name_that_never_fits_any_box_1"):
        for op in ops:
            node = g.node.add(name=f"{block}/{op.lower()}_with_long_name", op=op, input=[last])
            node.attr["T"].type = 1
            last = node.name
    final = g.node.add(name="output_of_the_whole_model_after_every_post_processing_step_42",
                       op="Identity", input=[last])
    final.attr["T"].type = 1
    path.write_bytes(g.SerializeToString())
    return str(path)


def test_names_and_op_lists_fit_their_boxes_keeping_a_names_end(qtbot, window, tmp_path):
    open_and_wait(qtbot, window, long_names_graph(tmp_path / "long.pb"))
    canvas = window.canvas
    canvas.resetTransform()
    canvas.scale(1.5, 1.5)                           # close up: every text is drawn
    texts = {}
    for item_id, node in canvas.items_by_id.items():
        canvas.centerOn(node)
        canvas.viewport().grab()                     # paints what is in view
        texts[item_id] = list(node.drawn)
    final = "output_of_the_whole_model_after_every_post_processing_step_42"
    assert any(t.startswith("…") and t.endswith("processing_step_42")
               for _, t in texts[final]), texts[final]
    scope = "a_block_with_a_very_long_name_that_never_fits_any_box_1/"
    assert any(t.endswith("fits_any_box_1  [8]") for _, t in texts[scope]), texts[scope]
    assert any("≡2" in t for _, t in texts[scope])   # the repeat tag
    for item_id, drawn in texts.items():
        width = canvas.items_by_id[item_id].item.w
        for px, text in drawn:
            if text in ("IN", "OUT"):
                continue
            font = QFont()
            font.setPixelSize(px)
            wide = QFontMetricsF(font).horizontalAdvance(text)
            assert wide <= width - 7, (item_id, text, wide, width)   # inside its box
    assert window.search_panel.results.textElideMode() == Qt.ElideLeft


def ssd_names_graph(path) -> str:
    """Scopes named as an SSD detector's (the handtrack TF.js model's): long words whose
    start says what they are, siblings told apart by their end."""
    g = protos.GraphDef()
    x = g.node.add(name="x", op="Placeholder")
    x.attr["dtype"].type = 1
    last = "x"
    for scope in ("ssd_mobile_net_v2fpn_keras_feature_extractor/model",
                  "WeightSharedConvolutionalBoxPredictor/WeightSharedConvolutionalBoxHead",
                  "WeightSharedConvolutionalBoxPredictor/WeightSharedConvolutionalClassHead"):
        for op in ("Relu", "Sigmoid", "Tanh"):
            node = g.node.add(name=f"{scope}/{op.lower()}", op=op, input=[last])
            node.attr["T"].type = 1
            last = node.name
    g.node.add(name="out", op="Identity", input=[last]).attr["T"].type = 1
    path.write_bytes(g.SerializeToString())
    return str(path)


def test_a_long_scope_name_keeps_its_start_readable(qtbot, window, tmp_path):
    """Note13: the canvas cut scope titles at their start ('…ghtSharedConvolutionalBox
    Predictor', '…e_net_v2fpn_keras_feature_extractor'), so what the scope is went unsaid.
    A collapsed scope's name and an expanded one's frame title keep their start and end;
    the tooltip has the whole name. Fails on the old code (the start was cut)."""
    from test_gui import click_item, wait_drawn

    window.resize(1366, 768)
    open_and_wait(qtbot, window, ssd_names_graph(tmp_path / "ssd.pb"))
    predictor = "WeightSharedConvolutionalBoxPredictor/"
    before = window.scenes_drawn
    click_item(qtbot, window, predictor, double=True)            # expanded: a frame
    wait_drawn(qtbot, window, before)
    canvas = window.canvas
    canvas.resetTransform()                                      # 100 %: texts drawn
    titles = {}
    for scope in ("ssd_mobile_net_v2fpn_keras_feature_extractor/", predictor,
                  predictor + "WeightSharedConvolutionalBoxHead/",
                  predictor + "WeightSharedConvolutionalClassHead/"):
        node = canvas.items_by_id[scope]
        canvas.centerOn(node)
        canvas.viewport().grab()
        name = scope.rstrip("/").rsplit("/", 1)[-1]
        title = node.drawn[0][1]
        titles[name] = title
        assert title[:8] == name[:8], (name, title)             # what it is: its start
        shown = title.rsplit("  ", 1)[0]
        assert shown == name or ("…" in shown and name.endswith(shown.split("…")[-1])), \
            (name, title)                                        # its end, sibling from sibling
        assert node.toolTip().splitlines()[0] == scope.rstrip("/")   # whole in the tooltip
    assert any("…" in t for t in titles.values()), titles       # some did not fit whole
    heads = [titles[n] for n in ("WeightSharedConvolutionalBoxHead",
                                 "WeightSharedConvolutionalClassHead")]
    assert heads[0] != heads[1], heads


def test_the_check_result_keeps_the_preview_in_place(qtbot, window, tmp_path):
    path = tmp_path / "digits.pb"
    shutil.copy(DEMO, path)
    window.resize(1366, 768)
    open_and_wait(qtbot, window, str(path))
    window.show_panel(window.preview_dock)               # the Optimize task
    window.workbench.set_marks(["pixels"], ["output", "digits_1/logits_1/BiasAdd",
                                            "digits_1/pool_1/MaxPool2d"])   # three lines
    window.workbench.set_text("fold_batch_norms")
    wait_preview(qtbot, window, 1)
    panel = window.preview_panel
    qtbot.waitUntil(lambda: panel.chart.isVisible(), timeout=10000)
    qtbot.wait(50)
    def where():
        return [(w.mapTo(panel, w.rect().topLeft()), w.size()) for w in (panel.table,
                                                                         panel.chart)]

    before = where()
    qtbot.mouseClick(panel.check_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: "max abs error" in panel.check_result.text() and
                    not window.tasks.is_busy(), timeout=120000)
    qtbot.wait(50)
    assert where() == before                             # nothing moved or shrank
    assert panel.check_result.text().count("max abs error") == 3
    assert panel.check_result.shown().startswith("output: max abs error")
    assert panel.chart.height() >= 80                    # a chart, not a stub


def test_latencies_in_plain_digits(qtbot, window):
    from inspector.core.view.vocabulary import milliseconds

    assert [milliseconds(v) for v in (0.42, 13.71, 1150.4)] == \
        ["0.42 ms", "13.7 ms", "1,150 ms"]
    port = {"name": "x", "dtype": "float32", "shape": [1, 4]}
    row = SimpleNamespace(variant="float", errors=[], latency_ms={"phone": 1150.4},
                          measured_ms=None, inputs=[port], outputs=[dict(port, name="y")],
                          size=4096, gzip_size=2048,
                          top1=1.0, compared=4, max_abs_error=0.0, op_count=3, flex_ops=[],
                          gpu_warnings=[], model=None, mapping=None, ops={}, note="",
                          tool="TF's converter", output={})
    result = SimpleNamespace(variants=[row], warnings=[], sample_source="random",
                             engine="LiteRT")
    window.mobile_panel.show_preview(result)
    cells = [window.mobile_panel.table.item(0, c).text() for c in range(7, 8)]
    assert cells == ["1,150 ms est."]
    assert "e+0" not in window.mobile_panel.details.toPlainText()


def test_the_op_types_chart_gives_every_name_a_row_at_1366x768(qtbot, window):
    """At 1366x768 the Summary's op chart got its minimum height, ~110 px: its ten op names
    were drawn over each other. At its minimum now each name has its font's height."""
    from PySide6.QtGui import QFontMetrics

    window.showNormal()
    window.resize(1366, 768)
    open_and_wait(qtbot, window, DEMO)
    window.workspace.switch("explore")
    slot = window.summary_panel.chart
    qtbot.waitUntil(lambda: slot.plot is not None and slot.plot.isVisible()
                    and bool(slot.plot.getPlotItem().getAxis("left")._tickLevels),
                    timeout=20000)
    splitter = slot.parentWidget()
    splitter.setSizes([10_000, 1])          # the list takes all it can: the chart its least
    qtbot.waitUntil(lambda: slot.height() == slot.minimumHeight(), timeout=5000)
    qtbot.wait(50)
    item = slot.plot.getPlotItem()
    left = item.getAxis("left")
    names = [text for _, text in left._tickLevels[0]]
    assert len(names) == 10
    font = left.style.get("tickFont") or item.font()
    row = item.getViewBox().sceneBoundingRect().height() / len(names)
    assert row >= QFontMetrics(font).height(), (row, QFontMetrics(font).height())


def test_the_preview_charts_title_fits_its_chart_at_1366x768(qtbot):
    """The title named its colours in words ("size (blue), FLOPs (orange): % of the
    original", ~270 px at 8 pt) and was cut off in the ~260 px the Optimize task gives the
    chart at 1366x768; now the two words carry their bars' colours."""
    import re

    from PySide6.QtGui import QFontMetrics
    from PySide6.QtWidgets import QApplication

    from inspector.gui.panels.preview_panel import CHART_TITLE

    font = QApplication.font()
    font.setPointSize(8)
    plain = re.sub(r"<[^>]+>", "", CHART_TITLE)
    assert "size" in plain and "FLOPs" in plain and "#" in CHART_TITLE    # coloured words
    assert QFontMetrics(font).horizontalAdvance(plain) <= 200


def test_a_flat_answers_check_shows_its_figures_before_why_no_top1(qtbot, window, tmp_path):
    """walk16: on an untrained classifier (every class scores the same) the check's one line
    began with why no top-1 is given, and at 1366x768 the errors were cut away behind it
    ('Identity: top-1 not counted: the original graph's output is constant (every class
    scores the same, so its t…'). The figures come first, the note after them."""
    import tensorflow as tf

    g = tf.Graph()
    with g.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [1, 8], name="x")
        tf.nn.softmax(tf.matmul(x, tf.zeros([8, 5])), name="probs")
    path = tmp_path / "flat.pb"
    path.write_bytes(g.as_graph_def().SerializeToString())
    window.resize(1366, 768)
    open_and_wait(qtbot, window, str(path))
    window.show_panel(window.preview_dock)               # the Optimize task
    window.workbench.set_marks(["x"], ["probs"])
    window.workbench.set_text("fold_constants")
    wait_preview(qtbot, window, 1)
    panel = window.preview_panel
    qtbot.mouseClick(panel.check_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: "max abs error" in panel.check_result.text() and
                    not window.tasks.is_busy(), timeout=120000)
    assert panel.check_result.text() == (
        "probs: max abs error 0, max rel error 0; top-1 not counted: the original graph's "
        "output is constant (every class scores the same, so its top class is always the "
        "first)")
    assert panel.check_result.shown().startswith("probs: max abs error 0, max rel error 0")
