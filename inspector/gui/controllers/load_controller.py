"""Opening a model off the GUI thread: sniff, ask for a SavedModel signature, load (asking
before initialisers that are not pure computation run), summarize, hand it to the state."""

from __future__ import annotations

import os

from inspector.core.app.marks import start_summary
from inspector.core.app.opening import fell_back, open_model, signatures
from inspector.core.errors import Cancelled, InspectorError, UnsafeGraphError
from inspector.core.runtime import gc_policy


class LoadController:
    def __init__(self, state, tasks, dialogs):
        self.state, self.tasks, self.dialogs = state, tasks, dialogs
        self.auto_signature = False   # screenshots and scripts take the default signature
        self._to_summarize = None     # the model whose summary waits for its first layout

    def open(self, path: str, signature: str | None = None, allow_unsafe: bool = False):
        fold = not self.state.show_constants
        auto = self.auto_signature

        def work(task):
            if signature is None and not auto:
                found = signatures(path)
                if len(found) > 1:
                    return ("choose", found)
            from inspector.core.view.view_graph import ViewModel

            model = open_model(path, signature=signature, allow_unsafe=allow_unsafe)
            task.check()
            view = ViewModel(model.graph, fold_constants=fold)
            gc_policy.keep_out_of_collections()  # the model lives long
            return ("loaded", model, view)

        def done(result):
            if result[0] == "choose":
                self.dialogs.choose_signature(os.path.basename(path.rstrip("/")), result[1],
                                              lambda key: self.open(path, key))
                return
            model = result[1]
            self.state.set_model(model, result[2], None)
            self._summarize_after_layout(model)
            if model.notes:
                self.state.say(model.notes[0].split(",")[0])
            if model.notes and (not model.frozen or any(fell_back(n) for n in model.notes)):
                how = "" if model.frozen else " as stored"
                self.dialogs.notice(f"Opened {os.path.basename(path.rstrip('/'))}{how}",
                                    "\n\n".join(model.notes))

        def failed(exc):
            if isinstance(exc, Cancelled):
                return
            if isinstance(exc, UnsafeGraphError) and exc.findings and not allow_unsafe:
                if self.dialogs.consent(exc, f"Loading {os.path.basename(path.rstrip('/'))}"):
                    self.open(path, signature, allow_unsafe=True)
                return
            if isinstance(exc, InspectorError):
                self.state.fail(exc.one_line())
            else:
                self.state.fail(f"{path}: could not open: {type(exc).__name__}: {exc}")

        self.tasks.submit("load", work, done, failed, label=f"Opening {os.path.basename(path)}")

    def _summarize_after_layout(self, model) -> None:
        """Start the summary once the model's first scene is laid out: run alongside the
        layout, the two Python threads share one interpreter and the picture waits for both.
        If that layout fails (an error is reported instead), the summary starts then. (A bound
        method, not a closure that disconnects itself: that closure is a reference cycle, and
        the garbage collector, which leaves what the app keeps alone, never freed it, nor the
        model it held.)"""
        if self._to_summarize is None:
            self.state.scene_changed.connect(self._laid_out)
            self.state.error.connect(self._laid_out)
        self._to_summarize = model

    def _laid_out(self, *_) -> None:
        model, self._to_summarize = self._to_summarize, None
        self.state.scene_changed.disconnect(self._laid_out)
        self.state.error.disconnect(self._laid_out)
        if model is not None and model is self.state.model:
            self._summarize(model)

    def _summarize(self, model) -> None:
        def failed(exc):
            if not isinstance(exc, Cancelled):
                self.state.fail(f"{model.path}: could not summarize: {exc}")

        start_summary(self.state, self.tasks, model, failed)
