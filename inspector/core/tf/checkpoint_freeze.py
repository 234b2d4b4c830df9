"""Freezing a MetaGraphDef with a checkpoint the way freeze_graph meant it, without running
anything from the model: keep only what the outputs need, read each variable's value from the
checkpoint (TensorFlow's checkpoint reader) and put it in as a constant.

Not running the model's saver also means that training-only parts (gradients, optimizer
slots) never have to import: a stale `_output_shapes` on a gradient node, which stops TF's own
`import_meta_graph`, does not matter here. `_output_shapes` are dropped from the kept nodes
too: they are hints written by the TF that saved the graph, and TensorFlow checks them."""

from __future__ import annotations

from inspector.core.errors import ModelLoadError
from inspector.core.model.graph import node_name_from_input
from inspector.core.tf.runtime import first_line, serialized, tf, to_ours

REF_VARIABLES = {"VariableV2", "Variable"}
RESOURCE_VARIABLES = {"VarHandleOp"}
_ASSIGNS = {"Assign", "AssignVariableOp"}


def _strings(node) -> list | None:
    """The strings of a string Const, read as stored (None when its declared shape asks for
    more than it holds: TF would pad it out to that size, which a hostile file makes huge)."""
    if node is None or node.op != "Const":
        return None
    tensor = node.attr["value"].tensor
    count = 1
    for d in tensor.tensor_shape.dim:
        count *= max(d.size, 0)
    if count != len(tensor.string_val):
        return None
    return [x.decode("utf-8", "replace") for x in tensor.string_val]


def checkpoint_keys(graph_def) -> tuple[dict, set]:
    """(variable node -> its key in the checkpoint, variables saved as slices). Keys come
    from the saver's restore ops (Assign of RestoreV2:k to the variable, key =
    tensor_names[k]); variables not found there are keyed by their own name, which is what
    tf.compat.v1.train.Saver writes by default."""
    nodes = {n.name: n for n in graph_def.node}
    names, slices = {}, {}
    for node in graph_def.node:
        if node.op in ("RestoreV2", "Restore") and len(node.input) >= 2:
            found = _strings(nodes.get(node_name_from_input(node.input[1])))
            if found is not None:
                names[node.name] = found
                if len(node.input) >= 3:
                    slices[node.name] = _strings(nodes.get(node_name_from_input(
                        node.input[2]))) or []
    keys, partitioned = {}, set()
    for node in graph_def.node:
        if node.op not in _ASSIGNS or len(node.input) < 2:
            continue
        value, port = node.input[1], 0
        source = nodes.get(node_name_from_input(value))
        while source is not None and source.op == "Identity" and source.input:
            value = source.input[0]
            source = nodes.get(node_name_from_input(value))
        if source is None or source.name not in names:
            continue
        if ":" in value:
            tail = value.rsplit(":", 1)[1]
            port = int(tail) if tail.isdigit() else 0
        variable = node_name_from_input(node.input[0])
        if port < len(names[source.name]):
            keys[variable] = names[source.name][port]
        spec = slices.get(source.name, [])
        if port < len(spec) and spec[port].strip():
            partitioned.add(variable)
    return keys, partitioned


@serialized
def freeze_metagraph(meta_bytes: bytes, checkpoint: str, outputs: list, path: str):
    """GraphDef of what `outputs` need in a .meta, with the checkpoint's variable values as
    constants; checked by importing it into TensorFlow."""
    t = tf()
    v1 = t.compat.v1
    try:
        meta = v1.MetaGraphDef.FromString(meta_bytes)
        graph_def = meta.graph_def
        present = {n.name for n in graph_def.node}
        names = [node_name_from_input(o) for o in outputs]
        missing = [o for o in names if o not in present]
        if missing:
            raise ValueError(f"output node '{missing[0]}' is not in the graph")
        keys, partitioned = checkpoint_keys(graph_def)
        kept = v1.graph_util.extract_sub_graph(graph_def, names)
        reader = v1.train.NewCheckpointReader(checkpoint)
        try:
            frozen = _with_constants(kept, keys, reader, partitioned)
        except _NeedsSession:
            frozen = _freeze_in_session(meta, checkpoint, names)
        with t.Graph().as_default():
            t.graph_util.import_graph_def(frozen, name="")
    except ModelLoadError:
        raise
    except Exception as exc:  # TF raises many types; report one line
        raise ModelLoadError(f"cannot freeze with checkpoint '{checkpoint}': {first_line(exc)}",
                             path=path) from None
    return to_ours(frozen)


