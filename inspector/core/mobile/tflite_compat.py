"""Will it convert to TensorFlow Lite? A status for every node, from tables alone (no
TensorFlow): a TFLite builtin, needs Select TF ops (the flex allowlist of TF 2.21), not
convertible (would need a custom op), removed by conversion (plumbing, folded constants,
parts the outputs do not need), TF1 control flow, or string/resource/variant tensors.
Also the classic TF Mobile question ("No OpKernel was registered to support Op"): ops the
default mobile TensorFlow build leaves out: training-only ops (gradients, optimizers, saving),
decoders that need libjpeg/libpng/libgif, and ops outside the mobile op set (taken as TF
2.21's Select TF ops allowlist, the op set TensorFlow builds for phones today)."""

from __future__ import annotations

import os
import re
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache

from inspector.core.model import graph_index
from inspector.core.model.reachability import upstream

_HERE = os.path.dirname(os.path.abspath(__file__))
STATUSES = ("builtin", "flex", "custom", "control_flow", "dtype", "removed")

LABELS = {"builtin": "TFLite builtin", "flex": "needs Select TF ops",
          "custom": "not convertible (custom op)", "control_flow": "TF1 control flow",
          "dtype": "string / resource / variant tensors", "removed": "removed by conversion"}

# Okabe-Ito hues, lightened for box fills that keep dark text readable.
COLOURS = {"builtin": "#9fd8c3", "flex": "#f4c56a", "custom": "#ee9a72",
           "control_flow": "#dba6c7", "dtype": "#9ccfee", "removed": "#dedede"}

# How bad each status is for a phone (lists sort worst first).
SEVERITY = {"custom": 0, "dtype": 1, "control_flow": 2, "flex": 3, "builtin": 4, "removed": 5}

TF1_CONTROL_FLOW = frozenset({"Switch", "Merge", "Enter", "Exit", "NextIteration", "LoopCond",
                              "RefSwitch", "RefMerge", "RefEnter", "RefExit",
                              "RefNextIteration"})
_INPUT_OPS = frozenset({"Placeholder", "PlaceholderWithDefault", "PlaceholderV2"})
_NOT_FOLDABLE = frozenset({"Placeholder", "PlaceholderWithDefault", "PlaceholderV2",
                           "VarHandleOp", "VariableV2", "Variable", "ReadVariableOp"})
_TRAINING = re.compile(r"Grad|^Apply|^ResourceApply|Summary|^Save|^Restore|^Assign|Variable|"
                       r"^Merge.*Summary|Checkpoint|^Queue|Reader")
_BAD_DTYPES = {7: "string", 20: "resource", 21: "variant"}
_NEEDS_LIBS = frozenset({"DecodeJpeg", "DecodeAndCropJpeg", "EncodeJpeg", "DecodePng",
                         "EncodePng", "DecodeGif", "DecodeBmp", "DecodeImage",
                         "EncodeJpegVariableQuality"})


def mobile_gap(op: str, flex) -> str:
    """Why the default mobile TensorFlow build has no kernel for `op` ("" when it has)."""
    if op in _INPUT_OPS:
        return ""
    if _TRAINING.search(op):
        return "training only"
    if op in _NEEDS_LIBS:
        return "needs an image library (libjpeg, libpng, libgif) left out on mobile"
    if op not in flex:
        return "not in the mobile op set"
    return ""


@dataclass(frozen=True)
class NodeCompat:
    status: str
    reason: str
    op: str = ""
    builtin: str = ""            # the TFLite builtin it lowers to, when it does
    mobile_kernel: bool = True   # a mobile TensorFlow build has a kernel for it


@dataclass
class Compat:
    nodes: dict = field(default_factory=dict)    # node name -> NodeCompat
    flex_source: str = ""                        # where the flex allowlist came from

    def counts(self) -> Counter:
        return Counter(c.status for c in self.nodes.values())

    def problems(self) -> list:
        """(name, NodeCompat) of nodes that block or burden conversion, worst first."""
        bad = [(n, c) for n, c in self.nodes.items() if c.status not in ("builtin", "removed")]
        return sorted(bad, key=lambda nc: (SEVERITY[nc[1].status], nc[0]))

    def missing_mobile_kernels(self, flex=None) -> list:
        """(name, op, why) of nodes the default mobile TF build has no kernel for, training-
        only first (strip those before adding kernels, as the mobile guide says)."""
        flex = flex_ops() if flex is None else flex
        out = [(n, c.op, mobile_gap(c.op, flex)) for n, c in self.nodes.items()
               if not c.mobile_kernel]
        return sorted(out, key=lambda t: (t[2] != "training only", t[1], t[0]))

    def by_scope(self, scopes) -> dict:
        """scope (without trailing '/') -> Counter of statuses of the nodes under it."""
        out = {s: Counter() for s in scopes}
        for name, c in self.nodes.items():
            parts = name.split("/")[:-1]
            for k in range(1, len(parts) + 1):
                bucket = out.get("/".join(parts[:k]))
                if bucket is not None:
                    bucket[c.status] += 1
        return out


