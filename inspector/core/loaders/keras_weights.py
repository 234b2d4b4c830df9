"""Where a Keras file's weights are, from the HDF5 metadata: their shapes and dtypes, and for
a weight stored whole and uncompressed its place in the file (its values are read only when
someone looks, like a big GraphDef's); other weights up to 1 MB are read, larger ones keep
only their shape. A Keras 2 .h5 names its weights ('model_weights/LAYER' lists
'weight_names'); a .keras archive keeps model.weights.h5 with 'layers/KEY/vars/0, 1, ...' and
the layer's name in the 'vars' group's attributes, nested models and cells as subgroups."""

from __future__ import annotations

import math
import struct
import sys
import zipfile
from dataclasses import dataclass

from inspector.core.loaders.keras_layers import MAX_NODES, LayerGraph, clean_name
from inspector.core.model.dtypes import dtype_value
from inspector.core.model.weights import LAZY_MARK, TENSOR_CONTENT, Slot

# weight names by position, where the variables are stored without names (.keras files)
_CELL = ("kernel", "recurrent_kernel", "bias")
_NAMES = {"Dense": ("kernel", "bias"), "EinsumDense": ("kernel", "bias"),
          "Embedding": ("embeddings",), "PReLU": ("alpha",),
          "SeparableConv1D": ("depthwise_kernel", "pointwise_kernel", "bias"),
          "SeparableConv2D": ("depthwise_kernel", "pointwise_kernel", "bias")}
MAX_WEIGHTS = 200_000
MAX_DEPTH = 32
READ_BELOW = 2 ** 20


@dataclass(frozen=True)
class Stored:
    shape: tuple
    dtype: str                  # numpy's name: float32, int64, ...
    offset: int | None          # where its bytes start in the model file (little-endian)
    length: int
    data: bytes | None = None   # its bytes, read now (small weights not stored whole)


def _text(value) -> str:
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)


def _texts(value) -> list:
    try:
        return [_text(v) for v in list(value)[:MAX_WEIGHTS]]
    except TypeError:
        return []


def _stored(ds, base: int | None) -> Stored:
    """`base`: where the HDF5 file starts in the model file (None: not readable in place)."""
    shape, dtype = tuple(int(d) for d in ds.shape), ds.dtype
    order = dtype.byteorder if dtype.byteorder != "=" else \
        ("<" if sys.byteorder == "little" else ">")
    if dtype.kind not in "fiub" or order == ">" or len(shape) > 64:
        return Stored(shape, dtype.name, None, 0)
    offset = ds.id.get_offset() if base is not None and ds.chunks is None else None
    if offset is not None and ds.id.get_storage_size() == ds.nbytes:
        return Stored(shape, dtype.name, base + offset, int(ds.nbytes))
    if ds.nbytes <= READ_BELOW:
        return Stored(shape, dtype.name, None, int(ds.nbytes), ds[()].tobytes())
    return Stored(shape, dtype.name, None, 0)


def _member_start(path: str, info: zipfile.ZipInfo) -> int | None:
    """Where a stored (uncompressed) zip member's bytes start in the archive."""
    if info.compress_type != zipfile.ZIP_STORED:
        return None
    with open(path, "rb") as fh:
        fh.seek(info.header_offset)
        head = fh.read(30)
    if len(head) != 30 or head[:4] != b"PK\x03\x04":
        return None
    name_len, extra_len = struct.unpack("<HH", head[26:30])
    return info.header_offset + 30 + name_len + extra_len


def legacy_weights(h5, base: int | None) -> list:
    """(layer, weight name, Stored) of a Keras 2 .h5 file."""
    import h5py

    group = h5["model_weights"] if isinstance(h5.get("model_weights"), h5py.Group) else h5
    out = []
    names = _texts(group.attrs.get("layer_names", [])) or list(group.keys())
    for layer in names:
        g = group.get(layer)
        if not isinstance(g, h5py.Group):
            continue
        for weight in _texts(g.attrs.get("weight_names", [])):
            ds = g.get(weight)
            if isinstance(ds, h5py.Dataset) and len(out) < MAX_WEIGHTS:
                out.append((layer, weight, _stored(ds, base)))
    return out


