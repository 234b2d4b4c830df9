"""TensorFlow.js graph models (`model.json` + binary weight shards) into a GraphDef.

`modelTopology` is a GraphDef in protobuf's JSON form whose Const nodes lost their values; the
values sit in the shards listed by `weightsManifest`, one group of shards after another, each
weight `prod(shape)` items of its stored dtype (uint8/uint16 quantized with scale and min, or
float16, when the converter was asked to quantize). The converter also drops the `TArgs`
attribute of fused ops, which TensorFlow needs to import them: it is put back here."""

from __future__ import annotations

import json
import math
import os

import numpy as np

from inspector.core.errors import ModelLoadError
from inspector.core.loaders import files
from inspector.core.model import protos

JSON_LIMIT = 512 * 2 ** 20        # model.json itself (the topology; weights are in shards)
SHARD_LIMIT = files.PROTOBUF_LIMIT
_DTYPES = {"float32": (np.float32, 1), "int32": (np.int32, 3), "bool": (np.bool_, 10),
           "complex64": (np.complex64, 8), "string": (None, 7)}
_QUANTIZED = {"uint8": np.uint8, "uint16": np.uint16, "float16": np.float16}
# fused ops whose extra inputs TensorFlow types with TArgs (the converter leaves it out)
_FUSED = {"_FusedConv2D", "_FusedMatMul", "_FusedDepthwiseConv2dNative",
          "FusedDepthwiseConv2dNative", "_FusedBatchMatMul"}
_RENAMED = {"FusedDepthwiseConv2dNative": "_FusedDepthwiseConv2dNative"}


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


def _shard_bytes(folder: str, paths: list, path: str) -> bytes:
    parts = []
    for name in paths:
        if not isinstance(name, str) or os.path.isabs(name) or ".." in name.split("/"):
            raise ModelLoadError(f"TF.js weight shard path {name!r} points outside the model's "
                                 "folder", path=path)
        shard = os.path.join(folder, name)
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
    np_type, enum = _DTYPES[dtype]
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
        if np_type is not np.float32:
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
    from inspector.core.model.tensors import element_count

    probe = protos.tensor_pb2.TensorProto()
    probe.CopyFrom(node.attr["value"].tensor)
    probe.ClearField("dtype")
    probe.ClearField("tensor_shape")
    return probe.ByteSize() == 0 and element_count(node.attr["value"].tensor) != 0


def _fix_fused(graph_def) -> int:
    """Put back what TensorFlow needs to import the converter's fused ops; returns how many
    nodes were changed."""
    changed = 0
    for node in graph_def.node:
        if node.op not in _FUSED:
            continue
        node.op = _RENAMED.get(node.op, node.op)
        if "TArgs" not in node.attr and "T" in node.attr:
            count = node.attr["num_args"].i if "num_args" in node.attr else \
                max(0, len([i for i in node.input if not i.startswith("^")]) - 2)
            node.attr["TArgs"].list.type.extend([node.attr["T"].type] * count)
            changed += 1
    return changed


def load_tfjs(path: str, size: int):
    """The graph of a TF.js graph model (path: model.json or its folder)."""
    from google.protobuf import json_format

    from inspector.core.loaders import LoadedModel, Signature, make_graph

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
    by_name = {n.name: n for n in graph_def.node}
    folder = os.path.dirname(os.path.abspath(path))
    weight_bytes = 0
    for weights, paths in _weight_specs(doc, path):
        data = _shard_bytes(folder, paths, path)
        weight_bytes += len(data)
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
    fixed = _fix_fused(graph_def)
    graph, problems = make_graph(graph_def, path, name=os.path.basename(folder))
    sig = doc.get("signature") or {}
    inputs = {k: v.get("name", k) for k, v in (sig.get("inputs") or {}).items()}
    outputs = {k: v.get("name", k) for k, v in (sig.get("outputs") or {}).items()}
    model = LoadedModel(path, "tfjs", graph, size + weight_bytes, frozen=True,
                        signature=Signature("tfjs", inputs, outputs) if sig else None,
                        problems=problems)
    made = doc.get("convertedBy") or "a TF.js converter"
    model.notes.append(f"TensorFlow.js graph model ({made}, from TensorFlow "
                       f"{doc.get('generatedBy', '?')}): {len(graph_def.node)} nodes, weights "
                       f"read from {sum(len(p) for _, p in _weight_specs(doc, path))} shard(s)"
                       + (f"; TArgs put back on {fixed} fused op(s)" if fixed else ""))
    if empty:
        model.notes.append(f"{len(empty)} constant(s) have no value in the shards, e.g. "
                           f"'{empty[0]}'")
    return model
