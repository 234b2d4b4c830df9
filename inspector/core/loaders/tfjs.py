"""TensorFlow.js graph models (`model.json` + binary weight shards) into a GraphDef.

`modelTopology` is a GraphDef in protobuf's JSON form whose Const nodes lost their values; the
values sit in the shards listed by `weightsManifest`, one group of shards after another, each
weight `prod(shape)` items of its stored dtype (uint8/uint16 quantized with scale and min, or
float16, when the converter was asked to quantize). Its fused ops are made runnable by
tfjs_ops."""

from __future__ import annotations

import json
import math
import os

from inspector.core.errors import ModelLoadError
from inspector.core.loaders import files
from inspector.core.loaders.loaded import LoadedModel, Signature, make_graph
from inspector.core.loaders.tfjs_ops import fix_fused
from inspector.core.model import protos, tensors
from inspector.core.model.dtypes import dtype_name
from inspector.core.model.tensors import element_count

JSON_LIMIT = 512 * 2 ** 20        # model.json itself (the topology; weights are in shards)
SHARD_LIMIT = files.PROTOBUF_LIMIT
# TF.js dtype -> (numpy dtype name, TF dtype enum); numpy is imported to decode weights only
_DTYPES = {"float32": ("float32", 1), "int32": ("int32", 3), "bool": ("bool", 10),
           "complex64": ("complex64", 8), "string": (None, 7)}
_QUANTIZED = {"uint8": "uint8", "uint16": "uint16", "float16": "float16"}


def looks_like_tfjs(head: bytes) -> bool:
    """A JSON file that a TF.js converter wrote (graph or layers model)."""
    text = head.lstrip()[:65536]
    return text.startswith(b"{") and (b'"modelTopology"' in text or b'"weightsManifest"' in text)


def model_json_in(directory: str) -> str | None:
    candidate = os.path.join(directory, "model.json")
    return candidate if os.path.isfile(candidate) else None


def read_manifest(path: str) -> dict:
    text = files.read_file(path, JSON_LIMIT, "model.json")
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise ModelLoadError(f"TF.js model.json is not valid JSON ({exc})", path=path) from None
    if not isinstance(doc, dict) or not isinstance(doc.get("modelTopology"), dict):
        raise ModelLoadError("TF.js model.json has no modelTopology", path=path)
    fmt = doc.get("format")
    topology = doc["modelTopology"]
    if fmt == "layers-model" or "class_name" in topology or "model_config" in topology:
        raise ModelLoadError("this is a TensorFlow.js layers model (a Keras model for the "
                             "browser); only TF.js graph models can be opened (convert it with "
                             "tensorflowjs_converter --output_format=tfjs_graph_model)", path=path)
    return doc


def _weight_specs(doc: dict, path: str) -> list:
    """(spec, shard paths of its group) for every weight, in stored order."""
    out = []
    manifest = doc.get("weightsManifest") or []
    if not isinstance(manifest, list):
        raise ModelLoadError("TF.js weightsManifest is not a list", path=path)
    for group in manifest:
        paths = group.get("paths") or []
        weights = group.get("weights") or []
        if not isinstance(paths, list) or not isinstance(weights, list):
            raise ModelLoadError("TF.js weightsManifest group has no paths/weights lists",
                                 path=path)
        out.append((weights, paths))
    return out


def _shard_bytes(folder: str, paths: list, path: str, seen: set) -> bytes:
    parts = []
    inside = os.path.realpath(folder).rstrip(os.sep) + os.sep
    for name in paths:
        if not isinstance(name, str):
            raise ModelLoadError(f"TF.js weight shard path {str(name)[:80]!r} is not a file "
                                 "name", path=path)
        if name in seen:
            raise ModelLoadError(f"TF.js weight shard {name!r} is listed more than once",
                                 path=path)
        seen.add(name)
        shard = os.path.join(folder, name)
        # a name, or a symbolic link, leading out of the folder (to /etc/passwd, ../..)
        if os.path.isabs(name) or ".." in name.split("/") or "\0" not in name and \
                not os.path.realpath(shard).startswith(inside):
            raise ModelLoadError(f"TF.js weight shard path {name!r} points outside the model's "
                                 "folder", path=path)
        if not os.path.exists(shard):
            raise ModelLoadError(f"TF.js weight shard '{name}' is missing (expected beside "
                                 "model.json)", path=path)
        parts.append(files.read_file(shard, SHARD_LIMIT, f"weight shard '{name}'"))
    return b"".join(parts)


