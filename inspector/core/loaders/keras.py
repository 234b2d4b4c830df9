"""Keras .keras / .h5 files: loaded in safe mode and frozen to a GraphDef (needs TensorFlow);
a file no Keras can load (or opened without freezing) shows its layers read from its own
config instead, read-only (keras_layers)."""

from __future__ import annotations

import os

from inspector.core.errors import InspectorError, ModelLoadError, UnsafeGraphError
from inspector.core.loaders.keras_layers import LayerGraph
from inspector.core.loaders.keras_shapes import wide_input
from inspector.core.loaders.keras_weights import (
    SIZE_FLOOR,
    attach_weights,
    largest_stored_dim,
    largest_stored_elements,
    oversized_field,
    read_weights,
)
from inspector.core.loaders.load_time import check_keras, keras_config
from inspector.core.loaders.loaded import CAPABILITIES, LoadedModel, Signature, make_graph
from inspector.core.model.weights import WeightStore
from inspector.core.runtime.executor import tensorflow

LAYERS_KIND = "keras-layers"     # the read-only layer view: nothing runs or rewrites it
CAPABILITIES[LAYERS_KIND] = frozenset()


def load_keras(path: str, size: int, freeze: bool = True):
    check_keras(path)
    if not freeze:
        return load_layers(path, size, "opened without freezing (--no-freeze)")
    try:
        _check_declared_sizes(path)
        graph_def, inputs, outputs, how = tensorflow().freeze_keras(path)
    except UnsafeGraphError:
        raise
    except InspectorError as exc:     # no Keras loads it, or no TensorFlow: show its layers
        return load_layers(path, size, f"it cannot be frozen: {exc.message}", exc)
    graph, problems = make_graph(graph_def, path)
    model = LoadedModel(path, "keras", graph, size, frozen=True,
                        signature=Signature("keras", inputs, outputs), problems=problems)
    if how:
        model.notes.append(how)
    return model


def _check_declared_sizes(path: str) -> None:
    """Sizes in the config are checked against the stored weights before Keras allocates."""
    config = keras_config(path) or {}
    layers = LayerGraph(config)
    entries, note = read_weights(path, layers)
    if "could not be read" in note or "not installed" in note:
        return                          # nothing to check against (Keras will say why)
    largest, most = largest_stored_dim(entries), largest_stored_elements(entries)
    found = oversized_field(config, largest, most)
    if found and found[3]:
        layer, keys, value, _ = found
        raise ModelLoadError(f"layer '{layer}' declares a variable of {value:,} elements "
                             f"({keys}), more than the largest weight stored in the file "
                             f"({most:,} elements): Keras would allocate it before reading the "
                             "weights, so it is not loaded", path=path, node=layer)
    if found:
        layer, key, value, _ = found
        raise ModelLoadError(f"layer '{layer}' declares {key}={value:,}, larger than any weight "
                             f"stored in the file (largest dimension {largest:,}): Keras would "
                             "allocate it before reading the weights, so it is not loaded",
                             path=path, node=layer)
    found = wide_input(layers, largest, SIZE_FLOOR, most)
    if found and found[2] is not None:
        layer, size, elements = found
        raise ModelLoadError(f"layer '{layer}' would be built for an input of {size:,} channels "
                             f"into a variable of {elements:,} elements, more than the largest "
                             f"weight stored in the file ({most:,} elements): Keras would "
                             "allocate it before reading the weights, so it is not loaded",
                             path=path, node=layer)
    if found:
        layer, size, _ = found
        raise ModelLoadError(f"layer '{layer}' would be built for an input {size:,} wide, larger "
                             f"than any weight stored in the file (largest dimension "
                             f"{largest:,}): Keras would allocate it before reading the weights, "
                             "so it is not loaded", path=path, node=layer)


def load_layers(path: str, size: int, why: str, failure: InspectorError | None = None):
    """The layer graph from the file's config, with the stored weights' shapes; `why` says
    in the note why this view is shown. If the config cannot be drawn, `failure` is raised."""
    try:
        layers = LayerGraph(keras_config(path) or {})
        entries, weights_note = read_weights(path, layers)
        attach_weights(layers, entries)
        graph, problems = make_graph(layers.gd, path, weights=_store(path, layers.slots))
    except ModelLoadError as exc:
        if failure is None:
            raise
        raise ModelLoadError(f"{failure.message}; its layers cannot be shown either: "
                             f"{exc.message}", path=path) from None
    if layers.custom and failure is not None:
        many = len(layers.custom) > 1
        why = (f"it cannot be frozen: its layer class{'es' if many else ''} "
               f"{', '.join(layers.custom[:5])} {'are' if many else 'is'} not Keras's own but "
               "defined by the program that saved it")
    notes = [f"Keras layers from the file's own config (read-only; nothing was run): {why}"] + \
        [n for n in (layers.note, weights_note) if n]
    return LoadedModel(path, LAYERS_KIND, graph, size, frozen=False,
                       signature=Signature("keras", layers.inputs, layers.outputs),
                       problems=problems, notes=notes)


def _store(path: str, slots: list):
    """The weights left in the file, read from it when someone looks."""
    if not slots:
        return None
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
    st = os.fstat(fd)
    return WeightStore(path, fd, (st.st_size, st.st_mtime_ns), slots, 0)
