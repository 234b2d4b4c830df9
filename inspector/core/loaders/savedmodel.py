"""SavedModel: list tags and signatures without TensorFlow; freeze one signature with it."""

from __future__ import annotations

import glob
import os
import stat

from inspector.core.errors import ModelLoadError, TensorFlowUnavailable
from inspector.core.loaders import files
from inspector.core.loaders.load_time import refuse, saved_model_findings
from inspector.core.loaders.loaded import LoadedModel, Signature, make_graph, read_bytes
from inspector.core.loaders.protofile import parse
from inspector.core.loaders.sniff import SAVEDMODEL, looks_like_text, saved_model_file, sniff
from inspector.core.model import protos, tensors
from inspector.core.model.dtypes import dtype_name
from inspector.core.runtime.executor import tensorflow

DEFAULT_SIGNATURE = "serving_default"


def _tensor_info(info) -> dict:
    dims = None if info.tensor_shape.unknown_rank else tensors.shape_dims(info.tensor_shape)
    return {"name": info.name, "dtype": dtype_name(info.dtype), "shape": tensors.format_shape(dims)}


def _specs(sdef) -> tuple[dict, dict]:
    """({input key: (dtype, shape)}, {output key: (dtype, shape)}) a signature declares."""
    def spec(info):
        found = _tensor_info(info)
        return found["dtype"], found["shape"]

    return ({k: spec(v) for k, v in sorted(sdef.inputs.items())},
            {k: spec(v) for k, v in sorted(sdef.outputs.items())})


def _public_keys(meta) -> list:
    """Signature keys, without internal ones such as __saved_model_init_op."""
    return sorted(k for k in meta.signature_def if not k.startswith("__"))


def describe(saved_model) -> list[dict]:
    """One entry per MetaGraph: its tags and signatures with their input and output tensors."""
    out = []
    for meta in saved_model.meta_graphs:
        sigs = {}
        for key in _public_keys(meta):
            sdef = meta.signature_def[key]
            sigs[key] = {
                "method": sdef.method_name,
                "inputs": {k: _tensor_info(v) for k, v in sorted(sdef.inputs.items())},
                "outputs": {k: _tensor_info(v) for k, v in sorted(sdef.outputs.items())},
            }
        out.append({"tags": list(meta.meta_info_def.tags), "signatures": sigs})
    return out


def read_saved_model(path: str):
    """The SavedModel message of a SavedModel folder (or its saved_model.pb); anything else
    is refused with what it is instead."""
    st = files.stat_input(path)
    model_file = saved_model_file(path) if stat.S_ISDIR(st.st_mode) else path
    data = read_bytes(model_file)
    if not stat.S_ISDIR(st.st_mode):
        kind, _ = sniff(path, data)
        if kind != SAVEDMODEL:
            raise ModelLoadError(f"not a SavedModel (the file holds a {KIND_NAMES.get(kind, kind)}"
                                 "): only SavedModels have signatures", path=path)
    return parse(data, protos.SavedModel, looks_like_text(data), path)


KIND_NAMES = {"graphdef": "GraphDef", "metagraph": "MetaGraphDef", "keras-h5": "Keras .h5 model",
              "keras-zip": "Keras .keras model", "tfjs": "TensorFlow.js model"}


def _pick_meta(saved_model, tags, path):
    if not saved_model.meta_graphs:
        raise ModelLoadError("SavedModel has no MetaGraphs", path=path)
    if not tags:
        return saved_model.meta_graphs[0]
    for meta in saved_model.meta_graphs:
        if set(meta.meta_info_def.tags) == set(tags):
            return meta
    have = "; ".join(",".join(m.meta_info_def.tags) for m in saved_model.meta_graphs)
    raise ModelLoadError(f"no MetaGraph with tags {','.join(tags)} (available: {have})", path=path)


