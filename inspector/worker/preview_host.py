"""The worker's side of the pipeline preview: it opens the model itself from the reference the
window sends (path, file stamp, how it was opened), keeps one PreviewEngine per model, and
answers with rows (numbers and change lists) and, only when asked, one step's graph."""

from __future__ import annotations

from collections import OrderedDict

KEEP_MODELS = 1   # a second model opened in the window replaces the first here


def _forget_sessions() -> None:
    """Close the session a demo run kept for the old model (if TensorFlow is loaded)."""
    import sys

    if "tensorflow" in sys.modules:
        from inspector.core.model.executor import tensorflow

        tensorflow().forget_sessions()


class PreviewHost:
    def __init__(self, keep: int = KEEP_MODELS):
        self.keep = keep
        self._engines: OrderedDict = OrderedDict()   # ModelRef -> PreviewEngine

    def engine(self, ref):
        from inspector.core.app.preview import PreviewEngine
        from inspector.core.loaders import reload

        engine = self._engines.get(ref)
        if engine is None:
            while len(self._engines) >= self.keep:
                self._engines.popitem(last=False)   # free the old model before loading
                _forget_sessions()
            engine = self._engines[ref] = PreviewEngine(reload(ref).graph.graph_def)
        self._engines.move_to_end(ref)
        return engine

    def operations(self) -> dict:
        def preview_run(ref, steps, inputs, outputs, input_shapes=None, with_flops=True,
                        cancel=None, on_row=None):
            return self.engine(ref).run(steps, inputs, outputs, input_shapes, with_flops,
                                        cancel=cancel, on_row=on_row)

        def preview_graph(ref, key):
            return self.engine(ref).graph(key)

        def preview_check(ref, key, inputs, outputs, input_shapes=None, allow_io=False):
            return self.engine(ref).check(key, inputs, outputs, input_shapes, allow_io)

        def preview_save(ref, key, path, as_text=False):
            return self.engine(ref).save(key, path, as_text)

        def model_call(ref, task, *args, **kwargs):
            return self.engine(ref).call(task, *args, **kwargs)

        return {"model_call": model_call, "preview_run": preview_run, "preview_graph": preview_graph,
                "preview_check": preview_check, "preview_save": preview_save}
