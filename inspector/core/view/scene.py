"""What a layout hands the canvas: items (nodes, collapsed scopes, frames of expanded ones)
with their boxes, and the edges drawn between them. Slotted: nothing can be attached to a
scene after it is made (what the GUI prepares for drawing travels beside it); a Scene can
still be weakly referenced (a test checks a model's scenes are freed)."""

from __future__ import annotations

from dataclasses import dataclass, field


def scope_id(path: str) -> str:
    return path + "/"


def is_scope(item_id: str) -> bool:
    return item_id.endswith("/")


@dataclass(slots=True)
class VisibleItem:
    id: str
    kind: str            # "node", "scope" (collapsed) or "frame" (expanded scope)
    label: str
    sublabel: str
    category: str
    x: float = 0.0
    y: float = 0.0
    w: float = 0.0
    h: float = 0.0
    badges: list = field(default_factory=list)
    child_count: int = 0
    params: int = 0
    op_mix: str = ""
    alike: int = 1       # sibling scopes with the same op mix (repeated blocks)
    caption: str = ""    # plain words: what a scope does (glossary.scope_caption)


@dataclass(slots=True)
class VisibleEdge:
    src: str
    dst: str
    count: int
    control: bool
    label: str
    points: list


@dataclass(slots=True, weakref_slot=True)
class Scene:
    items: dict
    edges: list
    width: float
    height: float
    direction: str = "TB"
