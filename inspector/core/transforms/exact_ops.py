"""Constant folding without TensorFlow, for ops whose numpy result is bit-equal to TF's kernel.

Only what can be shown exact is here: data movement (Identity, Reshape, Transpose, ExpandDims,
Squeeze, Pack, Unpack, ConcatV2, Slice, StridedSlice, GatherV2, Tile, Fill, ZerosLike,
OnesLike), shapes (Shape, Size, Rank), integer Range, Cast where every value converts exactly,
All/Any (logic: order does not matter), Add/AddV2/Sub/Mul/Neg on one dtype, and
Maximum/Minimum/FloorDiv/FloorMod on integers. Float arithmetic is one IEEE operation per element
(numpy and Eigen round it the same way); TensorFlow runs with denormals flushed to zero, so a
float input that is subnormal or NaN, or a result near the subnormal range, is handed to TF.
Integer results that would overflow go to TF too. No transcendental function, no float
reduction (its summation order is TF's own).

`ExactEvaluator.value(tensor)` gives the value, or raises NotExact (evaluate it in TensorFlow)
or Oversized (a node declares an output over the byte limit: checked before allocating; such
nodes are collected in `oversized`).
"""

from __future__ import annotations

import math

import numpy as np

from inspector.core.model.graph import node_name_from_input
from inspector.core.model.tensors import to_numpy
from inspector.core.transforms.exact_base import (
    DTYPES,
    NotExact,
    Oversized,
    as_array,
    attr_type,
    declared_type,
)
from inspector.core.transforms.exact_kernels import DATA_OPS
from inspector.core.transforms.exact_numeric import NUMERIC_OPS

OPS = {**DATA_OPS, **NUMERIC_OPS}
EXACT_OPS = frozenset(OPS) | {"Const"}
__all__ = ["EXACT_OPS", "ExactEvaluator", "NotExact", "Oversized"]


class ExactEvaluator:
    """Values of constant tensors computed in numpy, memoized per node."""

    def __init__(self, nodes: dict, max_bytes: int):
        self.nodes = nodes
        self.max_bytes = max_bytes
        self.done: dict = {}   # node name -> list of output arrays
        self.failed: dict = {}  # node name -> why numpy cannot (TF will)
        self.oversized: set = set()  # nodes whose output would pass max_bytes (not made)
        self.probed: set = set()

    def value(self, tensor: str) -> np.ndarray:
        name, port = tensor.rsplit(":", 1)
        outs = self._node_outputs(name)
        if int(port) >= len(outs):
            raise NotExact("no such output")
        return outs[int(port)]

    def probe(self, root: str) -> None:
        """Compute every node upstream of `root` that numpy can (sizes checked on the way:
        oversized ones are listed in `oversized`), skipping those it cannot."""
        if root in self.probed:
            return
        self.probed.add(root)
        seen, stack = set(), [root]
        while stack:
            name = stack.pop()
            if name in seen:
                continue
            seen.add(name)
            stack.extend(node_name_from_input(t) for t in self.nodes[name].input
                         if not t.startswith("^"))
            try:
                self._node_outputs(name)
            except (NotExact, Oversized):
                continue

    def _node_outputs(self, root: str) -> list:
        stack, expanding = [root], set()
        while stack:  # iterative post-order: deep chains never hit the recursion limit
            name = stack[-1]
            if name in self.done:
                stack.pop()
                continue
            if name in self.failed:
                raise NotExact(self.failed[name])
            node = self.nodes[name]
            if node.op != "Const" and node.op not in OPS:
                self.failed[name] = f"{node.op} has no exact numpy version"
                raise NotExact(self.failed[name])
            pending = [node_name_from_input(t) for t in node.input  # data inputs: TF's
                       if not t.startswith("^")]                   # constant graph has
            pending = [src for src in pending if src not in self.done]  # no control edges
            if pending:
                if name in expanding:
                    self.failed[name] = "a cycle"
                    raise NotExact("a cycle")
                expanding.add(name)
                stack.extend(pending)
                continue
            stack.pop()
            try:
                self.done[name] = self._run(node)
            except NotExact as exc:
                self.failed[name] = str(exc)
                raise
            except Oversized as exc:
                self.oversized.add(name)
                self.failed[name] = str(exc)
                raise
        return self.done[root]

    def _run(self, node) -> list:
        if node.op == "Const":
            return [self._const(node)]
        args = []
        for text in node.input:
            if text.startswith("^"):
                continue  # not run: TF's constant graph has no control edges either
            src = node_name_from_input(text)
            port = int(text.split(":")[1]) if ":" in text else 0
            outs = self.done[src]
            if port >= len(outs):
                raise NotExact("no such output")
            args.append(outs[port])
        try:
            with np.errstate(all="ignore"):
                outs = OPS[node.op](self, node, args)
        except (NotExact, Oversized):
            raise
        except Exception as exc:  # numpy refused what TF may refuse in its own words
            raise NotExact(f"{type(exc).__name__}: {exc}") from None
        outs = [as_array(arr) for arr in outs]
        declared = declared_type(node)
        for arr in outs:
            if declared is not None and arr.dtype != declared:
                raise NotExact(f"result is {arr.dtype}, the node declares {declared}")
            self.allow(node, arr.shape, arr.dtype)  # TF folds no output over the limit
        return outs

    def _const(self, node) -> np.ndarray:
        code = attr_type(node, "dtype")
        if code not in DTYPES or node.attr["value"].tensor.dtype != code:
            raise NotExact(f"Const of dtype {code}")
        try:
            arr = to_numpy(node.attr["value"].tensor)
        except ValueError as exc:
            raise NotExact(str(exc)) from None
        if arr.dtype != np.dtype(DTYPES[code]):
            raise NotExact("decoded dtype differs")
        return arr

    def allow(self, node, shape, dtype) -> None:
        """Raise Oversized when an output of this shape would pass the byte limit (TF's
        rule for a node whose output shape it knows; here checked before allocating)."""
        nbytes = math.prod(int(d) for d in shape) * np.dtype(dtype).itemsize
        if nbytes > self.max_bytes:
            raise Oversized(node.name, nbytes)


