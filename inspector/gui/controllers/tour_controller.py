"""Tours in the window: stops captured from and restored to the state and the canvas (the view
glides between them), the auto-tour built off the GUI thread, presentation mode (full screen,
large type, clicker keys, black screen, spotlight, pointer halo) and the session file kept up
to date. A stop never starts a model run by itself: it offers a Run button."""

from __future__ import annotations

import os
from dataclasses import replace

from PySide6.QtCore import (
    QEasingCurve,
    QObject,
    QRectF,
    Qt,
    QTimer,
    QVariantAnimation,
    Signal,
)
from PySide6.QtWidgets import QApplication, QFileDialog, QGraphicsView

from inspector.core.app.decorations import overlay_entry
from inspector.core.app.exports import beside
from inspector.core.app.session_file import outside_folder, session_path
from inspector.core.app.tour import Stop
from inspector.core.errors import InspectorError
from inspector.gui.controllers.tour_view import TourView
from inspector.gui.wording import said

NEXT_KEYS = {Qt.Key_PageDown, Qt.Key_Right, Qt.Key_Space, Qt.Key_Down}
PREVIOUS_KEYS = {Qt.Key_PageUp, Qt.Key_Left, Qt.Key_Up, Qt.Key_Backspace}


class TourController(TourView, QObject):
    run_wanted = Signal(str)        # a stop's demo input, once the presenter said Run
    card_wanted = Signal(bool)      # show (True) or hide the model card for a card stop

    def __init__(self, state, tasks, panel, canvas, stage, chrome, dialogs):
        super().__init__(panel)
        self.state, self.tasks, self.panel = state, tasks, panel
        self.canvas, self.stage, self.chrome, self.dialogs = canvas, stage, chrome, dialogs
        self.tour = state.workbench.tour
        self.current = -1
        self.presenting = False
        self.reduce_motion = False
        self.spotlight = True
        self.ui_scale = 1.5             # presentation: view zoom at least this (text >= 18 px)
        self.pending_rect = None
        self.restoring = False          # a stop's overlay is being put back (no dock raised)
        self._moves = 0                 # counts the view's moves: a stale glide is dropped
        self._user_view = None          # what the user looked at before presenting
        self.glide = QVariantAnimation(self)
        self.glide.setEasingCurve(QEasingCurve.InOutCubic)
        self.glide.valueChanged.connect(self._glide_step)
        self.tour.changed.connect(self._tour_changed)
        state.model_changed.connect(lambda *_: self._model_changed())
        state.scene_changed.connect(lambda *_: self._scene_changed())
        p = panel
        p.add_requested.connect(self.add)
        p.update_requested.connect(self.update)
        p.delete_requested.connect(self.tour.remove)
        p.moved.connect(self.tour.move)
        p.chosen.connect(lambda k: self.go_to(k))
        p.title_edited.connect(self.tour.rename)
        p.text_edited.connect(lambda k, c, n: self.tour.set_text(k, c, n))
        p.auto_requested.connect(self.auto)
        p.present_requested.connect(self.present)
        p.export_requested.connect(self.export)
        p.motion_changed.connect(lambda on: setattr(self, "reduce_motion", on))
        p.spotlight_changed.connect(self._spotlight_changed)
        p.scale_changed.connect(lambda v: setattr(self, "ui_scale", float(v)))
        p.show_stops(self.tour.stops)       # a session file's tour, restored before it

    # -- the tour and the session file ------------------------------------------------------
    def _model_changed(self):
        self._user_view = None          # another model: nothing of the old one to go back to
        self.leave()
        self.current = -1
        self.panel.show_stops(self.tour.stops)

    def _tour_changed(self):
        self.current = min(self.current, len(self.tour.stops) - 1)
        row = self.panel.stops.currentRow()
        self.panel.show_stops(self.tour.stops, min(row, len(self.tour.stops) - 1))
        # saved by the pipeline controller with the rest of the session (400 ms later, or
        # before another model opens)

    def save(self) -> None:
        """Save the session now."""
        model = self.state.model
        if model is None:
            return
        try:
            self.state.workbench.save(model.path)
        except InspectorError as exc:
            self.state.fail(f"The tour was not saved: {said(exc)}")

    def capture(self) -> Stop:
        """What the canvas shows now, as a stop."""
        s = self.state
        rect = self.canvas.mapToScene(self.canvas.viewport().rect()).boundingRect()
        selected = s.visible_id(s.selected) if s.selected else ""
        demo = s.demo
        return Stop(title=selected.rstrip("/").rpartition("/")[2] or "Overview",
                    expanded=sorted(s.expanded), selected=selected,
                    rect=(rect.x(), rect.y(), rect.width(), rect.height()),
                    overlay="activations" if demo is not None else s.overlay.mode,
                    focus=[selected] if selected else [],
                    input=self._relative(demo.path) if demo is not None and demo.path else "")

    def _relative(self, path: str) -> str:
        folder = os.path.dirname(os.path.abspath(self.state.model.path.rstrip("/")))
        return os.path.relpath(os.path.abspath(path), folder)

    def add(self) -> None:
        if self.state.model is None:
            return
        self.current = self.tour.add(self.capture(), self.current + 1 if self.current >= 0
                                     else None)
        self.panel.show_stops(self.tour.stops, self.current)

    def update(self, index: int) -> None:
        old, new = self.tour.stops[index], self.capture()
        new.title, new.caption, new.notes, new.kind = old.title, old.caption, old.notes, old.kind
        self.tour.update(index, new)

    def auto(self) -> None:
        """Build the auto-tour off the GUI thread; an existing tour is kept unless the
        presenter agrees to replace it."""
        s = self.state
        model, view = s.model, s.original_view
        if model is None or view is None:
            return
        if self.tour.stops and not self.dialogs.confirm(
                "Auto-tour", f"Replace the {len(self.tour.stops)} stops of this tour by a tour "
                "built from the model?"):
            return
        from inspector.core.app.auto_tour import start_auto_tour

        demo = s.demo
        path = self._relative(demo.path) if demo is not None and demo.path else ""

        def shown(stops):
            self.current = 0 if stops else -1

        start_auto_tour(s, self.tasks, path, lambda exc: s.fail(f"No auto-tour: {exc}"), shown)

    # -- going to a stop ------------------------------------------------------------------------
    def go_to(self, index: int, animate: bool = True) -> None:
        stops = self.tour.stops
        if not stops or self.state.view is None:
            return
        index = max(0, min(index, len(stops) - 1))
        self._moves += 1
        self.current = index
        stop = stops[index]
        s = self.state
        self.card_wanted.emit(stop.kind == "card")
        self.canvas.style.spotlight = frozenset(stop.focus) \
            if self.spotlight and stop.focus and stop.kind != "card" else None
        self._show_stage(stop, index)
        self.pending_rect = (QRectF(*stop.rect) if stop.rect else None, animate)
        s.select(stop.selected or None, record=False)
        before = s.expanded
        s.show_scopes(stop.expanded or [""])
        self._restore_overlay(stop)
        self.panel.stops.setCurrentRow(index)
        self.canvas.viewport().update()
        if s.expanded == before:
            self._scene_changed()   # same scene: glide now

    def _restore_overlay(self, stop) -> None:
        overlay, entry = self.state.overlay, overlay_entry(stop.overlay)
        if entry is not None and entry.dock != "demo" and overlay.mode != stop.overlay \
                and entry.has_data(self.state):    # a stop never computes an overlay
            self._set_overlay_mode(stop.overlay)

    def _set_overlay_mode(self, mode: str) -> None:
        self.restoring = True
        try:
            self.state.set_overlay(replace(self.state.overlay, mode=mode))
        finally:
            self.restoring = False

    def _scene_changed(self) -> None:
        if self.pending_rect is None:
            return
        if self.pending_rect == "user view":      # left presenting: the user's own view
            self.pending_rect = None
            QTimer.singleShot(0, self._put_back_view)
            return
        rect, animate = self.pending_rect
        self.pending_rect = None
        if rect is not None:
            moves = self._moves
            QTimer.singleShot(0, lambda: moves == self._moves and self.glide_to(rect, animate))

    def _show_stage(self, stop, index: int) -> None:
        if not self.presenting:
            return
        from inspector.gui.canvas.stop_render import answer_bars, seen_image

        demo = self.state.demo
        picture = seen_image(demo.seen) if stop.kind == "sees" and demo is not None and \
            demo.seen is not None else None
        bars = answer_bars(demo) if stop.kind == "output" else []
        action = ""
        if stop.input and (demo is None or not demo.path or
                           self._relative(demo.path) != stop.input):
            action = f"Press R to run the model on {os.path.basename(stop.input)}"
        self.stage.show_stop(stop.title, stop.caption, f"{index + 1} / {len(self.tour.stops)}",
                             picture, demo.seen.description if picture is not None else "",
                             bars, action)

    def run_stop_input(self) -> None:
        """R (or the panel's Run): the current stop's demo input, resolved inside the session
        file's folder; a path leading elsewhere asks first."""
        if not (0 <= self.current < len(self.tour.stops)):
            return
        value = self.tour.stops[self.current].input
        if not value:
            return
        session = session_path(self.state.model.path)
        outside = outside_folder(session, value)
        target = outside or os.path.realpath(os.path.join(os.path.dirname(
            os.path.abspath(session)), value))
        if outside and not self.dialogs.confirm(
                "Run the model", f"This stop's input is outside the model's folder:\n{outside}"
                "\n\nRun the model on it?"):
            return
        self.run_wanted.emit(target)

    # -- presenting ------------------------------------------------------------------------------
    def present(self) -> None:
        if not self.tour.stops or self.presenting:
            return
        s = self.state
        self._user_view = (frozenset(s.expanded), s.selected, s.overlay.mode,
                           self.canvas.transform(),
                           self.canvas.mapToScene(self.canvas.viewport().rect().center()))
        self.presenting = True
        self.chrome.enter()
        self.canvas.style.present(True)
        self.canvas.set_halo(True)
        self.stage.scale = self.ui_scale
        QApplication.instance().installEventFilter(self)
        self.canvas.setFocus()
        self.go_to(max(self.current, 0), animate=False)

    def leave(self) -> None:
        if not self.presenting:
            return
        self.presenting = False
        QApplication.instance().removeEventFilter(self)
        self.stage.set_blank(False)
        self.stage.hide()
        self.canvas.style.present(False)
        self.canvas.set_halo(False)
        self.card_wanted.emit(False)
        self.canvas.setSceneRect(QRectF())     # the scene's own bounds again
        self.chrome.leave()
        self.canvas.viewport().update()
        self._restore_user_view()

    def _restore_user_view(self) -> None:
        """Back to what the user looked at before presenting: open scopes, selection,
        overlay, zoom and place."""
        if self._user_view is None or self.state.view is None:
            return
        expanded, selected, mode, _, _ = self._user_view
        s = self.state
        self._moves += 1
        self.glide.stop()
        s.select(selected, record=False)
        if s.overlay.mode != mode:
            self._set_overlay_mode(mode)
        if frozenset(s.expanded) != expanded:
            self.pending_rect = "user view"      # placed once that layout is drawn
            s.show_scopes(sorted(expanded))
        else:
            self.pending_rect = None
            QTimer.singleShot(0, self._put_back_view)

    def _put_back_view(self) -> None:
        if self._user_view is None:
            return
        _, _, _, transform, centre = self._user_view
        self._user_view = None
        layout = self.canvas.window().layout()
        if layout is not None:
            layout.activate()          # the docks are back: the canvas has its size again
        self.canvas.setTransform(transform)
        self.canvas.centerOn(centre)
        # a window manager may still resize the window (leaving full screen): keep the
        # centre, not the top-left corner, for that resize
        self.canvas.setResizeAnchor(QGraphicsView.AnchorViewCenter)
        QTimer.singleShot(1500, self.canvas,
                          lambda: self.canvas.setResizeAnchor(QGraphicsView.NoAnchor))

    def step(self, delta: int) -> None:
        if self.stage.blank:
            self.stage.set_blank(False)
            return
        self.go_to(self.current + delta)

    def eventFilter(self, obj, event):
        if not self.presenting or event.type() != event.Type.KeyPress:
            return False
        key = event.key()
        if key in NEXT_KEYS:
            self.step(1)
        elif key in PREVIOUS_KEYS:
            self.step(-1)
        elif key in (Qt.Key_B, Qt.Key_Period):
            self.stage.set_blank(not self.stage.blank)
        elif key == Qt.Key_Escape:
            self.leave()
        elif key == Qt.Key_Home:
            self.go_to(0)
        elif key == Qt.Key_End:
            self.go_to(len(self.tour.stops) - 1)
        elif key == Qt.Key_R:
            self.run_stop_input()
        else:
            return False
        return True

    def _spotlight_changed(self, on: bool) -> None:
        self.spotlight = on
        if 0 <= self.current < len(self.tour.stops):
            self.go_to(self.current, animate=False)

    # -- export ------------------------------------------------------------------------------------
    def export(self, path: str | None = None) -> str | None:
        from inspector.gui.tour_export import export_steps

        s = self.state
        if s.model is None or not self.tour.stops:
            return None
        if path is None:
            path, _ = QFileDialog.getSaveFileName(
                self.panel, "Export tour", beside(s.model.path, ".tour.html"),
                "Web page, opens anywhere (*.html);;PDF slides (*.pdf)")
            if not path:
                return None
        steps = export_steps(path, s.original_view, list(self.tour.stops), s.demo,
                             s.model.path, spotlight=self.spotlight)
        self.exported = None

        def next_stop():      # one stop per event-loop turn: the window keeps answering
            try:
                done, total = next(steps)
            except StopIteration:
                self.exported = path
                self.state.say(f"Wrote {path}")
                return
            except InspectorError as exc:
                self.state.fail(said(exc))
                return
            self.state.say(f"Exporting the tour: stop {done} of {total}")
            QTimer.singleShot(0, next_stop)

        next_stop()
        return path
