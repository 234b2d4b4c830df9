"""A Keras file's layer graph read from the file's own config, without Keras or TensorFlow (as
Netron shows one): one node per layer call (op: the layer's class, its plain settings as
attributes), wired as the config's inbound nodes say (Keras 2 lists or Keras 3 call dicts),
Sequential and nested models as scopes, each layer's weights as its inputs (keras_weights).
A read-only view for the files that cannot be frozen: nothing in the file is run, and no
Keras class is looked up."""

from __future__ import annotations

import re

from inspector.core.errors import ModelLoadError
from inspector.core.model import protos
from inspector.core.model.dtypes import dtype_value

MODEL_CLASSES = frozenset({"Functional", "Model", "Sequential"})
MAX_NODES = 200_000
MAX_DEPTH = 32
_UNSAFE = re.compile(r"[^A-Za-z0-9_.\-]")


def clean_name(name) -> str:
    """A name usable in a node name: characters TF does not take become '_'."""
    return _UNSAFE.sub("_", str(name))[:200] or "layer"


class _Model:
    """One model's layers (the top level, or one call of a nested model)."""

    def __init__(self, scope: str, path: tuple, keras2: bool):
        self.scope, self.path, self.keras2 = scope, path, keras2
        self.calls: dict = {}       # layer name -> [outputs of each call: [endpoint]]
        self.skip: dict = {}        # layer name -> config node indices start here
        self.redirect: dict = {}    # an inner input's name -> the outer endpoint it stands for
        self.outputs: list = []


class _Ref:
    """A tensor named in the config: (model, layer name, node index, tensor index), with its
    shape where Keras 3 wrote it."""

    __slots__ = ("model", "layer", "node", "tensor", "shape")

    def __init__(self, model, layer, node, tensor, shape=None):
        self.model, self.layer, self.node, self.tensor = model, layer, node, tensor
        self.shape = shape


