"""What TensorFlow would execute while loading a model, checked before it does.

Loading a SavedModel runs its initialisers (the `__saved_model_init_op` signature, the TF1
main_op / legacy_init_op / table initialisers, and in TF2 files every resource's
`_create_resource` and `_initialize` function) and, for TF1 files, the saver's restore op;
freezing a `.meta` with a checkpoint runs the restore op. All of it must be pure computation,
except the restore ops reading the model's own checkpoint (the file name TF feeds them).
Keras files are checked for layers that would run Python code (Lambda) before Keras sees them.
"""

from __future__ import annotations

import json
import os
import zipfile

from inspector.core.errors import ModelLoadError, UnsafeGraphError
from inspector.core.model import safety
from inspector.core.model.graph import node_name_from_input

RESTORE_OPS = frozenset({"RestoreV2", "Restore", "RestoreSlice"})
INIT_COLLECTIONS = ("saved_model_main_op", "legacy_init_op", "table_initializer")
RESOURCE_FUNCTIONS = ("_create_resource", "_initialize", "_destroy_resource")


def _collection_nodes(meta, key: str) -> list:
    col = meta.collection_def.get(key)
    if col is None:
        return []
    return list(col.node_list.value)


def _restore_findings(meta) -> list:
    gd, saver = meta.graph_def, meta.saver_def
    if not saver.restore_op_name:
        return []
    filename = node_name_from_input(saver.filename_tensor_name)
    findings = safety.assess(gd, [saver.restore_op_name], [saver.filename_tensor_name],
                             extra_ok=RESTORE_OPS)
    nodes = {n.name: n for n in gd.node}
    for node in safety.reached_nodes(gd, [saver.restore_op_name], [saver.filename_tensor_name]):
        if node.op in RESTORE_OPS and node.input:
            source = safety.reached_nodes(gd, [node.input[0]])
            if filename not in {n.name for n in source} and filename in nodes:
                findings.append(safety.Finding(node.name, node.op,
                                               "restores from a file other than the checkpoint"))
    return findings


def _resource_functions(meta) -> list:
    """Concrete functions TF2's loader calls to create and initialise resources."""
    graph = meta.object_graph_def
    names = []
    for obj in graph.nodes:
        if obj.WhichOneof("kind") != "resource":
            continue
        for child in obj.children:
            if child.local_name not in RESOURCE_FUNCTIONS:
                continue
            target = graph.nodes[child.node_id]
            kind = target.WhichOneof("kind")
            if kind == "function":
                names.extend(target.function.concrete_functions)
            elif kind == "bare_concrete_function":
                names.append(target.bare_concrete_function.concrete_function_name)
    return names


def saved_model_findings(meta) -> list:
    """Everything not pure that loading this MetaGraph (TF1 or TF2 style) would run."""
    gd = meta.graph_def
    starts = []
    init = meta.signature_def.get("__saved_model_init_op")
    if init is not None:
        starts += [t.name for t in init.outputs.values()]
    for key in INIT_COLLECTIONS:
        starts += _collection_nodes(meta, key)
    findings = safety.assess(gd, starts) if starts else []
    findings += _restore_findings(meta)
    checker = safety.Checker(safety.library_of(gd))
    for name in _resource_functions(meta):
        for op, why, via in checker.function(name):
            findings.append(safety.Finding(f"resource function {name}", op, why, (name,) + via))
    return findings


def metagraph_restore_findings(meta) -> list:
    return _restore_findings(meta)


def refuse(findings: list, path: str, action: str) -> None:
    if findings:
        raise UnsafeGraphError(
            f"{action} would run {len(findings)} operation(s) that are not pure computation: "
            f"{safety.summarize_findings(findings)}; refusing without permission (--allow_io, "
            "or --no-freeze to look at the graph without running anything)",
            path=path, node=findings[0].node, findings=findings)


# -- Keras --------------------------------------------------------------------------------
PYTHON_LAYERS = {"Lambda"}


