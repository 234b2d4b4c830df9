"""Run by tests/gui/test_step_shapes_worker.py in a fresh process: the app as users start it
(TensorFlow in the worker, 1366x768) opens MODEL, adds fold_constants to the pipeline, clicks
the step's row of the preview, and waits for the step's graph's own shapes (TF's inference,
in the worker: core.app.cone.start_shapes with the step's key) to be drawn on its edges.
Prints one JSON line of what it saw; a third argument is where to save a screenshot of the
screen, zoomed to 100 % on the first edge labelled with a shape (run under xvfb)."""

import json
import sys

from app_with_worker import finish, start_window, wait  # this script's folder is on the path
from PySide6.QtCore import QPointF, Qt
from PySide6.QtTest import QTest


def labels_placed(canvas) -> list:
    """(x, y, text) of every edge label the canvas places (drawn when zoomed in)."""
    return [label for layer in canvas._edge_layers for label in layer.label_at]


def main(model: str, settings: str, shot: str = "") -> int:
    app, client, win = start_window(settings)
    seen = {}
    win.open_path(model)
    wait(app, lambda: win.state.view is not None and win.state.view.shapes is not None and
         not win.tasks.is_busy())
    original = win.state.view
    win.workspace.switch("optimize")           # the Optimize tab: pipeline and preview
    win.workbench.set_marks(["Mul"], ["softmax"])
    win.workbench.set_text("fold_constants(ignore_errors=true)")
    wait(app, lambda: len(win.state.rows) == 2 and not win.tasks.is_busy() and
         all(r.metrics.flops is not None for r in win.state.rows[1:]))
    table = win.preview_panel.table            # the step's row, clicked as a user does
    index = win.preview_panel.model.index(1, 0)
    table.scrollTo(index)
    wait(app, lambda: table.visualRect(index).isValid())
    QTest.mouseClick(table.viewport(), Qt.LeftButton, pos=table.visualRect(index).center())
    wait(app, lambda: win.state.step == 1 and win.state.view is not original and
         win.state.view.shapes is not None and not win.tasks.is_busy())
    canvas = win.canvas
    try:
        wait(app, lambda: any("[" in text for _, _, text in labels_placed(canvas)) and
             not win.tasks.is_busy(), 60)
    except TimeoutError:        # said below: no shape on the step's edges
        pass
    step = win.state.view
    seen["engine"] = type(win.state.engine).__name__
    seen["step"] = win.state.step
    seen["original_pool"] = [list(s) for s in original.shapes.get("pool", [])]
    seen["step_pool"] = [list(s) for s in step.shapes.get("pool", [])]
    seen["step_shaped"] = sum(1 for n in step.graph if step.shapes.get(n.name)) / len(step.graph)
    seen["labels"] = sorted({text for _, _, text in labels_placed(canvas) if "[" in text})
    # zoomed to 100 % on the lowest edge labelled with a shape (far from the inputs, whose
    # shapes their nodes declare): its label is painted
    x, y, _ = max((label for label in labels_placed(canvas) if "[" in label[2]),
                  key=lambda label: label[1], default=labels_placed(canvas)[0])
    canvas.set_zoom(1.0)
    canvas.centerOn(QPointF(x, y))
    canvas.viewport().repaint()
    app.processEvents()
    seen["painted"] = sorted({t for layer in canvas._edge_layers for _, t in layer.drawn
                              if "[" in t})
    seen["status"] = win.status_label.text()
    if shot:
        wait(app, lambda: not win.tasks.is_busy())
        app.processEvents()
        app.primaryScreen().grabWindow(0).save(shot)
        seen["shot"] = shot
    return finish(win, client, seen)


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
