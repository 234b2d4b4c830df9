"""The window's side of a preview engine that lives in the worker: the same methods as
inspector.core.app.preview.PreviewEngine, each one request naming the model by reference."""

from __future__ import annotations


class RemotePreview:
    def __init__(self, client, ref):
        self.client, self.ref = client, ref

    def run(self, steps, inputs, outputs, input_shapes=None, with_flops=True, cancel=None,
            on_row=None) -> list:
        return self.client.call("preview_run", self.ref, list(steps), list(inputs),
                                list(outputs), input_shapes, with_flops, cancel=cancel,
                                on_row=on_row)

    def call(self, task: str, *args, **kwargs):
        return self.client.call("model_call", self.ref, task, *args, **kwargs)

    def graph(self, key: bytes):
        return self.client.call("preview_graph", self.ref, key)

    def check(self, key: bytes, inputs, outputs, input_shapes=None, allow_io=False) -> list:
        return self.client.call("preview_check", self.ref, key, list(inputs), list(outputs),
                                input_shapes, allow_io)

    def save(self, key: bytes, path: str, as_text: bool = False) -> int:
        return self.client.call("preview_save", self.ref, key, path, as_text)
