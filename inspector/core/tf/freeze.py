"""Freezing: SavedModel signatures, Keras files and .meta + checkpoint into one GraphDef with
variables as constants (loading checks happen before these are called, in the loaders);
.meta + checkpoint is in checkpoint_freeze."""

from __future__ import annotations

from inspector.core.errors import ModelLoadError
from inspector.core.tf.runtime import first_line, serialized, tf, to_ours


def _freeze_concrete(fn):
    """Freeze a concrete function: variables to constants, function calls inlined."""
    from tensorflow.python.framework.convert_to_constants import (
        convert_variables_to_constants_v2,
    )

    frozen = convert_variables_to_constants_v2(fn)
    graph_def = to_ours(frozen.graph.as_graph_def())
    return frozen, graph_def


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
    """(GraphDef, inputs, outputs) of one SavedModel signature, frozen and inlined."""
    t = tf()
    try:
        loaded = t.saved_model.load(directory, tags=tags or None)
        fn = loaded.signatures[signature]
        frozen, graph_def = _freeze_concrete(fn)
        inputs, outputs = _io_names(fn, frozen)
        kw = fn.structured_input_signature[1]
        if kw:  # signature inputs are keyword arguments: name them by their keys
            names = list(inputs.values())
            inputs = {k: names[i] for i, k in enumerate(sorted(kw)) if i < len(names)}
    except Exception as exc:  # TF raises many types; report one line
        raise ModelLoadError(f"cannot freeze signature '{signature}': {first_line(exc)}",
                             path=directory) from None
    return graph_def, inputs, outputs


@serialized
def freeze_keras(path: str):
    """(GraphDef, inputs, outputs) of a Keras model file, loaded with safe_mode on."""
    t = tf()
    import keras

    try:
        model = keras.saving.load_model(path, compile=False, safe_mode=True)
        specs = [t.TensorSpec(x.shape, x.dtype, name=x.name.split(":")[0])
                 for x in model.inputs]

        @t.function(input_signature=specs)
        def serve(*args):
            return model(list(args) if len(args) > 1 else args[0], training=False)

        fn = serve.get_concrete_function()
        frozen, graph_def = _freeze_concrete(fn)
        inputs = {s.name: x.name for s, x in zip(specs, frozen.inputs)}
        names = [x.name for x in frozen.outputs]
        outputs = {n.split(":")[0] if len(names) > 1 else "output": n for n in names}
    except Exception as exc:
        raise ModelLoadError(f"cannot load Keras model: {first_line(exc)}", path=path) from None
    return graph_def, inputs, outputs
