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
    colours: Callable | None = None  # colours(state) -> {node: colour} where each node has
    #                                  its own (texts); exported with the values


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
        if combine == "sum":
            by_item[item] = by_item.get(item, 0.0) + value
            if item == name:
                badges[item] = texts[name]
        elif item not in by_item or value > by_item[item]:
            # a collapsed scope's badge is the value its colour shows (its widest range),
            # not its last node's (walk17: `mixed` read [-114, 68.4], coloured by [-84.3, 125])
            by_item[item] = value
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


def _compat_colours(compat: dict) -> dict:
    from inspector.core.mobile.tflite_compat import COLOURS

    return {n: COLOURS[s] for n, s in compat.items()}


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
            "width (pale narrow → red wide, white no range logged); a collapsed scope shows "
            "its widest range.")


def _activation_values(state) -> dict:
    demo = getattr(state, "demo", None)
    if demo is None:
        return {}
    return {fm.item: float(max(fm.mean.max(initial=0.0), 0.0)) for fm in demo.blocks}


def _node_data_paint(state, items, badges: dict) -> tuple[dict, dict]:
    """Each visible node's colour from the imported file; a collapsed scope takes the colour
    of its largest value (numbers) or of its first node (texts), counted when the file was
    read: the cost follows the screen, not the file."""
    placed = state.overlay.node_data
    heat = {}
    for item in items:
        if item.endswith("/"):
            colour = placed.colours.get(item) or placed.scopes.get(item)
            if colour is not None:
                heat[item] = colour
            continue
        value = placed.values.get(item)
        if value is not None:
            heat[item] = placed.colours[item]
            badges[item] = value if isinstance(value, str) else f"{value:.4g}"
    return heat, {}


def _node_data_key(state) -> tuple:
    placed = state.overlay.node_data
    if placed is None:
        return ()
    if not placed.numeric:
        labels: dict = {}
        for name, value in placed.values.items():
            labels.setdefault(value, placed.colours[name])
        return tuple((c, str(v)) for v, c in list(labels.items())[:12]) + \
            ((NO_VALUE, "no entry"),)
    values = placed.values.values()
    lo, hi = min(values, default=0.0), max(values, default=0.0)
    if placed.thresholds and not placed.gradient:
        return tuple((c, f"up to {t:.4g}") for t, c in placed.thresholds) + \
            ((NO_VALUE, "above the last threshold, or no entry"),)
    low = min(placed.values, key=placed.values.get, default=None)
    high = max(placed.values, key=placed.values.get, default=None)
    return ((placed.colours.get(low, NO_VALUE), f"{lo:.4g} (lowest)"),
            (placed.colours.get(high, NO_VALUE), f"{hi:.4g} (highest)"), (NO_VALUE, "no entry"))


def _node_data_legend(state) -> str:
    placed = state.overlay.node_data
    if placed is None:
        return "No node data yet: import a Model Explorer node-data file (File menu)."
    missed = f"; {len(placed.unmatched):,} entries named no node" if placed.unmatched else ""
    return (f"Colour: '{placed.name}' from a Model Explorer node-data file, "
            f"{len(placed.values):,} of {placed.total:,} entries on nodes{missed}.")


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
                 paint=_compat_paint, key=_compat_key,
                 colours=lambda state: _compat_colours(state.overlay.compat)))
register(Overlay("activations", "Activations", "demo", True, _activation_values,
                 lambda state: getattr(state, "demo", None) is not None,
                 lambda state: "Strips: the most active feature maps of each block in the "
                               "last demo run.",
                 paint=lambda state, items, badges: ({}, {})))
register(Overlay("node-data", "Node data", "", False,
                 lambda state: dict(state.overlay.node_data.values)
                 if state.overlay.node_data is not None else {},
                 lambda state: state.overlay.node_data is not None, _node_data_legend,
                 paint=_node_data_paint, key=_node_data_key,
                 colours=lambda state: dict(state.overlay.node_data.colours)
                 if state.overlay.node_data is not None else {}))


def _targets_paint(state, items, badges: dict) -> tuple[dict, dict]:
    """Each operator green on the accelerator, orange off it; a collapsed scope orange when
    any of its operators is off, with a bar of the two counts."""
    from inspector.core.mobile.targets import OFF, ON

    report = state.overlay.targets
    heat, counts = {}, {}
    visible = state.visible_id
    for node, p in report.by_node().items():
        item = visible(node)
        if item not in items:
            continue
        if item == node:
            heat[item] = ON if p.on else OFF
            cycles = dict(p.cost).get("cycles")
            if not p.on:
                badges[item] = "CPU"
            elif cycles and node == p.node:
                badges[item] = f"{cycles:,} cycles"
        else:
            on, off = counts.get(item, (0, 0))
            counts[item] = (on + p.on, off + (not p.on))
    bars = {}
    for item, (on, off) in counts.items():
        heat[item] = OFF if off else ON
        bars[item] = tuple((c, n) for c, n in ((OFF, off), (ON, on)) if n)
    return heat, bars


def _targets_key(state) -> tuple:
    from inspector.core.mobile.targets import OFF, ON

    r = state.overlay.targets
    if r is None:
        return ()
    return ((ON, f"on the accelerator ({r.on:,})"), (OFF, f"CPU fallback ({len(r.off):,})"),
            (NO_VALUE, "not an operator"))


def _targets_legend(state) -> str:
    r = state.overlay.targets
    if r is None:
        return "No target report yet: open a .tflite and run one (Phone > Target report)."
    return f"Colour: {r.summary()}; orange: off the accelerator (the report says why)."


register(Overlay("targets", "Target", "", False,
                 lambda state: state.overlay.targets.values()
                 if state.overlay.targets is not None else {},
                 lambda state: state.overlay.targets is not None, _targets_legend,
                 paint=_targets_paint, key=_targets_key,
                 colours=lambda state: state.overlay.targets.colours()
                 if state.overlay.targets is not None else {}))


def _register_quant_error() -> None:
    register(Overlay("quant_error", "Quant. error", "mobile", False, quant_error.values,
                     quant_error.has_data, quant_error.legend, paint=quant_error.paint,
                     combine="max", key=quant_error.key))
    register(Overlay("sensitivity", "Sensitivity", "mobile", False, sensitivity.values,
                     sensitivity.has_data, sensitivity.legend, paint=sensitivity.paint,
                     combine="max", key=sensitivity.key))


_register_quant_error()