def overlay_fields(compat: Compat, scope_paths) -> tuple[dict, dict]:
    """(node -> status, scope -> ((status, count), ...) worst first) for the canvas."""
    statuses = {n: c.status for n, c in compat.nodes.items()}
    scopes = {}
    for scope, counts in compat.by_scope(scope_paths).items():
        if counts:
            scopes[scope] = tuple(sorted(((s, n) for s, n in counts.items() if n),
                                         key=lambda sn: SEVERITY[sn[0]]))
    return statuses, scopes


def _read_table(name: str) -> list:
    """A table of this package's files (beside this module: no importlib.resources on the
    app's start, which imports this module)."""
    with open(os.path.join(_HERE, name), encoding="utf-8") as fh:
        text = fh.read()
    return [line.split() for line in text.splitlines() if line.strip() and line[0] != "#"]


@lru_cache(maxsize=1)
def builtin_table() -> dict:
    """TF op -> TFLite builtin name, "-" (removed) or "input"."""
    return {row[0]: row[1] for row in _read_table("tflite_builtins.txt")}


@lru_cache(maxsize=1)
def flex_ops() -> frozenset:
    """The ops TF 2.21's Select-TF-ops delegate runs (tools/make_tflite_ops.py wrote it)."""
    return frozenset(row[0] for row in _read_table("tflite_flex_ops.txt"))


_RESOURCE_OPS = frozenset({"VarHandleOp", "ReadVariableOp", "AssignVariableOp",
                           "AssignAddVariableOp", "AssignSubVariableOp", "VarIsInitializedOp",
                           "ResourceGather", "VariableV2", "Variable", "DestroyResourceOp"})


def _bad_dtype(op: str, proto) -> str:
    if op in _RESOURCE_OPS:
        return "resource"
    for value in proto.attr.values():
        kind = value.WhichOneof("value")
        types = [value.type] if kind == "type" else (list(value.list.type) if kind == "list"
                                                     else [])
        for t in types:
            base = t - 100 if t > 100 else t     # reference dtypes
            if base in _BAD_DTYPES:
                return _BAD_DTYPES[base]
    return ""


def _folded(graph) -> set:
    """Nodes whose value is fixed before the model runs: constants and pure computation on
    nothing but constants (the converter folds these into weight buffers). On the columns
    (no Node view); a name stands for its first node, as graph.get(name) does."""
    names, ops, op_names, first = graph.name_list, graph._ops, graph.op_names, graph._index
    off, src, port = graph._in_off, graph._src, graph._port
    blocked = {code for code, op in enumerate(op_names)
               if op in _NOT_FOLDABLE or op in TF1_CONTROL_FLOW or
               ("Random" in op and not op.startswith("Stateless"))}

    def data(i):
        return [src[p] for p in range(off[i], off[i + 1]) if port[p] >= 0]

    todo = [first[names[i]] for i in graph.nodes_of_op("Const") if not data(i)]
    done = set(todo)
    starts, places = graph.consumer_index() if todo else ((), ())
    while todo:
        i = todo.pop()
        for p in places[starts[i]:starts[i + 1]]:
            if port[p] < 0:
                continue
            node = first[names[graph_index.node_at(graph, p)]]
            if node in done or ops[node] in blocked:
                continue
            if all(s in done for s in data(node)):     # -1 (no node) is never done
                done.add(node)
                todo.append(node)
    return set(map(names.__getitem__, done))


def analyze(graph, outputs=(), inputs=(), flex=None) -> Compat:
    """The status of every node. With outputs, nodes they do not need are removed by
    conversion; inputs cut the graph where the converter feeds it. On the columns: what
    depends on the op alone is decided once an op type (equal verdicts share one frozen
    NodeCompat), the NodeDef read where dtypes decide."""
    table, flex = builtin_table(), flex_ops() if flex is None else frozenset(flex)
    needed = upstream(graph, outputs, stop=inputs) if outputs else None
    fed = {i.split(":")[0] for i in inputs}
    folded = _folded(graph)
    result = Compat(flex_source="Select TF ops allowlist of TensorFlow 2.21")
    verdicts = [_by_op(op, table, flex) for op in graph.op_names]
    protos, nodes = graph.structure.node, result.nodes
    for i, (name, code) in enumerate(zip(graph.name_list, graph._ops)):
        v = verdicts[code]
        if needed is not None and name not in needed:
            c = v["needed"]
        elif name in fed:
            c = v["input"]
        elif v["control"] is not None:
            c = v["control"]
        elif name in folded:
            c = v["folded"]
        elif v["early"] is not None:
            c = v["early"]
        else:
            why = _bad_dtype(v["op"], protos[i])
            c = v["late"] if not why or (why == "string" and v["op"] in table) else \
                v.get(why) or v.setdefault(why, _dtype_verdict(v["op"], why, v["mobile"]))
        nodes[name] = c
    return result


