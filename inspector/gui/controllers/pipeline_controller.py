"""The pipeline: edits from the pipeline panel applied to the workbench, the session file
restored (never running or writing anything by itself) and saved after edits (the tour's
too), and the live preview
recomputed off the GUI thread after every change."""

from __future__ import annotations

from PySide6.QtCore import QObject, QTimer

from inspector.core.app.inputs import strip_parameters
from inspector.core.app.pipeline_runs import start_preview
from inspector.core.errors import InspectorError
from inspector.gui.wording import said


class PipelineController(QObject):
    def __init__(self, state, tasks, panel=None):
        """`panel`: the Pipeline panel, or None until it is made (`attach`: it is hidden at
        start, made after the first picture); the session and the preview go on without it."""
        super().__init__(panel)
        self.state, self.tasks, self.panel = state, tasks, None
        self.bench = state.workbench
        self.ready = False              # the model's session is restored
        self.requested = False          # a preview was started for this model
        self.overrides = None           # (inputs, outputs, transforms) from the command line
        self._save_timer = QTimer(self)
        self._save_timer.setSingleShot(True)
        self._save_timer.setInterval(400)
        self._save_timer.timeout.connect(self.autosave)
        self._saving_for = None         # the model whose edit the timer will save
        state.model_changed.connect(self.model_loaded)
        state.first_frame.connect(lambda *_: self._first_frame())
        self.bench.changed.connect(self._changed)
        self.bench.tour.changed.connect(self._tour_edited)
        state.expansion_changed.connect(self._expansion_changed)
        if panel is not None:
            self.attach(panel)

    def attach(self, panel) -> None:
        """The Pipeline panel, made now: wired, showing the open model's pipeline."""
        self.panel = p = panel
        p.add_requested.connect(self.add_step)
        p.moved.connect(self.bench.move_step)
        p.removed.connect(self.bench.remove_step)
        p.enabled_changed.connect(self.bench.set_enabled)
        p.param_changed.connect(self.bench.set_param)
        p.text_applied.connect(self.apply_text)
        model = self.state.model
        if model is not None:
            p.op_types = sorted(model.graph.op_counts())
        self._refresh_panel()

    def add_step(self, name: str, row: int = -1) -> None:
        """A transform dropped or double-clicked in the palette; strip_unused_nodes comes with
        the marked inputs' known types and shapes filled in."""
        params = strip_parameters(self.state) if name == "strip_unused_nodes" else None
        self.bench.add_step(name, None if row < 0 else row, params)

    # -- model lifecycle ----------------------------------------------------------------------
    def model_loaded(self, model):
        self.flush_session()             # an edit of the previous model not saved yet
        self.ready = False
        if self.panel is not None:    # op counts: by the ViewModel, off this thread
            self.panel.op_types = sorted(model.graph.op_counts())
        found = None
        try:
            self.bench.reset()
            found = self.bench.restore(model.path, model.graph)
        except InspectorError as exc:
            self.state.fail(said(exc))
        if self.bench.expanded:
            self.state.open_scopes(self.bench.expanded)
        if self.bench.warnings:          # which file: it may sit in the user's data folder
            self.state.fail(f"{found}: the session file was restored, but:\n" +
                            "\n".join(self.bench.warnings))
        overrides, self.overrides = self.overrides, None
        if overrides:
            ins, outs, text = overrides
            if ins is not None or outs is not None:
                self.bench.set_marks(ins if ins is not None else self.bench.inputs,
                                     outs if outs is not None else self.bench.outputs)
            if text is not None:
                try:
                    self.bench.set_text(text)
                except InspectorError as exc:
                    self.state.fail(said(exc))
        self.ready = True
        self.requested = False
        self.state.set_rows([])
        self._refresh_panel(discard_edits=True)  # no unapplied text of the previous model

    def _expansion_changed(self):
        """The scopes open are part of the session: saved like an edit, also when opened on
        the graph after a pipeline step (the Preview's row shown: the same scopes, one set)."""
        state = self.state
        if not self.ready or state.model is None or not state.shows_the_model():
            return
        opened = sorted(state.expanded - {""})
        if opened != self.bench.expanded:
            self.bench.expanded = opened
            self._saving_for = state.model
            self._save_timer.start()

    def _tour_edited(self):
        """The tour is part of the session: an edit is saved like one, for the model open now
        (flushed if another opens first); the restore's own replace is not an edit."""
        if self.ready and self.state.model is not None:
            self._saving_for = self.state.model
            self._save_timer.start()

    def _first_frame(self):
        if not self.requested:  # an edit since the model opened has started one already
            self.request_preview()

    def _changed(self):
        self._refresh_panel()
        if self.state.engine is None or not self.ready:
            return
        self._saving_for = self.state.model
        self._save_timer.start()
        self.request_preview()

    def _refresh_panel(self, discard_edits: bool = False):
        if self.panel is not None:
            self.panel.refresh(self.bench.steps, self.bench.text_lines, discard_edits)

    def apply_text(self, text: str):
        try:
            self.bench.set_text(text)
        except InspectorError as exc:
            self.panel.show_text_error(exc.message)

    def flush_session(self) -> None:
        """An edit whose save is still waiting (the 400 ms debounce) is saved now: before
        another model opens, and as the window closes (the app ends with the timer pending)."""
        if self._save_timer.isActive():
            self._save_timer.stop()
            self.autosave()

    def autosave(self):
        model, self._saving_for = self._saving_for, None
        if model is None:
            return
        try:
            self.bench.save(model.path)
        except (InspectorError, OSError) as exc:
            self.state.say(f"Session not saved: {exc}")

    # -- the preview ----------------------------------------------------------------------------
    def request_preview(self):
        if self.ready and start_preview(self.state, self.tasks):
            self.requested = True