class LayerGraph:
    def __init__(self, config: dict):
        self.gd = protos.GraphDef()
        self.taken: set = set()
        self.pending: list = []     # (NodeDef, [refs])
        self.layer_nodes: dict = {}  # (model path, layer name) -> ([node names], class, config)
        self.inputs: dict = {}
        self.shapes: dict = {}      # node name -> {port: dims}
        self.keras2 = False
        self.with_shapes: list = []
        self.custom: list = []      # layer classes the saving program defined, not Keras
        self.slots: list = []       # weights left in the file (keras_weights fills it)
        self.note = ""
        cls, conf = _class_and_config(config)
        if cls in MODEL_CLASSES:
            top = self._model(cls, conf, "", (), None, 0)
        else:       # a subclassed model: its layers are known from the weights file alone
            top = _Model("", (), False)
            self.note = (f"its config holds a '{clean_name(cls)}' without its layers' connections "
                         "(a subclassed model): its layers are shown unconnected")
        for node, refs in self.pending:
            for ref in refs:
                end = self._resolve(ref, 0)
                if end is not None:
                    node.input.append(end)
        self.outputs = {}
        for ref in top.outputs:
            end = self._resolve(ref, 0)
            if end is not None:
                key = ref.layer if isinstance(ref, _Ref) else end
                self.outputs[key] = end if ":" in end else end + ":0"
        for ref in self.with_shapes:
            end = self._resolve(ref, 0)
            if end is not None:
                name, _, port = end.partition(":")
                self.shapes.setdefault(name, {})[int(port or 0)] = ref.shape
        by_name = {n.name: n for n in self.gd.node}
        for name, ports in self.shapes.items():
            if name in by_name:
                _set_shapes(by_name[name], ports)

    # -- nodes ---------------------------------------------------------------------------------
    def _unique(self, base: str) -> str:
        name, k = base, 1
        while name in self.taken:
            name, k = f"{base}_{k}", k + 1
        self.taken.add(name)
        return name

    def _node(self, name: str, op: str):
        if len(self.gd.node) >= MAX_NODES:
            raise ModelLoadError(f"the Keras config holds over {MAX_NODES:,} layers")
        return self.gd.node.add(name=self._unique(name), op=clean_name(op))

    def _placeholder(self, scope: str, name: str, conf) -> str:
        node = self._node(scope + clean_name(name), "Placeholder")
        conf = conf if isinstance(conf, dict) else {}
        shape = conf.get("batch_shape") or conf.get("batch_input_shape")
        dtype = conf.get("dtype")
        if isinstance(dtype, str):
            try:
                node.attr["dtype"].type = dtype_value(dtype)
            except KeyError:
                pass
        if isinstance(shape, list):
            node.attr["shape"].shape.SetInParent()
            for d in shape[:64]:
                node.attr["shape"].shape.dim.add(size=_dim(d))
        self.inputs[str(name)] = node.name + ":0"
        return node.name

    def _layer(self, model: _Model, spec: dict, cls: str, conf: dict, name: str, k: int,
               refs: list) -> list:
        registered, module = spec.get("registered_name"), spec.get("module")
        if (isinstance(registered, str) and ">" in registered or
                isinstance(module, str) and not module.startswith("keras")) and \
                cls not in self.custom:
            self.custom.append(cls)
        node = self._node(model.scope + clean_name(name) + (f"_call{k}" if k else ""), cls)
        _attrs(node, conf)
        self.pending.append((node, refs))
        key = (model.path, name)
        self.layer_nodes.setdefault(key, ([], cls, conf))[0].append(node.name)
        self.with_shapes += [r for r in refs if isinstance(r, _Ref) and r.shape is not None]
        return [node.name]

    # -- models --------------------------------------------------------------------------------
    def _model(self, cls: str, conf: dict, scope: str, path: tuple, outer: list | None,
               depth: int) -> _Model:
        if depth > MAX_DEPTH:
            raise ModelLoadError(f"the Keras config nests models over {MAX_DEPTH} deep")
        model = _Model(scope, path, self.keras2)
        layers = conf.get("layers") if isinstance(conf, dict) else conf
        if not isinstance(layers, list):
            raise ModelLoadError("the Keras config's model has no list of layers")
        if cls == "Sequential":
            self._sequential(model, layers, outer, depth)
        else:
            self._functional(model, conf, layers, outer, depth)
        return model

    def _sequential(self, model: _Model, layers: list, outer: list | None, depth: int) -> None:
        prev = outer[0] if outer else None
        for i, spec in enumerate(layers):
            cls, conf = _class_and_config(spec)
            name = str((conf.get("name") if isinstance(conf, dict) else None) or
                       spec.get("name") or f"layer_{i}")
            if cls == "InputLayer":
                if prev is None:
                    prev = self._placeholder(model.scope, name, conf)
                continue
            if prev is None:        # Keras 2: the first layer carries the input shape
                prev = self._placeholder(model.scope, f"{name}_input", conf)
            if cls in MODEL_CLASSES:
                inner = self._model(cls, conf, model.scope + clean_name(name) + "/",
                                    model.path + (name,), [prev], depth + 1)
                prev = inner.outputs[0] if inner.outputs else prev
                continue
            prev = self._layer(model, spec, cls, conf, name, 0, [prev])[0]
        model.outputs = [prev] if prev is not None else []

    def _functional(self, model: _Model, conf: dict, layers: list, outer: list | None,
                    depth: int) -> None:
        conf = conf if isinstance(conf, dict) else {}
        input_names = [r[0] for r in _triples(conf.get("input_layers"))]
        for i, spec in enumerate(layers):
            cls, lconf = _class_and_config(spec)
            name = str(spec.get("name") or (lconf.get("name") if isinstance(lconf, dict)
                                            else None) or f"layer_{i}")
            calls = spec.get("inbound_nodes") or []
            calls = calls if isinstance(calls, list) else []
            if calls and isinstance(calls[0], list):
                self.keras2 = model.keras2 = True
            if cls == "InputLayer":
                if outer is not None and name in input_names:
                    pos = input_names.index(name)
                    model.redirect[name] = outer[pos] if pos < len(outer) else None
                else:
                    model.calls[name] = [[self._placeholder(model.scope, name, lconf)]]
                continue
            outs = model.calls.setdefault(name, [])
            if cls in MODEL_CLASSES and isinstance(lconf, dict):
                inner_layers = lconf.get("layers")
                first = inner_layers[0] if isinstance(inner_layers, list) and inner_layers \
                    else {}
                starts_with_input = isinstance(first, dict) and \
                    first.get("class_name") == "InputLayer"
                model.skip[name] = int(cls != "Sequential" or
                                       (model.keras2 and starts_with_input))
                for k, call in enumerate(calls):
                    refs = [_Ref(model, *t) for t in _call_refs(call)]
                    scope = model.scope + clean_name(name) + (f"_call{k}" if k else "") + "/"
                    inner = self._model(cls, lconf, scope, model.path + (name,), refs,
                                        depth + 1)
                    outs.append(inner.outputs)
                continue
            for k, call in enumerate(calls or [None]):
                refs = [_Ref(model, *t) for t in _call_refs(call)]
                outs.append(self._layer(model, spec, cls, lconf, name, k, refs))
        model.outputs = [_Ref(model, *t) for t in _triples(conf.get("output_layers"))]

    # -- wiring --------------------------------------------------------------------------------
    def _resolve(self, ref, depth: int) -> str | None:
        """The endpoint ('node' or 'node:port') a reference names, or None."""
        if depth > 4 * MAX_DEPTH:
            return None
        if isinstance(ref, str):
            return ref
        if not isinstance(ref, _Ref):
            return None
        model = ref.model
        if ref.layer in model.redirect:
            return self._resolve(model.redirect[ref.layer], depth + 1)
        calls = model.calls.get(ref.layer)
        if not calls:
            return None
        k = ref.node - model.skip.get(ref.layer, 0)
        outs = calls[min(max(k, 0), len(calls) - 1)]
        if len(outs) == 1 and isinstance(outs[0], str):    # a layer's node: ports are outputs
            return outs[0] if ref.tensor == 0 else f"{outs[0]}:{ref.tensor}"
        if 0 <= ref.tensor < len(outs):                     # a nested model's outputs
            return self._resolve(outs[ref.tensor], depth + 1)
        return None