def keras3_weights(h5, base: int | None) -> list:
    """(model path, layer, sub path, [Stored] in order) of a .keras archive's weights."""
    import h5py

    out: list = []

    def variables(group) -> list:
        v = group.get("vars")
        if not isinstance(v, h5py.Group):
            return []
        keys = sorted((k for k in v.keys() if k.isdigit()), key=int)
        return [_stored(v[k], base) for k in keys if isinstance(v[k], h5py.Dataset)]

    def objects(group, path, layer, sub, depth):
        if depth > MAX_DEPTH or len(out) >= MAX_WEIGHTS:
            return
        found = variables(group)
        if found and "seed_generator" not in sub:
            out.append((path, layer, sub, found))
        for key in group.keys():
            child = group.get(key)
            if key in ("vars", "layers") or not isinstance(child, h5py.Group):
                continue
            objects(child, path, layer, f"{sub}/{key}" if sub else key, depth + 1)
        if isinstance(group.get("layers"), h5py.Group) and not sub:
            model(group, path + (layer,), depth + 1)

    def model(group, path, depth):
        layers = group.get("layers")
        if depth > MAX_DEPTH:
            return
        if not isinstance(layers, h5py.Group):   # a subclassed model: layers as attributes
            layers = group if not path else None
        for key in layers.keys() if layers is not None else ():
            if key in ("vars", "optimizer") and layers is group:
                continue
            child = layers.get(key)
            if not isinstance(child, h5py.Group):
                continue
            v = child.get("vars")
            name = _text(v.attrs.get("name", key)) if isinstance(v, h5py.Group) else key
            objects(child, path, name, "", depth + 1)

    model(h5, (), 0)
    return out


def read_weights(path: str, graph) -> tuple[list, str]:
    """Entries for keras_layers.attach_weights, and a note when they could not be read."""
    try:
        import h5py
    except ImportError:
        return [], "h5py is not installed: the weights' shapes are not shown"

    try:
        if zipfile.is_zipfile(path):
            with zipfile.ZipFile(path) as zf:
                if "model.weights.h5" not in zf.namelist():
                    return [], "its weights are not in a model.weights.h5 (shapes not shown)"
                base = _member_start(path, zf.getinfo("model.weights.h5"))
                with zf.open("model.weights.h5") as fh, h5py.File(fh, "r") as h5:
                    return [(p, layer, sub, None, stored)
                            for p, layer, sub, stored in keras3_weights(h5, base)], ""
        with h5py.File(path, "r") as h5:
            entries = []
            for layer, weight, stored in legacy_weights(h5, 0):
                p, owner, name = legacy_owner(graph, layer, weight)
                entries.append((p, owner, "", [name], [stored]))
            return entries, ""
    except (OSError, ValueError, KeyError, RuntimeError, TypeError, AttributeError,
            zipfile.BadZipFile) as exc:
        return [], f"its weights could not be read ({type(exc).__name__}; shapes not shown)"


def _weight_names(cls: str, conf: dict, sub: str, count: int) -> list:
    if sub.endswith("cell"):
        known = _CELL
    elif cls.startswith("Conv") or cls.startswith("DepthwiseConv"):
        known = ("kernel", "bias")
    elif cls in ("BatchNormalization", "LayerNormalization"):
        known = tuple(n for n, on in (("gamma", conf.get("scale", True)),
                                      ("beta", conf.get("center", True))) if on)
        if cls == "BatchNormalization":
            known += ("moving_mean", "moving_variance")
    else:
        known = _NAMES.get(cls, ())
    return list(known[:count]) if len(known) >= count and count else \
        [f"weight_{i}" for i in range(count)]


def attach_weights(graph: LayerGraph, weights: list) -> int:
    """Weight nodes for (model path, layer, sub path, names or None, [Stored]) entries, each
    read by every call of its layer (a layer the config does not wire gets a node of its
    own); the number of entries left out (past the node limit)."""
    lost = 0
    for path, layer, sub, names, stored in weights:
        found = graph.layer_nodes.get((path, layer))
        if found is None:           # a layer the config does not wire: shown on its own
            if len(graph.gd.node) >= MAX_NODES:
                lost += 1
                continue
            node = graph._node("/".join(clean_name(p) for p in path + (layer,)), "Layer")
            found = graph.layer_nodes[(path, layer)] = ([node.name], "Layer", {})
        nodes, cls, conf = found
        names = names or _weight_names(cls, conf if isinstance(conf, dict) else {}, sub,
                                       len(stored))
        by_name = {n.name: n for n in graph.gd.node if n.name in nodes}
        for name, weight in zip(names, stored):
            parts = [clean_name(p) for p in (sub.split("/") if sub else []) + name.split("/") if p]
            var = _weight_node(graph, "/".join([nodes[0]] + parts), weight)
            for node in nodes:
                by_name[node].input.append(var.name)
    return lost


