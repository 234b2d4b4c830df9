"""Panels hidden at start are made after the first picture (or when first shown, or when
first asked for), not before it: ~0.1 s of the slow machine class's start.

A window names a group of attributes (a panel, its controller...) with `BuiltOnUse(group)`
class attributes and a method `_build_<group>()` that returns them all (`install` declares both
from a table of groups). `later(window, group, dock)` builds the group at once when nothing is deferred (tests, later windows), else when
the dock is first shown or after the first picture (inspector.gui.startup.start_order); reading any
of its attributes before that builds it then, so no caller ever sees it missing."""

from __future__ import annotations

from inspector.gui.startup import start_order


class BuiltOnUse:
    """A window attribute made by its group's builder on first read (then a plain instance
    attribute: this descriptor is not asked again)."""

    def __init__(self, group: str):
        self.group = group

    def __set_name__(self, owner, name: str) -> None:
        self.name = name

    def __get__(self, window, owner=None):
        if window is None:
            return self
        build(window, self.group)
        return window.__dict__[self.name]


def install(cls, groups: dict) -> None:
    """Declare on the window class `cls`, for each group -> (builder, attribute names, ...),
    its `_build_<group>` method and a BuiltOnUse for each of its attributes."""
    for group, (builder, names, *_) in groups.items():
        setattr(cls, f"_build_{group}", builder)
        setattr(cls, f"_names_{group}", tuple(names))
        for name in names:
            descriptor = BuiltOnUse(group)
            descriptor.__set_name__(cls, name)
            setattr(cls, name, descriptor)


def build(window, group: str) -> None:
    """The group's attributes, made now unless they are already: its builder returns them
    (exactly the names its table declares), set here on the window, then gated like the
    window's own (tf_gate)."""
    done = window.__dict__.setdefault("_later_built", set())
    if group in done:
        return
    done.add(group)            # (a read of its own attributes by the builder does not recurse)
    try:
        parts = getattr(window, f"_build_{group}")()
    except BaseException:
        done.discard(group)     # failed: the next read tries again, not a KeyError forever
        raise
    names = getattr(type(window), f"_names_{group}")
    assert set(parts) == set(names), f"{group} made {sorted(parts)}, not {sorted(names)}"
    window.__dict__.update(parts)
    gate = getattr(window, "_gate_later", None)
    if gate is not None:
        gate(tuple(names))


def built(window, name: str) -> bool:
    """False while `name` is a window attribute still waiting to be made."""
    return name in window.__dict__ or not isinstance(
        getattr(type(window), name, None), BuiltOnUse)


def later(window, group: str, dock) -> None:
    """The group made when its dock is first seen (not when shown behind another's tab), or
    after the first picture."""
    start_order.when_needed(dock, f"later panels {group}", lambda: build(window, group),
                            seen=dock.visibilityChanged)
