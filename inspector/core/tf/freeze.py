"""Freezing: SavedModel signatures, Keras files and .meta + checkpoint into one GraphDef with
variables as constants (loading checks happen before these are called, in the loaders);
.meta + checkpoint is in checkpoint_freeze."""

from __future__ import annotations

import os
import tempfile

from inspector.core.errors import ModelLoadError
from inspector.core.tf import keras_child
from inspector.core.tf.concrete import freeze_concrete
from inspector.core.tf.keras_graph import freeze_loaded_keras
from inspector.core.tf.legacy_keras import available, freeze_in_child
from inspector.core.tf.runtime import first_line, serialized, tf, to_ours


def _output_keys(fn) -> list:
    from tensorflow.python.util import nest

    flat = nest.flatten_with_joined_string_paths(fn.structured_outputs)
    return [path or str(i) for i, (path, _) in enumerate(flat)]


def _io_names(fn, frozen) -> tuple[dict, dict]:
    t = tf()
    specs = t.nest.flatten(fn.structured_input_signature)
    placeholders = [x.name for x in frozen.inputs if x.dtype != t.resource]
    inputs = {}
    for i, name in enumerate(placeholders):
        spec_name = getattr(specs[i], "name", None) if i < len(specs) else None
        inputs[spec_name or name.split(":")[0]] = name
    outputs = dict(zip(_output_keys(fn), (x.name for x in frozen.outputs)))
    return inputs, outputs


@serialized
def freeze_saved_model(directory: str, tags: list, signature: str):
    """(GraphDef, inputs, outputs, note) of one SavedModel signature, frozen and inlined.

    TF's object loader first (TF 2.x SavedModels); when it cannot rebuild the saved objects
    (a Keras model saved by another version, a TF 1.x builder SavedModel without them), the
    MetaGraph is loaded into a session, which restores the variables checkpoint, and frozen
    from there, as freeze_graph did. note says which way it went ('' for the first)."""
    try:
        return (*_freeze_with_object_loader(directory, tags, signature), "")
    except Exception as exc:  # TF raises many types
        first = first_line(exc)
    try:
        graph_def, inputs, outputs = _freeze_from_metagraph(directory, tags, signature)
    except Exception as exc:
        raise ModelLoadError(f"cannot freeze signature '{signature}': {first} (and from the "
                             f"MetaGraph and its checkpoint: {first_line(exc)})",
                             path=directory) from None
    return graph_def, inputs, outputs, (
        "TensorFlow's object loader could not rebuild this SavedModel's objects "
        f"({first}), so it was frozen from its MetaGraph and variables checkpoint instead.")


def _freeze_with_object_loader(directory: str, tags: list, signature: str):
    t = tf()
    loaded = t.saved_model.load(directory, tags=tags or None)
    fn = loaded.signatures[signature]
    frozen, graph_def = freeze_concrete(fn)
    inputs, outputs = _io_names(fn, frozen)
    kw = fn.structured_input_signature[1]
    if kw:  # signature inputs are keyword arguments: name them by their keys
        names = list(inputs.values())
        inputs = {k: names[i] for i, k in enumerate(sorted(kw)) if i < len(names)}
    return graph_def, inputs, outputs


def _freeze_from_metagraph(directory: str, tags: list, signature: str):
    """Load the MetaGraph in a session (restoring the checkpoint), turn variables into
    constants, then inline the function calls of TF 2.x graphs."""
    from tensorflow.python.framework.convert_to_constants import (
        convert_variables_to_constants_from_session_graph,
    )

    t = tf()
    v1 = t.compat.v1
    graph = t.Graph()
    with graph.as_default(), v1.Session(graph=graph) as sess:
        meta = v1.saved_model.loader.load(sess, tags or ["serve"], directory)
        sig = meta.signature_def[signature]
        inputs = {k: v.name for k, v in sorted(sig.inputs.items())}
        outputs = {k: v.name for k, v in sorted(sig.outputs.items())}
        nodes = sorted({name.split(":")[0] for name in outputs.values()})
        frozen = convert_variables_to_constants_from_session_graph(
            sess, graph.as_graph_def(), nodes)
    if not frozen.library.function:
        return to_ours(frozen), inputs, outputs
    wrapped = v1.wrap_function(lambda: t.graph_util.import_graph_def(frozen, name=""), [])
    get = wrapped.graph.get_tensor_by_name
    pruned = wrapped.prune([get(n) for n in inputs.values()], [get(n) for n in outputs.values()])
    inlined, graph_def = freeze_concrete(pruned)
    inputs = dict(zip(inputs, (x.name for x in inlined.inputs)))
    outputs = dict(zip(outputs, (x.name for x in inlined.outputs)))
    return graph_def, inputs, outputs


@serialized
def freeze_keras(path: str):
    """(GraphDef, inputs, outputs, how) of a Keras model file (freeze_keras_here), in a child
    process held to a memory and a time limit where this process asks for it (the command
    line: keras_child)."""
    if keras_child.wanted():
        return keras_child.freeze(path, freeze_keras_here)
    return freeze_keras_here(path, keras_child.layer_watch())


