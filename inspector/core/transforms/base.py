"""What every transform shares: its context (inputs, outputs, typed parameters) and registry."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable

from inspector.core.errors import InspectorError
from inspector.core.model.dtypes import dtype_value
from inspector.core.runtime.job import NO_JOB, Job


class TransformError(InspectorError):
    """A transform cannot be applied (bad parameter, missing node, ...)."""


@dataclass
class Context:
    """The --inputs/--outputs and parameters handed to one transform, plus notes it leaves."""

    inputs: list
    outputs: list
    params: dict
    name: str = ""
    reasons: dict = field(default_factory=dict)  # node name -> why it changed
    kept: dict = field(default_factory=dict)     # node name -> why a match was left alone
    job: Job = NO_JOB                            # the request's job token
    # provenance for comparisons: a node that lives on under another name, and nodes merged
    # into another (old name -> new name)
    became: dict = field(default_factory=dict)
    merged: dict = field(default_factory=dict)
    split: dict = field(default_factory=dict)    # new node -> the old node it came out of
    # the transform may change the GraphDef it is given and return it (a pipeline whose
    # caller keeps no step's graph: no copy of the weights per step). Transforms that know
    # how (strip_unused_nodes, remove_nodes) do; the others return a new graph as always.
    # A node changed in place is replaced by a changed copy (graph_utils.set_nodes), so that
    # the pipeline's diff still sees the old one.
    in_place: bool = False
    warning: str = ""       # what the result will do that its user would not expect

    def check(self) -> None:
        """Stop here if the request was cancelled (transforms call it in their loops)."""
        self.job.check()

    def until_settled(self, step, graph_def, limit: int | None = None):
        """Apply `step(graph_def) -> (graph_def, changed: bool)` until nothing changes. Each
        real change removes or rewrites matched nodes, so this ends; the pass limit (the
        node count plus a margin) is the last guard, with a clear error."""
        limit = limit if limit is not None else len(graph_def.node) + 16
        for _ in range(limit):
            self.check()
            graph_def, changed = step(graph_def)
            if not changed:
                return graph_def
        raise TransformError(f"{self.name} did not settle after {limit} passes; the graph "
                             "keeps matching (please report this graph)")

    def values(self, key: str) -> list:
        return list(self.params.get(key, []))

    def single(self, key: str, default=None, required: bool = False):
        vals = self.params.get(key, [])
        if len(vals) > 1:
            raise TransformError(f"Expected a single '{key}' parameter, but found "
                                 f"{len(vals)} occurrences")
        if not vals:
            if required:
                raise TransformError(f"{self.name} needs the parameter '{key}'")
            return default
        return vals[0]

    def int(self, key: str, default: int) -> int:
        v = self.single(key)
        if v is None:
            return default
        return parse_int(key, v)

    def float(self, key: str, default: float) -> float:
        v = self.single(key)
        if v is None:
            return default
        return parse_float(key, v)

    def bool(self, key: str, default: bool) -> bool:
        v = self.single(key)
        if v is None:
            return default
        if v in ("true", "1"):
            return True
        if v in ("false", "0"):
            return False
        raise TransformError(f"Couldn't interpret the {key} argument as a boolean:{v} "
                             "(expected true, false, 0 or 1)")

    def note(self, node: str, reason: str) -> None:
        self.reasons.setdefault(node, reason)

    def merge(self, node: str, into: str) -> None:
        """Say that `node` is gone into `into` (a node of the result)."""
        self.merged[node] = into

    def keep(self, node: str, reason: str) -> None:
        """Say why a node that matched was left as it is (shown beside the changes)."""
        self.kept.setdefault(node, reason)


INT32 = (-2 ** 31, 2 ** 31 - 1)


def parse_int(key: str, v: str) -> int:
    """TF parses int parameters as int32: anything else is an error, not a wrap-around."""
    if not re.fullmatch(r"[+-]?\d{1,12}", v.strip()) or \
            not INT32[0] <= int(v) <= INT32[1]:
        raise TransformError(f"Couldn't interpret the {key} argument as a number:{v[:40]}")
    return int(v)


def parse_float(key: str, v: str) -> float:
    try:
        value = float(v)
    except ValueError:
        raise TransformError(f"Couldn't interpret the {key} argument as a float:{v[:40]}") \
            from None
    if value != value or value in (float("inf"), float("-inf")):
        raise TransformError(f"The {key} argument must be a finite number (got {v[:40]})")
    return value


@dataclass
class Param:
    name: str
    kind: str  # "string", "int", "float", "bool", "dtype", "shape", "op", "node", "path"
    default: str = ""
    required: bool = False
    repeated: bool = False
    help: str = ""
    minimum: float | None = None   # for int and float parameters

    def check(self, transform: str, values: list) -> None:
        """Raise TransformError, in words a user understands, for a value this parameter
        cannot take (the runtime keeps TF's own wording)."""
        where = f"{transform}: " if transform else ""
        if len(values) > 1 and not self.repeated:
            raise TransformError(f"{where}{self.name} is given {len(values)} times; it takes "
                                 "one value")
        for v in values:
            shown = v if len(v) <= 40 else v[:39] + "…"
            if self.kind in ("int", "float"):
                try:
                    number = parse_int(self.name, v) if self.kind == "int" else \
                        parse_float(self.name, v)
                except TransformError:
                    what = "whole number (up to 2,147,483,647)" if self.kind == "int" \
                        else "finite number"
                    raise TransformError(f"{where}{self.name}: '{shown}' is not a "
                                         f"{what}") from None
                if self.minimum is not None and number < self.minimum:
                    raise TransformError(f"{where}{self.name} must be at least "
                                         f"{self.minimum:g} (got {shown})")
            elif self.kind == "bool" and v not in ("true", "false", "1", "0"):
                raise TransformError(f"{where}{self.name}: use true or false (got '{shown}')")
            elif self.kind == "dtype":
                try:
                    dtype_value(v)
                except KeyError:
                    raise TransformError(f"{where}{self.name}: '{shown}' is not a TensorFlow "
                                         "type (float, int32, uint8, ...)") from None
            elif self.kind == "shape" and v and \
                    not re.fullmatch(r"\s*-?\d{1,10}(\s*,\s*-?\d{1,10})*\s*", v):
                raise TransformError(f"{where}{self.name}: sizes separated by commas, e.g. "
                                     f"1,224,224,3 (got '{shown}')")


def check_params(name: str, params: dict) -> None:
    """Required parameters present and every known parameter well-formed (TF ignores unknown
    ones, and so do we)."""
    info = REGISTRY.get(name)
    if info is None:
        raise TransformError(f"Transform '{name}' not recognized.")
    for param in info.params:
        values = params.get(param.name, [])
        if param.required and not [v for v in values if v]:
            raise TransformError(f"{name} needs the parameter '{param.name}'")
        param.check(name, values)


@dataclass
class TransformInfo:
    name: str
    func: Callable
    group: str
    summary: str
    params: list = field(default_factory=list)
    native: bool = False  # runs through TensorFlow's own engine
    # why the step changed nothing on this input graph, and what to use instead (asked only
    # when it changed nothing): `why_unchanged(graph_def) -> str`
    why_unchanged: Callable | None = None
    # it never reads tensor values, nor copies a node under another name: it may run on a
    # graph whose large values are still in the model file (loaders/whole_graphdef)
    structure_only: bool = False
    # the step's graph alone, with none of the pipeline's report (for a caller that wants only
    # the graph: transforms.last_graph): `alone(graph_def, ctx) -> graph_def`, the same as
    # `func`'s, or None where it cannot be sure of that (the pipeline runs then)
    alone: Callable | None = None


class Registry(dict):
    """name -> TransformInfo. A transform registers itself when its module is imported; asking
    for a name imports that transform's module (catalogue.MODULE_OF), listing them imports
    every one: a pipeline of pure-Python steps never imports numpy's folding code."""

    def _load(self, name) -> None:
        if not dict.__contains__(self, name):
            from inspector.core.transforms import catalogue

            catalogue.load(name)

    def _load_all(self) -> None:
        from inspector.core.transforms import catalogue

        catalogue.load()

    def __contains__(self, name) -> bool:
        self._load(name)
        return dict.__contains__(self, name)

    def __missing__(self, name):
        self._load(name)
        if dict.__contains__(self, name):
            return dict.__getitem__(self, name)
        raise KeyError(name)

    def get(self, name, default=None):
        self._load(name)
        return dict.get(self, name, default)

    def __iter__(self):
        self._load_all()
        return dict.__iter__(self)

    def __len__(self) -> int:
        self._load_all()
        return dict.__len__(self)

    def keys(self):
        self._load_all()
        return dict.keys(self)

    def values(self):
        self._load_all()
        return dict.values(self)

    def items(self):
        self._load_all()
        return dict.items(self)


REGISTRY: dict = Registry()
NOTHING_CHANGED = "this graph has nothing this step changes"


def transform(name: str, group: str, summary: str, params=(), why_unchanged=None,
              structure_only: bool = False, alone=None):
    """Register a transform function `func(graph_def, ctx) -> graph_def`."""
    def wrap(func):
        REGISTRY[name] = TransformInfo(name, func, group, summary, list(params),
                                       why_unchanged=why_unchanged,
                                       structure_only=structure_only, alone=alone)
        return func
    return wrap
