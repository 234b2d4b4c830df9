"""The targets a .tflite can be reported on: each is a name, the label the picker shows,
whether it wants a quantized (int8) file, and the function that makes its report. A new
target is its function and one `register` line (targets.py registers the shipped ones and
hands these functions on: import them from there); the CLI, the window's picker and the
choice of a GraphDef's converted file all read this."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from inspector.core.errors import InspectorError


@dataclass(frozen=True)
class Target:
    name: str
    label: str
    quantized: bool           # its accelerator computes in integers: give it an int8 file
    make: Callable            # (data: bytes, model, nodes: {op index: node}, name, job)
    #                           -> targets.TargetReport


_TARGETS: dict = {}


def register(name: str, label: str, quantized: bool, make: Callable) -> None:
    _TARGETS[name] = Target(name, label, quantized, make)


def names() -> tuple:
    return tuple(_TARGETS)


def get(name: str) -> Target:
    key = (name or "").strip().lower()
    if key not in _TARGETS:
        raise InspectorError(f"unknown target '{key[:40]}' (choose from "
                             f"{', '.join(_TARGETS)})")
    return _TARGETS[key]


def choices() -> list:
    """(name, label) of every target, in registration order (the picker's rows)."""
    return [(t.name, t.label) for t in _TARGETS.values()]
