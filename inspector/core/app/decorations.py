"""What the canvas paints on each visible item besides its category colour, as a pure function
of the application state: the selection, the highlighted cone (the rest dimmed), IN/OUT tags,
what stripping would drop (dimmed, with training-only roles as badges), a step's diff, and the
overlay's heat colours and badges (scopes sum timings and keep the widest range); which
overlays there are (`overlay_choices`, `overlay_entry`) and which one paints (`painting`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from inspector.core.overlays import registry
from inspector.core.overlays.registry import paint as overlay_paint


@dataclass(frozen=True)
class Decorations:
    selected: str | None = None
    cone: frozenset = frozenset()       # items in the cone (the selection excluded)
    dimmed: frozenset = frozenset()
    tags: dict = field(default_factory=dict)     # item -> "IN" / "OUT"
    diff: dict = field(default_factory=dict)     # item -> "added" / "removed" / "changed"
    badges: dict = field(default_factory=dict)   # item -> text above the box
    heat: dict = field(default_factory=dict)     # item -> fill colour
    strips: dict = field(default_factory=dict)   # item -> FeatureMaps of the last demo run
    bars: dict = field(default_factory=dict)     # scope item -> ((colour, count), ...)


def decorations(state) -> Decorations:
    view, scene = state.view, state.scene
    if view is None or scene is None:
        return Decorations()
    items = scene.items
    visible = state.visible_id
    names = view.graph
    selected = visible(state.selected) if state.selected else None
    cone = frozenset()
    if state.cone and state.cone_nodes and selected and not selected.endswith("/"):
        cone = frozenset(visible(n) for n in state.cone_nodes) - {selected}
    dimmed = set()
    if cone:
        dimmed = {i for i in items if i not in cone and i != selected}
    tags = {}
    for kind, marks in (("IN", state.workbench.inputs), ("OUT", state.workbench.outputs)):
        for name in marks:
            name = name.split(":")[0]
            if name in names:
                tags[visible(name)] = kind
    badges = {}
    strip = state.strip
    if strip is not None and view is state.original_view and state.workbench.outputs:
        held = strip.kept_scopes    # the app computes it with the preview, off this thread
        if held is None:
            held = view.scopes_holding(strip.kept)
        for item_id in items:
            if item_id.endswith("/"):
                if item_id[:-1] not in held:   # every node under the scope is dropped
                    dimmed.add(item_id)
            elif item_id in strip.dropped:
                dimmed.add(item_id)
                if item_id in strip.training_only:
                    badges[item_id] = strip.training_only[item_id]
    diff: dict = {}
    for name, change in state.diff.items():
        if name in names:
            item = visible(name)
            diff[item] = change if item == name or diff.get(item) in (None, change) \
                else "changed"
    heat, bars = overlay_paint(state, items, badges)
    strips = {}
    if state.demo is not None and view is state.original_view:
        strips = {fm.item: fm for fm in state.demo.blocks if fm.item in items}
    return Decorations(selected, cone, frozenset(dimmed), tags, diff, badges, heat, strips,
                       bars)



def overlay_entry(mode: str):
    """The registered overlay of `mode` (its label, legend, data check), or None."""
    return registry.get(mode)


def overlay_choices() -> list:
    """(mode, label) of every registered overlay, in the registry's order (the View menu's)."""
    return [(o.mode, o.label) for o in registry.REGISTRY.values()]


def painting(state):
    """The overlay whose colours are on the canvas now (None: the op categories are)."""
    return registry.painting(state)