def _by_op(op: str, table: dict, flex) -> dict:
    """The verdicts a node of this op type can get but for its dtypes."""
    mobile = not mobile_gap(op, flex)
    given = table.get(op)
    out = {"op": op, "mobile": mobile,
           "needed": NodeCompat("removed", f"{op}: not needed for the outputs", op,
                                mobile_kernel=mobile),
           "input": NodeCompat("builtin", f"{op}: becomes a model input", op, "input"),
           "folded": NodeCompat("removed", f"{op}: folded into a constant buffer", op,
                                mobile_kernel=mobile),
           "control": NodeCompat("control_flow", f"{op}: TF1 control flow, the converter "
                                 "must rebuild it as WHILE/IF", op, mobile_kernel=mobile)
           if op in TF1_CONTROL_FLOW else None,
           "early": NodeCompat("removed", f"{op}: dropped by the converter", op,
                               mobile_kernel=mobile) if given == "-" else
           NodeCompat("builtin", f"{op}: becomes a model input", op, "input")
           if given == "input" else None}
    if op in table:
        out["late"] = NodeCompat("builtin", f"{op}: TFLite {given}" if given != "lowered"
                                 else f"{op}: rewritten by the converter into builtins", op,
                                 given, mobile)
    elif op in flex:
        out["late"] = NodeCompat("flex", f"{op}: only with Select TF ops (the TF kernel runs "
                                 "on the phone)", op, mobile_kernel=mobile)
    else:
        out["late"] = NodeCompat("custom", f"{op}: neither a TFLite builtin nor in the Select "
                                 "TF ops allowlist: needs a custom op", op, mobile_kernel=False)
    return out


def _dtype_verdict(op: str, why: str, mobile: bool) -> NodeCompat:
    hint = ": a variable, freeze the graph first" if op in _RESOURCE_OPS else ""
    return NodeCompat("dtype", f"{op}: {why} tensors{hint}", op, mobile_kernel=mobile)


def confirm(compat: Compat, graph, builtin_errors: list, flex_errors: list) -> dict:
    """Attach the converter's located errors to nodes. builtin_errors come from a builtins-
    only conversion, flex_errors from one with Select TF ops and custom ops allowed.
    Returns {"nodes": name -> [messages], "unplaced": [errors with no node found],
    "located": how many located names there were, "agree": names where static and
    converter agree, "disagree": [(name, static status, converter verdict)], "failed": ""
    or the converter's first error when even the permissive conversion failed (then it
    never reached most nodes: its silence on a node says nothing)}."""
    nodes: dict = {}
    unplaced, located = [], 0
    verdict: dict = {}
    for errors, pass_name in ((builtin_errors, "builtins"), (flex_errors, "select")):
        for err in errors:
            placed = False
            for raw in err.get("nodes", []):
                located += 1
                name = _node_for(graph, raw)
                if name is None:
                    continue
                placed = True
                nodes.setdefault(name, []).append(f"{err.get('code') or 'error'}: "
                                                  f"{err.get('message', '')}")
                code = err.get("code", "")
                if pass_name == "builtins":
                    verdict[name] = "flex" if "FLEX" in code else "custom"
                elif verdict.get(name) == "flex":
                    verdict[name] = "custom"   # not even Select TF ops takes it
            if not placed:
                unplaced.append(err)
    disagree, agree = [], []
    for name, c in compat.nodes.items():
        said = c.status if c.status in ("flex", "custom") else None
        got = verdict.get(name)
        if said == got:
            if got:
                agree.append(name)
        elif said or got:
            disagree.append((name, c.status, got or "converts"))
    failed = ""
    if builtin_errors and flex_errors:     # even Select TF ops and custom ops did not help
        first = flex_errors[0]
        said = (str(first.get("message") or "no message").strip().splitlines() or [""])[0]
        failed = (f"{first['code']}: {said}" if first.get("code") else said)[:300]
    return {"nodes": nodes, "unplaced": unplaced, "located": located, "agree": agree,
            "disagree": disagree, "failed": failed}


def _node_for(graph, raw: str):
    """A converter location name -> our node name ('name@function' and ':port' forms)."""
    for candidate in (raw, raw.split("@")[0], raw.split(":")[0], raw.split("@")[0].split(":")[0]):
        if candidate in graph:
            return candidate
    return None
