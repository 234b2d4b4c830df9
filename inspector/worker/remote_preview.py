"""The window's side of a preview engine that lives in the worker: every operation of
inspector.core.app.preview.PreviewEngine (MODEL_OPERATIONS), each one request naming the
model by reference. The methods are derived from the engine's, signatures included."""

from __future__ import annotations

import functools

from inspector.core.app.preview import MODEL_OPERATIONS, PreviewEngine


class RemotePreview:
    def __init__(self, client, ref):
        self.client, self.ref = client, ref


def _request(name: str):
    def method(self, *args, **kwargs):
        return self.client.call("model", self.ref, name, *args, **kwargs)

    return functools.wraps(getattr(PreviewEngine, name))(method)


for _name in MODEL_OPERATIONS:
    setattr(RemotePreview, _name, _request(_name))
