"""Sizes: the treemap of the open model (and, while a pipeline step is shown, of the step
beside it), computed off the GUI thread; duplicated constants are looked for on request (it
reads their bytes); a click on a tile goes to its scope or node."""

from __future__ import annotations

import os

from PySide6.QtCore import QObject

from inspector.core.app import sizing
from inspector.core.view.vocabulary import human_bytes


class SizesController(QObject):
    def __init__(self, state, tasks, panel):
        super().__init__(panel)
        self.state, self.tasks, self.p = state, tasks, panel
        self.by = "scope"
        self.biggest: dict = {}      # op type or dtype -> its biggest node (click target)
        self.shown = 0               # sizes delivered (tests wait on it)
        self.stale = True            # the state changed while the panel was out of sight
        panel.by_changed.connect(self.set_by)
        panel.tile_clicked.connect(self.go_to)
        panel.duplicates_requested.connect(self.find_duplicates)
        panel.measure_requested.connect(self.refresh)
        self.visible = False         # the panel's dock is on screen (main window tells)
        self._sized = self._framed = None   # the model whose sizes / first picture are shown
        self._asked = None           # the model last measured (its task may have ended empty)
        state.model_changed.connect(lambda *_: self._model_changed())
        state.first_frame.connect(self._first_frame)
        state.view_changed.connect(lambda *_: self.refresh())
        state.sizes_changed.connect(self._show_sizes)
        state.duplicates_changed.connect(self._show_duplicates)
        tasks.busy.connect(lambda *_: self._show_waiting())
        if state.model is not None and state.framed is state.model:
            self._first_frame(state.model)    # its first picture is up: sizes when shown

    def _first_frame(self, model) -> None:
        self._framed = model
        self._show_waiting()
        self.refresh()

    def _model_changed(self) -> None:
        self._sized = self._framed = None            # the previous model is let go
        self.p.show_sizes(None, self.by, {}, "")     # not the previous model's tiles
        self.p.show_duplicates("")                   # nor its constants stored twice
        self._show_waiting()

    def _show_waiting(self) -> None:
        """"Opening NAME…" while it loads and until its first picture, then "Measuring
        NAME…" until its sizes are shown; when its measure ended without them (cancelled or
        failed: the status line said which), that it is not measured, and a Measure button."""
        loading, model = self.tasks.label_of("load"), self.state.model
        text, again = f"{loading}…" if loading else "", False
        if not loading and model is not None and self._sized is not model:
            name = os.path.basename(model.path.rstrip("/"))
            if self.tasks.is_busy("sizes") or self._framed is model and \
                    self._asked is not model:
                text = f"Measuring {name}…"
            elif self._asked is model:
                text, again = f"{name} is not measured (stopped or failed).", True
            else:
                text = f"Opening {name}…"
        self.p.show_waiting(text, again)

    def set_visible(self, on: bool) -> None:
        self.visible = on
        if on and self.stale:
            self.refresh()

    def set_by(self, by: str) -> None:
        self.by = by
        self.refresh()

    def refresh(self) -> None:
        if self.state.model is None or self.state.original_view is None:
            return
        if not self.visible:             # no work for a panel nobody looks at (big models)
            self.stale = True
            return
        self.stale = False
        if sizing.start_sizes(self.state, self.tasks, self.by):
            self._asked = self.state.model
            self._show_waiting()

    def _show_sizes(self, result) -> None:
        if result is None:                   # a failed measure: not measured
            self.p.show_sizes(None, self.by, {}, "")
            self._show_waiting()
            return
        if result.model is not self.state.model:
            return
        before, after, size = result.before, result.after, result.file_size
        self.biggest = before.biggest
        text = f"{human_bytes(before.total)} in {before.root.nodes:,} nodes"
        if size:
            text += f"; the file is {human_bytes(size)}: {size - before.total:,} bytes are " \
                    f"{sizing.rest_of_file(result.model)}"
        note = before.note[:1].upper() + before.note[1:]
        titles = (note, "")
        if after is not None:
            titles = (f"Original{': ' + before.note if note else ''}",
                      "After the selected pipeline step")
            text += f". After the step: {human_bytes(after.total)} " \
                    f"({100 * (after.total - before.total) / (before.total or 1):+.1f}%)"
        self.p.show_sizes(before.root, before.by, before.ops, text,
                          after.root if after else None, after.ops if after else None, titles)
        self._sized = result.model
        self._show_waiting()
        self.shown += 1

    def go_to(self, ident: str) -> None:
        view = self.state.view
        if view is None:
            return
        if ident in self.biggest:
            ident = self.biggest[ident]
        if ident.endswith("/") or ident in view.graph:
            self.p.jump.emit(ident)          # a scope ("path/") is shown open, selected

    def find_duplicates(self) -> None:
        sizing.start_duplicates(self.state, self.tasks)

    def _show_duplicates(self, dup) -> None:
        if not dup.groups:
            self.p.show_duplicates("No constant is stored twice.")
            return
        sets = "; ".join(f"{len(names)} x {human_bytes(size)} (e.g. "
                         f"{'/'.join(names[0].split('/')[-3:])})"
                         for size, names in dup.groups[:2])
        self.p.show_duplicates(f"{human_bytes(dup.wasted)} in {dup.tensors} duplicated "
                               f"tensors could be shared: {sets}")
