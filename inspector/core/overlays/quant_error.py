"""The "quant_error" overlay: per GraphDef node, the error of its TFLite tensor in the chosen
quantization recipe against the float .tflite (noise over signal energy, on a log scale:
pale the best node, red the worst), badges with the SNR in dB. Nodes the mapping does not
reach (folded, or ops the converter added) stay white; a collapsed scope takes its worst node."""

from __future__ import annotations

import math

from inspector.core.overlays.decorate import heat_colour

NO_VALUE = "#ffffff"    # registry.NO_VALUE: what an overlay with colours paints where it has none


def values(state) -> dict:
    run = getattr(state, "quant", None)
    return {n: e.nsr for n, e in run.node_errors().items()} if run is not None else {}


def has_data(state) -> bool:
    run = getattr(state, "quant", None)
    return run is not None and bool(run.node_errors())


def _fraction(nsr: float, low: float, high: float) -> float:
    if not math.isfinite(nsr) or nsr <= 0:
        return 0.0 if not math.isinf(nsr) else 1.0
    if high <= low:
        return 1.0
    return (math.log10(max(nsr, low)) - math.log10(low)) / (math.log10(high) - math.log10(low))


def _bounds(found: dict) -> tuple:
    """(pale, red) ends of the log scale: the best and the worst node, a decade apart at
    least, so the worst layers stand out from the others whatever the recipe."""
    finite = [v for v in found.values() if math.isfinite(v) and v > 0]
    high = max(finite, default=1.0)
    return min(min(finite, default=high), high / 10.0), high


def paint(state, items, badges: dict) -> tuple[dict, dict]:
    errors = state.quant.node_errors()
    low, high = _bounds({n: e.nsr for n, e in errors.items()})
    worst: dict = {}
    for node, err in errors.items():
        item = state.visible_id(node)
        if item not in items:
            continue
        if item not in worst or err.nsr > worst[item].nsr:
            worst[item] = err
    heat = {}
    for item, err in worst.items():
        heat[item] = heat_colour(_fraction(err.nsr, low, high))
        badges[item] = f"{err.snr_db:.0f} dB" if math.isfinite(err.snr_db) else "exact"
    return heat, {}


def key(state) -> tuple:
    found = values(state)
    low, high = _bounds(found)
    return ((heat_colour(0.0), f"error {low:.1e} of the signal or less"),
            (heat_colour(0.5), "between (log scale)"),
            (heat_colour(1.0), f"worst: {high:.1e} of the signal"),
            (NO_VALUE, "no TFLite tensor (folded or added)"))


def legend(state) -> str:
    run = getattr(state, "quant", None)
    if run is None or not run.chosen[0]:
        return "No quantization error yet: run recipes in the Phone panel's Quantization tab."
    recipe, kept = run.chosen
    return (f"Colour: error of each node's TFLite tensor in recipe {recipe}"
            + (f" (float: {kept})" if kept else "") + " against the float .tflite (noise "
            "over signal, log scale); badges: SNR in dB; a collapsed scope shows its worst node.")