def freeze_keras_here(path: str, watch=None):
    """(GraphDef, inputs, outputs, how) of a Keras model file, loaded with safe_mode on: Keras 3
    first; Keras 2 files it cannot read, or would compute differently, go to legacy Keras in a
    child process. A file whose name does not say its kind (an .h5 saved as model.pb: the
    loaders know it by its content) is loaded through a link named as Keras wants. `watch` is
    called with the keras module before Keras 3 loads anything."""
    tf()                    # one line when TensorFlow is missing (the file's layers are shown)
    suffix = _keras_suffix(path)
    if suffix is None or path.lower().endswith(suffix):
        return _freeze_keras(path, watch)
    with tempfile.TemporaryDirectory(prefix="inspector-keras-") as folder:
        alias = os.path.join(folder, "model" + suffix[0])
        os.symlink(os.path.abspath(path), alias)
        try:
            return _freeze_keras(alias, watch)
        except ModelLoadError as exc:
            raise ModelLoadError(exc.message.replace(alias, path), path=path) from None


def _keras_suffix(path: str) -> tuple | None:
    """The names Keras reads a file of this content by: HDF5 (.h5, .hdf5) or a .keras zip."""
    with open(path, "rb") as fh:
        head = fh.read(8)
    if head == b"\x89HDF\r\n\x1a\n":
        return (".h5", ".hdf5")
    return (".keras",) if head[:4] == b"PK\x03\x04" else None


def _freeze_keras(path: str, watch=None):
    try:
        import keras
    except ImportError as exc:
        raise ModelLoadError(f"Keras cannot be imported ({exc})", path=path) from None
    if watch is not None:           # (keras_child.watch_layers: which layer Keras builds)
        watch(keras)

    differs = _keras3_differs(path) if available() else ""
    if differs:
        try:
            graph_def, inputs, outputs, notes = freeze_in_child(path)
            said = (f"Keras 3 would compute this Keras 2 file differently ({differs}); it was "
                    "read with legacy Keras (tf-keras) in a separate process.")
            return graph_def, inputs, outputs, " ".join([said, *notes])
        except ModelLoadError:
            pass                # Keras 3 then, said below
    try:
        model = keras.saving.load_model(path, compile=False, safe_mode=True)
    except Exception as exc:
        said = _first_sentence(first_line(exc))
        if not _legacy_may_read(path, said):
            raise ModelLoadError(f"Keras cannot load it: {said}", path=path) from None
        try:
            graph_def, inputs, outputs, notes = freeze_in_child(path)
        except ModelLoadError as legacy:
            why = _first_sentence(legacy.message.removeprefix("legacy Keras cannot load it: "))
            raise ModelLoadError(f"Keras 3 cannot load it ({said}), nor legacy Keras ({why})",
                                 path=path) from None
        how = (f"Keras 3 cannot read this Keras 2 file ({said}); it was read with legacy Keras "
               "(tf-keras) in a separate process.")
        return graph_def, inputs, outputs, " ".join([how, *notes])
    try:
        frozen = freeze_loaded_keras(model)
    except Exception as exc:
        raise ModelLoadError(f"Keras loads it but it cannot be frozen: {first_line(exc)}",
                             path=path) from None
    note = (f"Keras 3 computes differently from the Keras 2 that saved this file ({differs}) "
            "and legacy Keras could not read it: its answers may differ from the model's own."
            if differs else "")
    return (*frozen, note)


def _keras3_differs(path: str) -> str:
    """What Keras 3 would compute differently from the Keras 2 that saved this .h5 ('' when
    nothing): Keras 3's hard_sigmoid is relu6(x + 3) / 6, Keras 2's clip(0.2 x + 0.5)."""
    import h5py

    with open(path, "rb") as fh:
        if fh.read(8) != b"\x89HDF\r\n\x1a\n":
            return ""
    try:
        with h5py.File(path, "r") as h5:
            version = h5.attrs.get("keras_version", b"2")
            raw = h5.attrs.get("model_config") or b""
    except (OSError, ValueError):
        return ""
    if _text(version).startswith("3") or '"hard_sigmoid"' not in _text(raw):
        return ""
    return "hard_sigmoid: x / 6 + 0.5 in Keras 3, 0.2 x + 0.5 in Keras 2"


def _first_sentence(text: str) -> str:
    """Keras's errors go on with advice on custom objects: the first sentence says it."""
    head = text.split(". ", 1)[0].rstrip(".")
    return head if len(head) <= 300 else head[:299] + "…"


def _text(value) -> str:
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)


def _legacy_may_read(path: str, said: str) -> bool:
    """Keras 3 failing on a Keras 2 (.h5) file: legacy Keras may read it. Refusals for safety
    (a Lambda layer in safe mode) are final."""
    with open(path, "rb") as fh:
        h5 = fh.read(8) == b"\x89HDF\r\n\x1a\n"
    return h5 and "safe_mode" not in said and "Lambda" not in said