def keras_config(path: str) -> dict | None:
    """The model config stored in a .keras (zip) or .h5 file, read without Keras."""
    try:
        if zipfile.is_zipfile(path):
            with zipfile.ZipFile(path) as zf:
                if "config.json" not in zf.namelist():
                    raise ModelLoadError("Keras archive has no config.json (not a .keras model)",
                                         path=path)
                info = zf.getinfo("config.json")
                if info.file_size > 64 * 2 ** 20:
                    raise ModelLoadError("Keras config.json is implausibly large", path=path)
                return json.loads(zf.read("config.json"))
        return _h5_config(path)
    except ModelLoadError:
        raise
    except RecursionError:      # was 'cannot load model: RecursionError', said far away
        raise ModelLoadError("Keras file's model config is nested too deeply to be a "
                             "model's", path=path) from None
    except (OSError, ValueError, KeyError, zipfile.BadZipFile) as exc:
        raise ModelLoadError(f"Keras file is damaged or unreadable ({type(exc).__name__}: "
                             f"{str(exc)[:120]})", path=path) from None


def python_layers(config) -> list:
    """(layer name, class) of every layer whose config carries Python code to run."""
    found, stack, seen = [], [config], 0
    while stack:
        item = stack.pop()
        seen += 1
        if seen > 1_000_000:
            break
        if isinstance(item, dict):
            cls = item.get("class_name")
            conf = item.get("config") if isinstance(item.get("config"), dict) else {}
            if cls in PYTHON_LAYERS:
                found.append((str(conf.get("name", "?")), cls))
            elif any(isinstance(k, str) and k.endswith("type") and v == "lambda"
                     for k, v in conf.items()) or \
                    any(isinstance(k, str) and k.endswith("type") and v == "lambda"
                        for k, v in item.items()):
                # Python bytecode kept in another layer or cell: `function_type`, or an RNN
                # cell wrapper's `residual_fn_type`, says "lambda"
                found.append((str(conf.get("name", item.get("name", "?"))),
                              item.get("registered_name") or cls or "function"))
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


def _h5_config(path: str) -> dict | None:
    try:
        import h5py
    except ImportError:
        raise ModelLoadError("reading a Keras .h5 file needs the h5py package (pip "
                             "install h5py)", path=path) from None
    with h5py.File(path, "r") as h5:
        raw = h5.attrs.get("model_config")
        if raw is None:
            return None
        return json.loads(raw.decode() if isinstance(raw, bytes) else raw)


def _h5_config_too(path: str) -> dict:
    """The model config an HDF5 reader finds in a zip (keras_config read the zip's): a file
    can be both, and Keras reads the one its name says (an .h5 name, or freeze_keras's link
    named by the first bytes)."""
    try:
        return _h5_config(path) or {}
    except Exception:  # noqa: BLE001 - no HDF5 in it (a plain .keras), or none h5py reads
        return {}


def zipfile_like(path: str) -> bool:
    with open(path, "rb") as fh:
        return fh.read(4) == b"PK\x03\x04"


def check_keras(path: str) -> None:
    """Refuse Keras files with layers that would run Python code, naming the first one."""
    if not os.path.isfile(path):
        return
    config = keras_config(path)
    if config is None and not zipfile_like(path):
        raise ModelLoadError("this .h5 file holds only weights, no model architecture "
                             "(saved with save_weights): build the model in code and "
                             "load_weights, or save the whole model (model.save)", path=path)
    layers = python_layers(config or {})
    if zipfile.is_zipfile(path):        # a zip that is an HDF5 file too: both configs checked
        layers += python_layers(_h5_config_too(path))
    if layers:
        name, cls = layers[0]
        more = f" (and {len(layers) - 1} more)" if len(layers) > 1 else ""
        raise UnsafeGraphError(f"the model has a {cls} layer '{name}'{more} that would run "
                               "Python code stored in the file; refusing to load it",
                               path=path, node=name)