class _NeedsSession(ValueError):
    """Resource variables handed to functions (tf.cond/while_loop v2), or partitioned
    variables: TF's own restore and converter have to do it, from a restored session."""


def _freeze_in_session(meta, checkpoint: str, names: list):
    """freeze_graph's way: import the MetaGraph (its stale `_output_shapes` removed), restore
    the checkpoint with the model's saver, convert variables to constants."""
    from tensorflow.python.framework.convert_to_constants import (
        convert_variables_to_constants_from_session_graph,
    )

    t = tf()
    v1 = t.compat.v1
    for node in meta.graph_def.node:
        node.attr.pop("_output_shapes", None)
    graph = t.Graph()
    with graph.as_default(), v1.Session(graph=graph) as sess:
        saver = v1.train.import_meta_graph(meta, clear_devices=True)
        if saver is None:
            raise ValueError("the MetaGraph has no saver, so no checkpoint can be restored")
        saver.restore(sess, checkpoint)
        return convert_variables_to_constants_from_session_graph(
            sess, graph.as_graph_def(), names)


def _with_constants(graph_def, keys: dict, reader, partitioned: set = frozenset()):
    t = tf()
    out = type(graph_def)()
    out.versions.CopyFrom(graph_def.versions)
    out.library.CopyFrom(graph_def.library)
    resources = {}
    for node in graph_def.node:
        new = out.node.add()
        new.CopyFrom(node)
        new.attr.pop("_output_shapes", None)
        if node.op in REF_VARIABLES or node.op in RESOURCE_VARIABLES:
            if node.name in partitioned:   # one slice of a saved tensor: TF's saver knows how
                raise _NeedsSession(f"variable '{node.name}' is saved as a slice")
            key = keys.get(node.name, node.name)
            if not reader.has_tensor(key):
                raise ValueError(f"variable '{node.name}' is not in the checkpoint")
            value = reader.get_tensor(key)
            dtype = t.dtypes.as_dtype(node.attr["dtype"].type).base_dtype
            new.ClearField("attr")
            new.ClearField("input")
            new.op = "Const"
            new.attr["dtype"].type = dtype.as_datatype_enum
            new.attr["value"].tensor.CopyFrom(t.make_tensor_proto(value, dtype=dtype))
            if node.op in RESOURCE_VARIABLES:
                resources[node.name] = dtype
        elif node.op == "ReadVariableOp" and node_name_from_input(node.input[0]) in resources:
            dtype = resources[node_name_from_input(node.input[0])]
            new.op = "Identity"
            new.attr.clear()
            new.attr["T"].type = dtype.as_datatype_enum
    _unref(out, {n.name for n in out.node if n.op == "Const"})
    for node in out.node:   # anything else still using a resource handle cannot run
        for inp in node.input:
            if not inp.startswith("^") and node_name_from_input(inp) in resources and \
                    node.op != "Identity":
                raise _NeedsSession(f"node '{node.name}' ({node.op}) uses resource variable "
                                 f"'{node_name_from_input(inp)}' in a way that cannot be frozen")
    return out


# ops that need a variable (a ref) and what they become once the variable is a constant; the
# usual repair for graphs whose kept part updates variables (batch norm's training branch)
_REF_OPS = {"Assign": "Identity", "AssignAdd": "Add", "AssignSub": "Sub",
            "RefSwitch": "Switch", "RefIdentity": "Identity", "RefMerge": "Merge",
            "RefEnter": "Enter", "RefExit": "Exit", "RefNextIteration": "NextIteration"}


def _unref(graph_def, constants: set) -> None:
    """Rewrite ref ops fed (directly or through other ref ops) by frozen variables."""
    refless = set(constants)
    changed = True
    while changed:
        changed = False
        for node in graph_def.node:
            if node.op not in _REF_OPS or node.name in refless or not node.input or \
                    node_name_from_input(node.input[0]) not in refless:
                continue
            if node.op == "Assign":     # the new value, kept in order after the controls
                data = [i for i in node.input if not i.startswith("^")]
                controls = [i for i in node.input if i.startswith("^")]
                del node.input[:]
                node.input.extend(data[1:2] + controls)
            node.op = _REF_OPS[node.op]
            for attr in ("use_locking", "validate_shape"):
                node.attr.pop(attr, None)
            refless.add(node.name)
            changed = True
