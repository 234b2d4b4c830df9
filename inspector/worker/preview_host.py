"""The worker's side of the pipeline preview: it opens the model itself from the reference the
window sends (path, file stamp, how it was opened), keeps one PreviewEngine per model, and
answers with rows (numbers and change lists) and, only when asked, one step's graph."""

from __future__ import annotations

import sys
from collections import OrderedDict

from inspector.core.app.preview import MODEL_OPERATIONS, PreviewEngine
from inspector.core.loaders import reload
from inspector.core.runtime.executor import tensorflow
from inspector.core.runtime.job import of

KEEP_MODELS = 1   # a second model opened in the window replaces the first here


def _forget_sessions() -> None:
    """Close the session a demo run kept for the old model (if TensorFlow is loaded)."""
    if "tensorflow" in sys.modules:
        tensorflow().forget_sessions()


class PreviewHost:
    def __init__(self, keep: int = KEEP_MODELS):
        self.keep = keep
        self._engines: OrderedDict = OrderedDict()   # ModelRef -> PreviewEngine

    def engine(self, ref):
        engine = self._engines.get(ref)
        if engine is None:
            while len(self._engines) >= self.keep:
                self._engines.popitem(last=False)   # free the old model before loading
                _forget_sessions()
            engine = self._engines[ref] = PreviewEngine(reload(ref).graph.graph_def)
        self._engines.move_to_end(ref)
        return engine

    def operations(self) -> dict:
        def model(ref, name, *args, **kwargs):
            """One operation of the engine of the model `ref` names."""
            if name not in MODEL_OPERATIONS:
                raise ValueError(f"unknown model operation '{name}'")
            if "job" in kwargs:
                kwargs["job"] = of(kwargs["job"])
            return getattr(self.engine(ref), name)(*args, **kwargs)

        return {"model": model}
