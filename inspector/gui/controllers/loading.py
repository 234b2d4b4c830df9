"""Open a model off the GUI thread: sniff, ask for a SavedModel signature, load, summarize."""

from __future__ import annotations

import gc
import os

from inspector.core.errors import InspectorError, UnsafeGraphError
from inspector.core.errors import Cancelled


def _signature_keys(path: str) -> list:
    from inspector.core.loaders.savedmodel import describe, read_saved_model

    if not (os.path.isdir(path) or os.path.basename(path) == "saved_model.pb"):
        return []
    metas = describe(read_saved_model(path))
    return list(metas[0]["signatures"]) if metas else []


def open_model(window, path: str, signature: str | None = None,
               allow_unsafe: bool = False) -> None:
    from inspector.core.loaders import load
    from inspector.core.analysis.summary import summarize
    from inspector.core.view.view_graph import ViewModel

    fold = not window.consts_action.isChecked()

    def work(cancel):
        if signature is None and not window.auto_signature:
            keys = _signature_keys(path)
            if len(keys) > 1:
                return ("choose", keys)
        model = load(path, signature=signature, allow_unsafe=allow_unsafe)
        if cancel.is_set():
            raise Cancelled()
        view = ViewModel(model.graph, fold_constants=fold)
        summary = summarize(model.graph, model.known_inputs, model.known_outputs)
        gc.freeze()  # the model lives long: keep later collections from scanning it
        return ("loaded", model, view, summary)

    def done(result):
        if result[0] == "choose":
            key = window.choose_signature(result[1])
            if key:
                open_model(window, path, key)
            return
        window.model_loaded(*result[1:])

    def failed(exc):
        if isinstance(exc, Cancelled):
            return
        if isinstance(exc, UnsafeGraphError) and exc.findings and not allow_unsafe:
            if window.consent.ask(window, exc, f"Loading {os.path.basename(path.rstrip('/'))}"):
                open_model(window, path, signature, allow_unsafe=True)
            return
        if isinstance(exc, InspectorError):
            window.show_error(exc.one_line())
        else:
            window.show_error(f"{path}: could not open: {type(exc).__name__}: {exc}")

    window.runner.submit("load", work, done, failed, f"Opening {os.path.basename(path)}")
