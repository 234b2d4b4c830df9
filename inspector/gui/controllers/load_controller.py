"""Opening a model off the GUI thread: sniff, ask for a SavedModel signature, load (asking
before initialisers that are not pure computation run), summarize, hand it to the state."""

from __future__ import annotations

import os

from inspector.core.app.marks import start_summary
from inspector.core.app.opening import fell_back, start_open
from inspector.core.errors import Cancelled, InspectorError, UnsafeGraphError
from inspector.gui.wording import said


class LoadController:
    def __init__(self, state, tasks, dialogs):
        self.state, self.tasks, self.dialogs = state, tasks, dialogs
        self.auto_signature = False   # screenshots and scripts take the default signature
        self._to_summarize = None     # the model whose summary waits for its first layout
        state.model_changed.connect(self._opened)

    def open(self, path: str, signature: str | None = None, allow_unsafe: bool = False):
        name = os.path.basename(path.rstrip("/"))

        def choose(found):
            self.dialogs.choose_signature(name, found, lambda key: self.open(path, key))

        def failed(exc):
            if isinstance(exc, Cancelled):
                return
            if isinstance(exc, UnsafeGraphError) and exc.findings and not allow_unsafe:
                if self.dialogs.consent(exc, f"Loading {name}"):
                    self.open(path, signature, allow_unsafe=True)
                else:       # said: the model shown is not the one just chosen
                    self.state.fail(_refused(name, exc.findings, self.state.model))
                return
            if isinstance(exc, InspectorError):
                self.state.fail(said(exc))
            else:
                self.state.fail(f"{path}: could not open: {type(exc).__name__}: {exc}")

        start_open(self.state, self.tasks, path, choose, failed, signature, allow_unsafe,
                   self.auto_signature)

    def _opened(self, model) -> None:
        """A model in the state: its summary after its first picture, and a notice when it
        was opened another way than the usual one."""
        self._summarize_after_layout(model)
        if model.notes and (not model.frozen or any(fell_back(n) for n in model.notes)):
            how = "" if model.frozen else " as stored"
            self.dialogs.notice(f"Opened {os.path.basename(model.path.rstrip('/'))}{how}",
                                "\n\n".join(model.notes))

    def _summarize_after_layout(self, model) -> None:
        """Start the summary once the model's first scene is on screen (built and painted):
        run alongside the layout, or while the GUI thread builds and paints its picture, the
        Python threads share one interpreter and the picture waits for both.
        If that layout fails (an error is reported instead), the summary starts then. (A bound
        method, not a closure that disconnects itself: that closure is a reference cycle, and
        the garbage collector, which leaves what the app keeps alone, never freed it, nor the
        model it held.)"""
        if self._to_summarize is None:
            self.state.scene_shown.connect(self._laid_out)
            self.state.error.connect(self._laid_out)
        self._to_summarize = model

    def _laid_out(self, *_) -> None:
        model, self._to_summarize = self._to_summarize, None
        self.state.scene_shown.disconnect(self._laid_out)
        self.state.error.disconnect(self._laid_out)
        if model is not None and model is self.state.model:
            self._summarize(model)

    def _summarize(self, model) -> None:
        def failed(exc):
            if not isinstance(exc, Cancelled):
                self.state.fail(f"{model.path}: could not summarize: {exc}")

        start_summary(self.state, self.tasks, model, failed)


def _refused(name: str, findings: list, shown) -> str:
    """One line: the model was not opened, what loading it would have run, what is shown."""
    more = f" and {len(findings) - 1} more" if len(findings) > 1 else ""
    still = f"; {os.path.basename(shown.path.rstrip('/'))} is still shown" \
        if shown is not None else ""
    return (f"{name} was not opened: loading it would run {findings[0].describe()}{more}, "
            f"which you did not allow{still}")