def load_saved_model(path, model_file, data, is_text, size, freeze, tags, signature,
                     allow_unsafe=False):
    saved = parse(data, protos.SavedModel, is_text, path)
    meta = _pick_meta(saved, tags, path)
    tags = list(meta.meta_info_def.tags)
    keys = _public_keys(meta)
    if signature is None:
        signature = DEFAULT_SIGNATURE if DEFAULT_SIGNATURE in keys else (keys[0] if keys else None)
    elif signature not in keys:
        raise ModelLoadError(f"no signature '{signature}' (available: {', '.join(keys) or 'none'})",
                             path=path)
    if not freeze or signature is None:
        return _as_stored(path, meta, signature, tags, size, is_text)

    if not allow_unsafe:
        refuse(saved_model_findings(meta), path, "loading this SavedModel")
    directory = path if os.path.isdir(path) else os.path.dirname(path) or "."
    too_big = freeze_refusal(directory) or _unnamed_tensor(meta, signature)
    if too_big:
        model = _as_stored(path, meta, signature, tags, size, is_text)
        model.notes.append(too_big)
        return model
    try:
        graph_def, inputs, outputs, how = tensorflow().freeze_saved_model(directory, tags,
                                                                         signature)
    except (ModelLoadError, TensorFlowUnavailable) as exc:  # the graph as stored, explained
        why = ("TensorFlow is not available here to load it." if isinstance(
            exc, TensorFlowUnavailable) else _why_not_frozen(exc.message.split(": ", 1)[-1]))
        model = _as_stored(path, meta, signature, tags, size, is_text)
        model.notes.append(
            f"Signature '{signature}' could not be frozen, so this is the graph as stored in "
            "the SavedModel: the weights are still variables and the signature's computation "
            f"sits inside function calls (StatefulPartitionedCall). {why}")
        return model

    graph, problems = make_graph(graph_def, path)
    sig = Signature(signature, inputs, outputs, *_specs(meta.signature_def[signature]))
    model = LoadedModel(path, "savedmodel", graph, size, is_text, frozen=True, tags=tags,
                        signature=sig, problems=problems)
    model.file_size = graph.structure.ByteSize()   # what the user sees: the frozen graph
    if how:
        model.notes.append(how)
    return model


FREEZE_LIMIT = 2 ** 31 - 1   # one GraphDef, as protobuf serializes it


def _unnamed_tensor(meta, signature: str) -> str | None:
    """Why the signature cannot be frozen when one of its tensors is not NAME:N of a node
    in the graph (None when all are): TensorFlow froze a signature whose output read
    'output' into a graph of its one input node, shown without a word."""
    sdef = meta.signature_def[signature]
    nodes = None
    for side, infos in (("input", sdef.inputs), ("output", sdef.outputs)):
        for key, info in sorted(infos.items()):
            if info.WhichOneof("encoding") != "name":
                continue            # sparse and composite tensors name their parts
            node, _, port = info.name.rpartition(":")
            if nodes is None:
                nodes = {n.name for n in meta.graph_def.node}
            if not port.isdigit() or node not in nodes:
                return (f"Signature '{signature}' was not frozen: its {side} '{key[:80]}' "
                        f"names '{info.name[:200]}', which is not a tensor of the graph "
                        "(NODE:N); this is the graph as stored in the SavedModel")
    return None


def variables_bytes(directory: str) -> int:
    """Bytes of a SavedModel's variable values (its variables/variables.data-* shards)."""
    return sum(os.path.getsize(p) for p in
               glob.glob(os.path.join(glob.escape(directory), "variables", "variables.data-*")))


def freeze_refusal(directory: str) -> str | None:
    """Why freezing this SavedModel is refused before any work starts, or None: its weights
    would not fit in one GraphDef."""
    total = variables_bytes(directory)
    if total < FREEZE_LIMIT:
        return None
    return (f"Not frozen: its variables hold {total / 2 ** 30:.1f} GB, and a frozen graph must "
            "fit in one GraphDef (protobuf's 2 GB limit). This is the graph as stored, with "
            "the weights kept as variables. To deploy it, keep the variables (serve the "
            "SavedModel), convert it to TensorFlow Lite, or split the model.")


def _why_not_frozen(said: str) -> str:
    """The likely cause of a failed freeze, in plain words, then what TensorFlow said."""
    if "TensorSliceReader" in said or ("variables" in said and "find" in said):
        cause = "The SavedModel's weights (its variables/ folder) are missing or unreadable."
    elif "_UserObject" in said or "has no attribute" in said:
        cause = ("TensorFlow could not rebuild the model's saved objects: it was probably "
                 "written by another TensorFlow or Keras version.")
    else:
        cause = "TensorFlow could not load it."
    return f"{cause} TensorFlow said: {said}"


def _as_stored(path, meta, signature, tags, size, is_text):
    """The MetaGraph's own graph, unfrozen, with the signature's names."""
    graph, problems = make_graph(meta.graph_def, path)
    sig = None
    if signature is not None:
        sdef = meta.signature_def[signature]
        sig = Signature(signature, {k: v.name for k, v in sorted(sdef.inputs.items())},
                        {k: v.name for k, v in sorted(sdef.outputs.items())}, *_specs(sdef))
    return LoadedModel(path, "savedmodel", graph, size, is_text, tags=tags, signature=sig,
                       problems=problems)
