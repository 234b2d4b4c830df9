"""Keras .keras / .h5 files: loaded in safe mode and frozen to a GraphDef (needs TensorFlow)."""

from __future__ import annotations

from inspector.core.runtime.executor import tensorflow


def load_keras(path: str, size: int):
    from inspector.core.loaders.load_time import check_keras
    from inspector.core.loaders.loaded import LoadedModel, Signature, make_graph

    check_keras(path)
    graph_def, inputs, outputs, how = tensorflow().freeze_keras(path)
    graph, problems = make_graph(graph_def, path)
    model = LoadedModel(path, "keras", graph, size, frozen=True,
                        signature=Signature("keras", inputs, outputs), problems=problems)
    if how:
        model.notes.append(how)
    return model
