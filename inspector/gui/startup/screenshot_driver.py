"""`graphdef-inspector MODEL --screenshot OUT.png [--expand SCOPE]`: wait for the drawn view,
expand the asked scopes, save the window (or, with --compare, the comparison's), quit."""

from __future__ import annotations

import sys

from PySide6.QtCore import QTimer

from inspector.gui.panels import chart_slot


class ScreenshotDriver:
    """Waits for the drawn view, expands the requested scopes, saves the window, quits."""

    def __init__(self, window, out: str, expand: list, app):
        self.window, self.out, self.pending, self.app = window, out, list(expand), app
        self.code = 0
        self.saved = False
        self.waiting = lambda: False   # something else the picture must show first
        self.target = lambda: window   # the window to grab (a comparison's, with --compare)
        # the whole graph fitted, or (after --run) the view the run left: a run opens a
        # wrapper scope's blocks to show their values, ~150 in MobileNet v2, and fitting them
        # all made one thin unreadable column
        self.fit = True
        window.state.scene_changed.connect(self._scene)
        window.error_shown.connect(self._error)

    def _scene(self, scene):
        if self.pending:
            scope = self.pending.pop(0).strip("/")
            self.window.canvas_ctl.fit_next = True
            if scope not in self.window.state.expanded:
                self.window.state.set_expanded(scope, True)
                return
            return self._scene(scene)
        QTimer.singleShot(300, self._save)

    def _error(self, text):
        print(f"graphdef-inspector: error: {text}", file=sys.stderr)
        self.code = 2
        self.app.exit(2)

    def _save(self):
        if self.saved:
            return

        if self.window.tasks.is_busy() or not self.window.pipeline.ready or self.waiting() \
                or chart_slot.pending():
            # e.g. shape inference or the pipeline preview: wait for the final picture
            QTimer.singleShot(200, self._save)
            return
        target = self.target()
        if target is self.window:
            if self.fit:
                self.window.canvas.fit()  # a screenshot shows the whole graph
            self.window.canvas.viewport().repaint()
        image = target.grab()
        if not image.save(self.out):
            print(f"graphdef-inspector: error: cannot write {self.out}", file=sys.stderr)
            self.app.exit(2)
            return
        self.saved = True
        print(f"Saved {self.out}")
        self.app.exit(0)