def _decode(spec: dict, data: bytes, at: int, path: str) -> tuple:
    """(TensorProto, bytes consumed) of one weight starting at `at`."""
    name = spec.get("name", "?")
    shape = spec.get("shape", [])
    if not isinstance(shape, list) or any(not isinstance(d, int) or d < 0 for d in shape):
        raise ModelLoadError(f"TF.js weight '{name}' has an invalid shape {shape!r}", path=path)
    count = math.prod(shape)
    dtype = spec.get("dtype", "float32")
    if dtype not in _DTYPES:
        raise ModelLoadError(f"TF.js weight '{name}' has an unsupported dtype {dtype!r}",
                             path=path)
    np_name, enum = _DTYPES[dtype]
    tensor = protos.tensor_pb2.TensorProto(dtype=enum)
    for d in shape:
        tensor.tensor_shape.dim.add(size=d)
    if dtype == "string":
        values, pos = [], at
        for _ in range(count):
            if pos + 4 > len(data):
                raise _short(name, path)
            n = int.from_bytes(data[pos:pos + 4], "little")
            if pos + 4 + n > len(data):
                raise _short(name, path)
            values.append(data[pos + 4:pos + 4 + n])
            pos += 4 + n
        tensor.string_val.extend(values)
        return tensor, pos - at
    import numpy as np

    np_type = np.dtype(np_name)
    quant = spec.get("quantization")
    stored = np.dtype(_QUANTIZED.get(quant.get("dtype"), None) if quant else np_type)
    if quant and quant.get("dtype") not in _QUANTIZED:
        raise ModelLoadError(f"TF.js weight '{name}' uses an unknown quantization "
                             f"{quant.get('dtype')!r}", path=path)
    need = count * stored.itemsize
    if at + need > len(data):
        raise _short(name, path)
    raw = np.frombuffer(data, stored, count, at)
    if quant and quant["dtype"] in ("uint8", "uint16"):
        values = raw.astype(np.float32) * float(quant.get("scale", 1.0)) + \
            float(quant.get("min", 0.0))
        if np_type != np.float32:
            values = np.round(values)
        raw = values.astype(np_type)
    elif stored != np.dtype(np_type):
        raw = raw.astype(np_type)
    tensor.tensor_content = raw.astype(np.dtype(np_type).newbyteorder("<")).tobytes()
    return tensor, need


def _short(name: str, path: str) -> ModelLoadError:
    return ModelLoadError(f"TF.js weight shards end inside weight '{name}' (a shard is "
                          "truncated or missing)", path=path)


def _valueless(node) -> bool:
    """A Const whose tensor has elements but no values (its weight was not in the shards)."""
    probe = protos.tensor_pb2.TensorProto()
    probe.CopyFrom(node.attr["value"].tensor)
    probe.ClearField("dtype")
    probe.ClearField("tensor_shape")
    return probe.ByteSize() == 0 and element_count(node.attr["value"].tensor) != 0


def fill_weights(graph_def, groups: list, folder: str, path: str) -> tuple:
    """Put the shards' values into the Const nodes and make fused ops runnable: (weight
    bytes read, constants left without values, nodes given TArgs, nodes split)."""
    by_name = {n.name: n for n in graph_def.node}
    weight_bytes, seen = 0, set()
    for weights, paths in groups:
        data = _shard_bytes(folder, paths, path, seen)
        weight_bytes += len(data)
        if weight_bytes > SHARD_LIMIT:
            raise ModelLoadError("TF.js weights pass 2 GB, more than one GraphDef can hold",
                                 path=path)
        at = 0
        for spec in weights:
            tensor, used = _decode(spec, data, at, path)
            at += used
            node = by_name.get(spec.get("name"))
            if node is None:   # a weight with no Const in the topology: add one
                node = graph_def.node.add(name=spec.get("name", ""), op="Const")
                by_name[node.name] = node
            node.attr["value"].tensor.CopyFrom(tensor)
            node.attr["dtype"].type = tensor.dtype
    empty = [n.name for n in graph_def.node if n.op == "Const" and _valueless(n)]
    return (weight_bytes, empty, *fix_fused(graph_def))


def _stored_quantized(groups: list) -> str:
    """'; of its 619 weights the converter stored 272 as uint8 (quantized), ...' when
    the converter quantized weights (its --quantize_uint8/float16 options), else ''."""
    specs = [spec for weights, _ in groups for spec in weights if isinstance(spec, dict)]
    kinds: dict = {}
    for spec in specs:
        quant = spec.get("quantization")
        if isinstance(quant, dict) and quant.get("dtype") in _QUANTIZED:
            kinds[quant["dtype"]] = kinds.get(quant["dtype"], 0) + 1
    if not kinds:
        return ""
    stored = " and ".join(f"{n} as {k}" for k, n in kinds.items())
    return f"; of its {len(specs)} weights the converter stored {stored} (quantized), " \
        "turned back into float32 here"


def old_format_manifest(path: str) -> str | None:
    """TF.js 0.x wrote `tensorflowjs_model.pb` (a GraphDef whose constants have no values)
    beside `weights_manifest.json`: the manifest, when path is such a file."""
    if os.path.basename(path) != "tensorflowjs_model.pb":
        return None
    manifest = os.path.join(os.path.dirname(os.path.abspath(path)), "weights_manifest.json")
    return manifest if os.path.isfile(manifest) else None