def _weight_node(graph: LayerGraph, name: str, weight):
    """A Const whose values are in the file (read when someone looks) or read already; a
    variable of that shape when they are neither."""
    try:
        dtype = dtype_value(weight.dtype)
    except KeyError:
        dtype = None
    readable = dtype is not None and (weight.offset is not None or weight.data is not None)
    node = graph._node(name, "Const" if readable else "VariableV2")
    if dtype is not None:
        node.attr["dtype"].type = dtype
    if not readable:
        node.attr["shape"].shape.SetInParent()
        for d in weight.shape:
            node.attr["shape"].shape.dim.add(size=d)
        return node
    tensor = node.attr["value"].tensor
    tensor.dtype = dtype
    tensor.tensor_shape.SetInParent()
    for d in weight.shape:
        tensor.tensor_shape.dim.add(size=d)
    if weight.data is not None:
        tensor.tensor_content = weight.data
    else:
        tensor.version_number = LAZY_MARK
        graph.slots.append(Slot(len(graph.gd.node) - 1, "value", TENSOR_CONTENT, weight.offset,
                                weight.length, 0))
    return node


def legacy_owner(graph: LayerGraph, layer: str, weight: str) -> tuple:
    """(model path, layer, weight name) of a Keras 2 .h5 weight ('d1/kernel:0' in the group of
    a nested model 'block' belongs to the layer d1 inside it)."""
    parts = [p for p in weight.removesuffix(":0").split("/") if p]
    path: tuple = ()
    while len(parts) > 1:       # every turn drops a part
        if (path + (layer,), parts[0]) in graph.layer_nodes:
            path, layer, parts = path + (layer,), parts[0], parts[1:]
        elif parts[0] == layer:
            parts = parts[1:]
        else:
            break
    return path, layer, "/".join(parts)


# config fields that size a layer's variables (Keras allocates them before reading the file's)
SIZE_KEYS = frozenset({"units", "filters", "output_dim", "input_dim", "key_dim", "value_dim",
                       "num_heads", "depth_multiplier", "kernel_size"})
PRODUCT_KEYS = ("input_dim", "kernel_size", "depth_multiplier", "num_heads", "key_dim", "units",
                "filters", "output_dim", "output_shape")
SIZE_FLOOR = 4096      # smaller sizes cannot make a variable that matters
# a variable of fewer elements (64 MB of float32) is built whatever the file stores; past it, a
# layer whose size fields multiply (kernel_size x filters, EinsumDense's output_shape) to more
# elements than the largest stored weight has is refused: each field under SIZE_FLOOR, Conv2D
# kernel_size [2048, 2048] with 1024 filters is a 16 GB kernel
ELEMENT_FLOOR = 2 ** 24


def largest_stored_dim(entries: list) -> int:
    """The largest dimension of any weight in read_weights' entries."""
    return max((d for *_, stored in entries for s in stored for d in s.shape), default=0)


def largest_stored_elements(entries: list) -> int:
    """The element count of the largest weight in read_weights' entries."""
    return max((math.prod(s.shape) for *_, stored in entries for s in stored), default=0)


def declared_elements(conf: dict) -> int:
    """The product of a layer config's own size fields (lists multiplied out, open sizes
    skipped): the elements of its largest variable, but for the input's channels."""
    product = 1
    for key in PRODUCT_KEYS:
        value = conf.get(key)
        for v in value[:64] if isinstance(value, list) else [value]:
            if isinstance(v, int) and not isinstance(v, bool) and v > 0:
                product *= v
    return product


def oversized_field(config, largest: int, largest_elements: int = 0) -> tuple | None:
    """(layer, field, value, False) of the first size field in the config larger than every
    stored weight's dimensions (and than SIZE_FLOOR): a file declaring Dense(units=2**22) over a
    144x10 kernel would have Keras allocate gigabytes before it fails to read the weights; or
    (layer, fields, elements, True) of the first layer whose size fields multiply to more
    elements than `largest_elements` and ELEMENT_FLOOR."""
    stack, seen = [(config, "")], 0
    while stack and seen < 1_000_000:
        item, layer = stack.pop()
        seen += 1
        if isinstance(item, dict):
            name = item.get("name") if isinstance(item.get("name"), str) else layer
            for key, value in item.items():
                sizes = value if isinstance(value, list) else [value]
                if key in SIZE_KEYS and all(isinstance(v, int) for v in sizes):
                    big = max(sizes, default=0)
                    if big > max(largest, SIZE_FLOOR):
                        return name, key, big, False
                stack.append((value, name))
            elements = declared_elements(item)
            if elements > max(largest_elements, ELEMENT_FLOOR):
                fields = " x ".join(k for k in PRODUCT_KEYS if k in item)
                return name, fields, elements, True
        elif isinstance(item, list):
            stack.extend((v, layer) for v in item)
    return None
