"""The overlays panel's charts: timings per op type and per node (one distinct label each),
totals per run, and the logged ranges of a node; an empty chart says what would fill it."""

from __future__ import annotations

from collections import Counter

from PySide6.QtGui import QFontMetrics

from inspector.core.runtime.lazy_import import later

np = later("numpy", globals(), "np")     # not imported before the app's first picture


def unique_labels(names: list, limit: int = 28) -> list:
    """Chart-axis labels for node names: each name's last scopes (conv_3/Relu, not just
    Relu), as many as it takes to tell it from the others (tower_0/conv/Conv2D and
    tower_1/conv/Conv2D); a long one keeps that distinguishing scope and its last part."""
    parts = [n.split("/") for n in names]
    depth = [min(2, len(p)) for p in parts]
    while True:
        labels = ["/".join(p[-d:]) for p, d in zip(parts, depth)]
        taken = Counter(labels)
        longer = [i for i, label in enumerate(labels)
                  if taken[label] > 1 and depth[i] < len(parts[i])]
        if not longer:
            break
        for i in longer:
            depth[i] += 1
    fitted = [_fit(p[-d:], limit) for p, d in zip(parts, depth)]
    seen: Counter = Counter()
    for i, label in enumerate(fitted):       # still equal (cut alike): number them
        seen[label] += 1
        if Counter(fitted)[label] > 1:
            fitted[i] = f"{label} #{seen[label]}"
    return fitted


def _fit(segments: list, limit: int) -> str:
    """Name segments in `limit` characters: the first (what tells it apart) and the last
    (what it is) kept, the middle dropped, then each end cut from its left."""
    label = "/".join(segments)
    if len(label) <= limit:
        return label
    if len(segments) == 1:
        return "…" + label[-(limit - 1):]
    first, last = segments[0], segments[-1]
    mid = "/…/" if len(segments) > 2 else "/"
    room = limit - len(mid)
    if len(first) + len(last) > room:
        keep = max(room // 2, room - len(first))
        last = last if len(last) <= keep else "…" + last[-(keep - 1):]
        rest = room - len(last)
        first = first if len(first) <= rest else "…" + first[-(rest - 1):]
    return first + mid + last


def _axes(plot, shown: bool) -> None:
    for side in ("left", "bottom"):
        plot.showAxis(side, shown)


def empty_chart(plot, text: str) -> None:
    """An empty chart says what would fill it instead of showing bare axes."""
    plot.clear()
    _axes(plot, False)
    plot.setTitle(text, size="9pt", color="#888888")


BAR_ROWS = 12
# a bar chart of BAR_ROWS names at 8 pt, one under another (at 110 px they were drawn over
# each other)
BAR_CHART_HEIGHT = 230


def tick_font(plot):
    """The charts' axis font: 8 pt, as their titles."""
    font = plot.font()
    font.setPointSize(8)
    return font


def bar_chart(plot, pg, items: list, colour: str) -> None:
    if not items:
        return empty_chart(plot, "nothing timed matched this graph")
    items = items[:BAR_ROWS]
    plot.clear()
    _axes(plot, True)
    plot.setTitle(None)
    plot.addItem(pg.BarGraphItem(x0=0, y=list(range(len(items))), height=0.7,
                                 width=[v for _, v in items], brush=colour))
    left = plot.getAxis("left")
    left.setTicks([[(i, name) for i, (name, _) in enumerate(items)]])
    font = tick_font(plot)
    left.setStyle(tickFont=font)
    plot.getAxis("bottom").setStyle(tickFont=font)
    font = left.style.get("tickFont") or plot.font()   # wide enough for every label (a
    left.setWidth(max(QFontMetrics(font).horizontalAdvance(name)  # label that does not fit
                      for name, _ in items) + 14)      # is not drawn at all)
    plot.getViewBox().invertY(True)
    plot.getAxis("bottom").enableAutoSIPrefix(False)   # "ms", never "ms (x0.001)"
    plot.setLabel("bottom", "ms")


def runs_chart(plot, pg, totals_ms: list) -> None:
    plot.clear()
    if not totals_ms:
        return empty_chart(plot, "no per-run totals in these timings")
    _axes(plot, True)
    plot.setTitle(None)
    plot.plot(list(range(1, len(totals_ms) + 1)), totals_ms, symbol="o",
              pen=pg.mkPen("#1f6fd1", width=2))
    plot.setLabel("left", "ms")
    plot.setLabel("bottom", "run")


def ranges_chart(plot, pg, pairs: list, chosen: tuple | None) -> None:
    """Histograms of the logged mins and maxes, and the chosen range as lines."""
    if not pairs:
        return empty_chart(plot, "no ranges logged for the selected node")
    _axes(plot, True)
    plot.clear()
    for values, colour in (([p[0] for p in pairs], "#6fa8dc"), ([p[1] for p in pairs],
                                                                 "#e06666")):
        counts, edges = np.histogram(values, bins=min(20, max(len(values), 1)))
        plot.addItem(pg.BarGraphItem(x0=edges[:-1], x1=edges[1:], height=counts, brush=colour))
    for v in chosen or ():
        plot.addItem(pg.InfiniteLine(v, pen=pg.mkPen("#333333", width=2)))
    plot.setTitle("mins (blue), maxes (red), chosen range (lines)", size="8pt")