def fill_old_format(graph_def, path: str) -> list:
    """Fill a TF.js 0.x GraphDef from its weights manifest; returns notes."""
    try:
        return _fill_old_format(graph_def, path)
    except ModelLoadError:
        raise
    except _MALFORMED as exc:
        raise ModelLoadError(f"TF.js weights_manifest.json is malformed ({type(exc).__name__}:"
                             f" {str(exc)[:160]})", path=path) from None


def _fill_old_format(graph_def, path: str) -> list:
    manifest = old_format_manifest(path)
    text = files.read_file(manifest, JSON_LIMIT, "weights_manifest.json")
    try:
        groups = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise ModelLoadError(f"weights_manifest.json is not valid JSON ({exc})",
                             path=manifest) from None
    if not isinstance(groups, list):
        raise ModelLoadError("weights_manifest.json is not a list of weight groups",
                             path=manifest)
    _, empty, targs, split = fill_weights(graph_def, _weight_specs(
        {"weightsManifest": groups}, manifest), os.path.dirname(manifest), path)
    note = (f"TensorFlow.js 0.x model: weights read from "
            f"{sum(len(g.get('paths') or []) for g in groups)} shard(s) listed in "
            "weights_manifest.json")
    return [note] + ([f"{len(empty)} constant(s) have no value in the shards, e.g. "
                      f"'{empty[0]}'"] if empty else [])


_MALFORMED = (TypeError, ValueError, KeyError, AttributeError, OverflowError, IndexError)


def load_tfjs(path: str, size: int):
    """The graph of a TF.js graph model (path: model.json or its folder)."""
    try:
        return _load_tfjs(path, size)
    except ModelLoadError:
        raise
    except _MALFORMED as exc:   # a field of the wrong type or value somewhere in model.json
        raise ModelLoadError(f"TF.js model.json is malformed ({type(exc).__name__}: "
                             f"{str(exc)[:160]})", path=path) from None


def _load_tfjs(path: str, size: int):
    from google.protobuf import json_format

    if os.path.isdir(path):
        path = model_json_in(path) or path
    doc = read_manifest(path)
    graph_def = protos.GraphDef()
    topology = {k: v for k, v in doc["modelTopology"].items()
                if k in ("node", "library", "versions")}
    try:
        json_format.ParseDict(topology, graph_def, ignore_unknown_fields=True)
    except (json_format.ParseError, ValueError, TypeError, RecursionError) as exc:
        raise ModelLoadError(f"TF.js modelTopology is not a valid GraphDef: {exc}",
                             path=path) from None
    folder = os.path.dirname(os.path.abspath(path))
    groups = _weight_specs(doc, path)
    weight_bytes, empty, targs, split = fill_weights(graph_def, groups,
                                                     folder, path)
    graph, problems = make_graph(graph_def, path, name=os.path.basename(folder))
    sig = doc.get("signature") or {}
    inputs = {k: v.get("name", k) for k, v in (sig.get("inputs") or {}).items()}
    outputs = {k: v.get("name", k) for k, v in (sig.get("outputs") or {}).items()}
    specs = [{k: _spec(v) for k, v in (sig.get(side) or {}).items()}
             for side in ("inputs", "outputs")]
    model = LoadedModel(path, "tfjs", graph, size + weight_bytes, frozen=True,
                        signature=Signature("tfjs", inputs, outputs, *specs) if sig else None,
                        problems=problems)
    made = doc.get("convertedBy") or "a TF.js converter"
    # (no "cannot" or "could not" here: the window shows such notes as a fallback's notice)
    model.notes.append(f"TensorFlow.js graph model ({made}, from TensorFlow "
                       f"{doc.get('generatedBy', '?')}): {len(graph_def.node)} nodes, weights "
                       f"read from {sum(len(p) for _, p in groups)} shard(s)"
                       + _stored_quantized(groups)
                       + (f"; TArgs put back on {targs} fused op(s) (the attribute TensorFlow "
                          "imports them with)" if targs else "")
                       + (f"; {split} fused op(s) TensorFlow has no kernel for split into "
                          "plain ops" if split else ""))
    if empty:
        model.notes.append(f"{len(empty)} constant(s) have no value in the shards, e.g. "
                           f"'{empty[0]}'")
    return model


def _spec(entry) -> tuple[str, str]:
    """(dtype, shape) of a signature entry of model.json (a TensorInfo as JSON)."""
    from google.protobuf import json_format

    try:
        info = json_format.ParseDict(entry, protos.meta_graph_pb2.TensorInfo(),
                                     ignore_unknown_fields=True)
    except (json_format.ParseError, ValueError, TypeError, AttributeError):
        return "", ""
    dims = None if info.tensor_shape.unknown_rank or not info.HasField("tensor_shape") \
        else tensors.shape_dims(info.tensor_shape)
    return (dtype_name(info.dtype) if info.dtype else ""), tensors.format_shape(dims)
