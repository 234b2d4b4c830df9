"""A loaded Keras model (Keras 3 or legacy, in this process or legacy Keras's child) traced
and frozen to a GraphDef."""

from __future__ import annotations

from inspector.core.tf.concrete import freeze_concrete
from inspector.core.tf.runtime import tf


def _no_rnn_dropout_masks(model) -> None:
    """Keras 3 RNN cells draw their dropout masks before the loop even at inference, advancing
    a seed variable (an AssignVariableOp that freezing cannot turn into a constant: 'passed
    int64 ... incompatible with expected resource'); with training=False the masks are never
    applied, so the rates are set to 0 first (the answers are the same)."""
    flatten = getattr(model, "_flatten_layers", None)
    layers = list(flatten(include_self=False, recursive=True)) if flatten else []
    for layer in layers + [getattr(x, "cell", None) for x in layers]:
        if layer is not None and any(c.__name__ == "DropoutRNNCell" and
                                     c.__module__.startswith("keras.")
                                     for c in type(layer).__mro__):
            layer.dropout = layer.recurrent_dropout = 0.0


def freeze_loaded_keras(model):
    """(GraphDef, inputs, outputs) of a loaded Keras model (Keras 3 or legacy)."""
    t = tf()
    _no_rnn_dropout_masks(model)
    specs = [t.TensorSpec(x.shape, x.dtype, name=x.name.split(":")[0]) for x in model.inputs]

    @t.function(input_signature=specs)
    def serve(*args):
        return model(list(args) if len(args) > 1 else args[0], training=False)

    fn = serve.get_concrete_function()
    frozen, graph_def = freeze_concrete(fn)
    inputs = {s.name: x.name for s, x in zip(specs, frozen.inputs)}
    names = [x.name for x in frozen.outputs]
    keys = [str(k) for k in (getattr(model, "output_names", None) or [])]
    if len(keys) != len(names) or len(set(keys)) != len(keys):   # Keras's own names, as
        keys = [n.split(":")[0] if len(names) > 1 else "output" for n in names]  # summary()
    return graph_def, inputs, dict(zip(keys, names))
