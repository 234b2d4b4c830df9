"""The "sensitivity" overlay: data-free quantization sensitivity of each layer with weights
(mobile/sensitivity.py): colour by weight kurtosis (pale the lowest, red the highest), badges
with the kurtosis; layers without float weights stay white; a collapsed scope takes its
highest layer."""

from __future__ import annotations

from inspector.core.overlays.decorate import heat_colour

NO_VALUE = "#ffffff"    # registry.NO_VALUE


def _found(state) -> list:
    run = getattr(state, "quant", None)
    return list(run.sensitivity) if run is not None and run.sensitivity else []


def values(state) -> dict:
    return {s.node: s.kurtosis for s in _found(state)}


def has_data(state) -> bool:
    return bool(_found(state))


def _bounds(found: dict) -> tuple:
    low, high = min(found.values(), default=0.0), max(found.values(), default=1.0)
    return low, (high if high > low else low + 1.0)


def paint(state, items, badges: dict) -> tuple[dict, dict]:
    found = values(state)
    low, high = _bounds(found)
    top: dict = {}
    for node, value in found.items():
        item = state.visible_id(node)
        if item in items and value >= top.get(item, -1.0):
            top[item] = value
    for item, value in top.items():
        badges[item] = f"κ {value:.1f}"
    return {item: heat_colour((v - low) / (high - low)) for item, v in top.items()}, {}


def key(state) -> tuple:
    low, high = _bounds(values(state))
    return ((heat_colour(0.0), f"kurtosis {low:.1f} (least sensitive)"),
            (heat_colour(0.5), "between"),
            (heat_colour(1.0), f"kurtosis {high:.1f} (most sensitive)"),
            (NO_VALUE, "no float weights"))


def legend(state) -> str:
    if not has_data(state):
        return ("No sensitivity yet: Weight sensitivity in the Phone panel's Quantization "
                "tab (no data needed).")
    return ("Colour: kurtosis of each layer's weights (heavy tails quantize worse; 3 for a "
            "normal distribution), before any calibration data; badges: κ.")
