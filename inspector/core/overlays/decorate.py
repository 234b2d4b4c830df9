"""An overlay as values per node: timings (average ms) or requantization ranges (width and
[min, max]), and the heat colour scale they are painted with. Pure functions of the overlay
and the graph; core.view.decorations maps them onto what is visible."""

from __future__ import annotations

import math

from inspector.core.analysis.ranges import percentile_range


def heat_colour(fraction: float) -> str:
    """Pale yellow (cold) to deep red (hot)."""
    f = fraction if math.isfinite(fraction) else 0.0
    f = min(max(f, 0.0), 1.0)
    r, g, b = 255, int(245 - 190 * f), int(200 - 170 * f)
    return f"#{r:02x}{g:02x}{b:02x}"


def original_name(range_node: str) -> str:
    """`conv/Conv2D/eightbit/requant_range` -> `conv/Conv2D` (the float op it measures)."""
    return range_node.replace("/eightbit/requant_range", "")


def chosen_ranges(overlay) -> dict:
    """RequantizationRange node -> (min, max) at the overlay's percentiles."""
    return {n: percentile_range(p, overlay.min_percentile, overlay.max_percentile)
            for n, p in overlay.records.items()}


def node_values(overlay, graph) -> tuple[dict, dict, str]:
    """(graph node -> value, graph node -> badge text, how values add up: "sum" or "max")."""
    if overlay.mode == "timings" and overlay.profile is not None:
        times = overlay.profile.by_graph_node(graph)
        return times, {n: _ms(v) for n, v in times.items()}, "sum"
    if overlay.mode == "ranges" and overlay.records:
        values, badges = {}, {}
        for name, (lo, hi) in chosen_ranges(overlay).items():
            target = original_name(name)
            target = target if target in graph else (name if name in graph else None)
            if target is not None:
                values[target] = max(values.get(target, 0.0), hi - lo)
                badges[target] = f"[{lo:.3g}, {hi:.3g}]"
        return values, badges, "max"
    return {}, {}, "sum"


def _ms(value: float) -> str:
    return f"{value:.3f} ms" if value < 10 else f"{value:.1f} ms"
