"""Decode NodeDef attrs (AttrValue protos) into plain Python values."""

from __future__ import annotations

from dataclasses import dataclass

from inspector.core.model import dtypes, tensors


@dataclass(frozen=True)
class DType:
    """A TF dtype shown by name."""

    value: int

    @property
    def name(self) -> str:
        return dtypes.dtype_name(self.value)

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class Shape:
    """A (partial) tensor shape; dims is None for unknown rank, dim None for unknown size."""

    dims: tuple | None

    def __str__(self) -> str:
        return tensors.format_shape(self.dims)


class TensorValue:
    """A tensor attr: metadata at once, values decoded to numpy only on demand."""

    __slots__ = ("proto",)

    def __init__(self, proto):
        self.proto = proto

    @property
    def dtype(self) -> DType:
        return DType(self.proto.dtype)

    @property
    def shape(self) -> Shape:
        return Shape(tensors.shape_dims(self.proto.tensor_shape))

    @property
    def num_elements(self) -> int:
        return tensors.element_count(self.proto)

    @property
    def nbytes(self) -> int:
        return tensors.stored_bytes(self.proto)

    def numpy(self):
        return tensors.to_numpy(self.proto)

    def __repr__(self) -> str:
        return f"Tensor<{self.dtype} {self.shape}>"


def _text(raw: bytes):
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw


def _func(name_attr_list) -> dict:
    return {"name": name_attr_list.name,
            "attr": {k: decode(v) for k, v in sorted(name_attr_list.attr.items())}}


def _list(lv) -> list:
    if lv.s:
        return [_text(s) for s in lv.s]
    if lv.i:
        return [int(i) for i in lv.i]
    if lv.f:
        return [float(f) for f in lv.f]
    if lv.b:
        return [bool(b) for b in lv.b]
    if lv.type:
        return [DType(t) for t in lv.type]
    if lv.shape:
        return [Shape(tensors.shape_dims(s)) for s in lv.shape]
    if lv.tensor:
        return [TensorValue(t) for t in lv.tensor]
    if lv.func:
        return [_func(f) for f in lv.func]
    return []


def decode(attr_value):
    """AttrValue -> str/bytes, int, float, bool, DType, Shape, TensorValue, list or dict."""
    kind = attr_value.WhichOneof("value")
    if kind == "s":
        return _text(attr_value.s)
    if kind in ("i", "f", "b"):
        return getattr(attr_value, kind)
    if kind == "type":
        return DType(attr_value.type)
    if kind == "shape":
        return Shape(tensors.shape_dims(attr_value.shape))
    if kind == "tensor":
        return TensorValue(attr_value.tensor)
    if kind == "list":
        return _list(attr_value.list)
    if kind == "func":
        return _func(attr_value.func)
    if kind == "placeholder":
        return f"${attr_value.placeholder}"
    return None


def decode_all(node_def) -> dict:
    return {key: decode(node_def.attr[key]) for key in sorted(node_def.attr)}
