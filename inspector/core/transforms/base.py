"""What every transform shares: its context (inputs, outputs, typed parameters) and registry."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable

from inspector.core.errors import InspectorError


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
        if not re.fullmatch(r"[+-]?\d+", v.strip()):
            raise TransformError(f"Couldn't interpret the {key} argument as a number:{v}")
        return int(v)

    def float(self, key: str, default: float) -> float:
        v = self.single(key)
        if v is None:
            return default
        try:
            return float(v)
        except ValueError:
            raise TransformError(f"Couldn't interpret the {key} argument as a float:{v}") from None

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


@dataclass
class Param:
    name: str
    kind: str  # "string", "int", "float", "bool", "dtype", "shape", "op", "node", "list"
    default: str = ""
    required: bool = False
    repeated: bool = False
    help: str = ""


@dataclass
class TransformInfo:
    name: str
    func: Callable
    group: str
    summary: str
    params: list = field(default_factory=list)
    native: bool = False  # runs through TensorFlow's own engine


REGISTRY: dict = {}


def transform(name: str, group: str, summary: str, params=()):
    """Register a transform function `func(graph_def, ctx) -> graph_def`."""
    def wrap(func):
        REGISTRY[name] = TransformInfo(name, func, group, summary, list(params))
        return func
    return wrap