def _set_shapes(node, ports: dict) -> None:
    if node.op == "Placeholder" or max(ports) > 64:
        return
    shapes = node.attr["_output_shapes"].list.shape
    for port in range(max(ports) + 1):
        shape = shapes.add()
        dims = ports.get(port)
        if not isinstance(dims, list):
            shape.unknown_rank = True
            continue
        for d in dims[:64]:
            shape.dim.add(size=_dim(d))


def _class_and_config(spec) -> tuple[str, dict]:
    if not isinstance(spec, dict):
        raise ModelLoadError("the Keras config lists a layer that is not an object")
    conf = spec.get("config")
    return str(spec.get("class_name") or "Layer"), conf if isinstance(conf, (dict, list)) \
        else {}


def _triples(value) -> list:
    """[[name, node, tensor], ...] (or one triple alone, as Keras 3 writes a single input)."""
    if not isinstance(value, list):
        return []
    if len(value) == 3 and isinstance(value[0], str):
        value = [value]
    return [(str(t[0]), _int(t[1]), _int(t[2])) for t in value
            if isinstance(t, list) and len(t) >= 3 and isinstance(t[0], str)]


def _dim(value) -> int:
    """A size from the config (-1: unknown, or not a size)."""
    ok = isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 2 ** 62
    return value if ok else -1


def _int(value) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _call_refs(call) -> list:
    """(layer, node, tensor, shape) of what a call reads (shapes where Keras 3 wrote them)."""
    found: list = []
    if call is None:
        return found
    if isinstance(call, list):                       # Keras 2: [[name, node, tensor, kwargs]]
        for entry in call[:10_000]:
            if isinstance(entry, list) and len(entry) >= 3 and isinstance(entry[0], str):
                found.append((entry[0], _int(entry[1]), _int(entry[2]), None))
                if len(entry) > 3 and isinstance(entry[3], dict):
                    _kwargs_refs(entry[3], found)
        return found
    stack, seen = [call], 0
    while stack and seen < 100_000:                  # Keras 3: args/kwargs with tensors
        item = stack.pop()
        seen += 1
        if isinstance(item, dict):
            conf = item.get("config")
            if item.get("class_name") == "__keras_tensor__" and isinstance(conf, dict):
                hist = conf.get("keras_history")
                if isinstance(hist, list) and len(hist) >= 3 and isinstance(hist[0], str):
                    shape = conf.get("shape")
                    found.append((hist[0], _int(hist[1]), _int(hist[2]),
                                  shape if isinstance(shape, list) else None))
                continue
            stack.extend(reversed(list(item.values())))
        elif isinstance(item, list):
            stack.extend(reversed(item))
    return found


def _kwargs_refs(kwargs: dict, found: list) -> None:
    for value in kwargs.values():
        if isinstance(value, list) and len(value) == 3 and isinstance(value[0], str) and \
                isinstance(value[1], int) and isinstance(value[2], int):
            found.append((value[0], value[1], value[2], None))


def _attrs(node, conf) -> None:
    """A layer's plain settings (numbers, words, lists of sizes) as attributes."""
    if not isinstance(conf, dict):
        return
    for key, value in list(conf.items())[:64]:
        if key in ("name", "trainable") or not isinstance(key, str):
            continue
        attr = node.attr[clean_name(key)] if isinstance(value, (str, bool, int, float, list)) \
            else None
        if attr is None:
            continue
        if isinstance(value, bool):
            attr.b = value
        elif isinstance(value, int):
            attr.i = max(min(value, 2 ** 63 - 1), -2 ** 63)
        elif isinstance(value, float):
            attr.f = value
        elif isinstance(value, str):
            attr.s = value[:200].encode()
        elif all(isinstance(v, int) and not isinstance(v, bool) for v in value[:64]):
            attr.list.i.extend(max(min(v, 2 ** 63 - 1), -2 ** 63) for v in value[:64])
        else:
            del node.attr[clean_name(key)]

