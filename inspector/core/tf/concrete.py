"""A concrete function frozen: variables to constants, calls inlined, loop leftovers gone."""

from __future__ import annotations

from inspector.core.tf.runtime import to_ours


def freeze_concrete(fn):
    """Freeze a concrete function: variables to constants, function calls inlined."""
    from tensorflow.python.framework.convert_to_constants import (
        convert_variables_to_constants_v2,
    )

    frozen = convert_variables_to_constants_v2(fn)
    graph_def = to_ours(frozen.graph.as_graph_def())
    _drop_unused_loop_inputs(graph_def)
    return frozen, graph_def


def _drop_unused_loop_inputs(graph_def) -> None:
    """Freezing a function with while loops leaves one `unused_control_flow_input_N`
    Placeholder per loop variable, fed to nothing; they would crowd the picture (and the
    likely inputs) with dozens of useless boxes."""
    used = {i.lstrip("^").split(":")[0] for n in graph_def.node for i in n.input}
    unused = [k for k, n in enumerate(graph_def.node) if n.op == "Placeholder" and
              n.name.startswith("unused_control_flow_input") and n.name not in used]
    for k in reversed(unused):
        del graph_def.node[k]
