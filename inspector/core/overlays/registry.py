"""The overlays, one registry (as transforms.REGISTRY): each names its mode (the string kept
in session files and tours), its label, the dock that holds its controls, whether a tour stop
may record it, its legend, and its values per node. The overlays panel, the tour's checks,
the decorations and the session file iterate it; adding an overlay is one `register` call
plus its values and paint functions."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from inspector.core.overlays import quant_error, sensitivity
from inspector.core.overlays.decorate import heat_colour, node_values


@dataclass(frozen=True)
class Overlay:
    mode: str                    # kept in session files and tour stops: never rename one
    label: str                   # the overlays panel's button
    dock: str                    # the dock whose controls belong to it ("" for none)
    tour_capturable: bool        # a tour stop may record it (restored only when its data is)
    values: Callable             # values(state) -> {node: number or text}
    has_data: Callable           # has_data(state) -> its data is there to be shown
    legend: Callable             # legend(state) -> one sentence under the buttons
    paint: Callable | None = None  # paint(state, items, badges) -> (heat, bars); default:
    #                                 heat colours of values() summed or maxed per item
    combine: str = "sum"         # how a collapsed scope shows its nodes' values: sum or max
    key: Callable | None = None  # key(state) -> ((colour, meaning), ...): the colours it
    #                              paints; None: it paints none (the op categories stay)


NO_VALUE = "#ffffff"   # an item an overlay has nothing for: never an op category's colour


REGISTRY: dict[str, Overlay] = {}


def register(overlay: Overlay) -> Overlay:
    REGISTRY[overlay.mode] = overlay
    return overlay


def get(mode: str) -> Overlay | None:
    return REGISTRY.get(mode)


def modes() -> tuple:
    return tuple(REGISTRY)


def tour_modes() -> tuple:
    """The overlay modes a tour stop may name (a session file is checked against these)."""
    return tuple(m for m, o in REGISTRY.items() if o.tour_capturable)


def painting(state) -> Overlay | None:
    """The overlay whose colours are on the canvas now (None: the op categories are)."""
    overlay = REGISTRY.get(state.overlay.mode)
    if overlay is None or overlay.key is None or not overlay.has_data(state):
        return None
    return overlay


def paint(state, items, badges: dict) -> tuple[dict, dict]:
    """(item -> fill colour, scope item -> status bars) of the state's overlay on the visible
    items; `badges` receives the overlay's texts. An overlay with colours paints every item
    (NO_VALUE where it has nothing): its colours then mean one thing only, never mixed with
    op categories."""
    overlay = REGISTRY.get(state.overlay.mode)
    if overlay is None or not overlay.has_data(state):
        return {}, {}
    if overlay.paint is not None:
        heat, bars = overlay.paint(state, items, badges)
    else:
        heat, bars = _heat_paint(state, items, badges, overlay.combine)
    if overlay.key is not None:
        heat = {item: heat.get(item, NO_VALUE) for item in items}
    return heat, bars


def _heat_paint(state, items, badges: dict, combine: str) -> tuple[dict, dict]:
    values, texts, _ = node_values(state.overlay, state.view.graph)
    if not values:
        return {}, {}
    visible = state.visible_id
    by_item: dict = {}
    for name, value in values.items():
        item = visible(name)
        by_item[item] = by_item.get(item, 0.0) + value if combine == "sum" else \
            max(by_item.get(item, 0.0), value)
        if item == name or combine == "max":
            badges[item] = texts[name]
    if combine == "sum":
        badges.update({item: f"{v:.3f} ms" if v < 10 else f"{v:.1f} ms"
                       for item, v in by_item.items()})
    top = max(by_item.values(), default=0.0) or 1.0
    return {k: heat_colour(v / top) for k, v in by_item.items() if k in items}, {}


_SHORT = {"flex": "Select TF", "custom": "no TFLite op", "control_flow": "TF1 loop",
          "dtype": "string/resource"}


def _compat_paint(state, items, badges: dict) -> tuple[dict, dict]:
    """TFLite status colours of the visible nodes and status bars of the collapsed scopes;
    problem nodes get a short badge ("confirmed" once the converter agreed). Only visible
    items are visited, so the cost follows the screen, not the graph."""
    from inspector.core.mobile.tflite_compat import COLOURS

    heat, bars = {}, {}
    overlay = state.overlay
    compat, scopes, notes = overlay.compat, overlay.compat_scopes, overlay.compat_notes
    for item in items:
        if item.endswith("/"):
            counts = scopes.get(item[:-1])
            if counts and getattr(items.get(item), "kind", "scope") == "scope":
                bars[item] = tuple((COLOURS[s], n) for s, n in counts)
                heat[item] = COLOURS[counts[0][0]]   # its worst node's status (worst first)
            continue
        status = compat.get(item)
        if status is None:
            continue
        heat[item] = COLOURS[status]
        if status in _SHORT:
            badges[item] = _SHORT[status] + (" ✓" if item in notes else "")
    return heat, bars


def _heat_values(state) -> dict:
    view = getattr(state, "view", None)
    if view is None:
        return {}
    return node_values(state.overlay, view.graph)[0]


def _heat_key(low: str, high: str, nothing: str) -> tuple:
    return ((heat_colour(0.0), low), (heat_colour(0.5), "between"), (heat_colour(1.0), high),
            (NO_VALUE, nothing))


def _timings_key(state) -> tuple:
    profile, view = state.overlay.profile, state.view
    top = max(profile.by_graph_node(view.graph).values(), default=0) \
        if profile is not None and view is not None else 0
    return _heat_key("0 ms (fast)", f"{top:.3f} ms (slowest node)", "not timed")


def _ranges_key(state) -> tuple:
    return _heat_key("narrow range", "widest range", "no range logged")


def _compat_key(state) -> tuple:
    from inspector.core.mobile.tflite_compat import COLOURS, LABELS, STATUSES

    counts: dict = {}
    for status in state.overlay.compat.values():
        counts[status] = counts.get(status, 0) + 1
    return tuple((COLOURS[s], f"{LABELS[s]} ({counts.get(s, 0):,})") for s in STATUSES) + \
        ((NO_VALUE, "not checked"),)


def _timings_legend(state) -> str:
    profile = state.overlay.profile
    if profile is None or state.view is None:
        return "No timings yet: profile the graph in TensorFlow or import a benchmark log."
    top = max(profile.by_graph_node(state.view.graph).values(), default=0)
    return (f"Colour: average time per node, pale 0 ms → red {top:.3f} ms, white not timed; "
            "collapsed scopes show the sum of their nodes.")


def _ranges_legend(state) -> str:
    if not state.overlay.records:
        return "No ranges yet: calibrate, or import a requantization log."
    return ("Badges: [min, max] frozen from the log at the chosen percentiles; colour: range "
            "width (pale narrow → red wide, white no range logged).")


def _activation_values(state) -> dict:
    demo = getattr(state, "demo", None)
    if demo is None:
        return {}
    return {fm.item: float(max(fm.mean.max(initial=0.0), 0.0)) for fm in demo.blocks}


register(Overlay("none", "No overlay", "", True, lambda state: {}, lambda state: True,
                 lambda state: ""))
register(Overlay("timings", "Timings", "overlays", True, _heat_values,
                 lambda state: state.overlay.profile is not None, _timings_legend,
                 key=_timings_key))
register(Overlay("ranges", "Ranges", "overlays", True, _heat_values,
                 lambda state: bool(state.overlay.records), _ranges_legend, combine="max",
                 key=_ranges_key))
register(Overlay("compat", "TFLite", "mobile", True,
                 lambda state: dict(state.overlay.compat),
                 lambda state: bool(state.overlay.compat),
                 lambda state: ("Colour: TFLite status of each node (the Phone (TFLite) panel "
                                "lists them); a collapsed scope takes its worst node's colour "
                                "and shows a bar of its nodes' statuses, worst on the left."),
                 paint=_compat_paint, key=_compat_key))
register(Overlay("activations", "Activations", "demo", True, _activation_values,
                 lambda state: getattr(state, "demo", None) is not None,
                 lambda state: "Strips: the most active feature maps of each block in the "
                               "last demo run.",
                 paint=lambda state, items, badges: ({}, {})))


def _register_quant_error() -> None:
    register(Overlay("quant_error", "Quant. error", "mobile", False, quant_error.values,
                     quant_error.has_data, quant_error.legend, paint=quant_error.paint,
                     combine="max", key=quant_error.key))
    register(Overlay("sensitivity", "Sensitivity", "mobile", False, sensitivity.values,
                     sensitivity.has_data, sensitivity.legend, paint=sensitivity.paint,
                     combine="max", key=sensitivity.key))


_register_quant_error()
