"""The diff as one HTML file that opens offline (no script, no network, nothing fetched):
the verdict, the interface, the totals, repeated changes that open to their members, the
other changes, both graphs around what changed (Graphviz SVG, sanitised as the tours' are)
and the matching's own quality. Attach it to a bug report or a CI run."""

from __future__ import annotations

import html

from inspector.core.compare.diff import Diff
from inspector.core.compare.document import _delta
from inspector.core.errors import InspectorError
from inspector.core.formats.dot_export import _q, render
from inspector.core.formats.tour_html import clean_svg
from inspector.core.model.graph import Graph

MAX_DRAWN = 160          # nodes per graph picture: the changes first, then their neighbours
COLOURS = {"changed": "#f5a623", "added": "#2e9e4f", "removed": "#d64545", "merged": "#b15fd6",
           "split": "#138d90", "context": "#d9dde3"}

CSS = """
body{font:15px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;margin:0;color:#1d2430;
background:#f6f7f9}main{max-width:1280px;margin:0 auto;padding:24px 32px 48px}
h1{font-size:26px;margin:0 0 4px}h2{font-size:19px;margin:28px 0 8px}
.sub{color:#5b6573;margin:0 0 16px;word-break:break-all}
.verdict{font-size:18px;padding:12px 16px;border-radius:8px;background:#fff;
border-left:6px solid #2e9e4f}.verdict.diff{border-color:#f5a623}
.iface{background:#fff3f3;border:1px solid #e8b4b4;border-radius:8px;padding:8px 16px}
.iface li{color:#9c1c1c;font-weight:600}
table{border-collapse:collapse;background:#fff;border-radius:8px}
td,th{padding:5px 12px;border-bottom:1px solid #e6e8ec;text-align:left}
td.n{text-align:right;font-variant-numeric:tabular-nums}
details{background:#fff;border-radius:8px;margin:6px 0;padding:6px 12px}
summary{cursor:pointer;font-weight:600}code{font-size:13px}
ul.changes{margin:4px 0;padding-left:20px}ul.changes li{margin:2px 0}
.graphs{display:grid;grid-template-columns:1fr;gap:16px}
.graph{background:#fff;border-radius:8px;padding:8px 12px;max-height:900px;overflow:auto}
.graph h3{margin:0 0 4px;font-size:15px}
.graph svg{width:100%;height:auto;max-height:860px;min-width:600px}
.key span{display:inline-block;padding:1px 8px;border-radius:4px;margin-right:6px;color:#fff}
.small{color:#5b6573;font-size:13px}
"""


def _e(text) -> str:
    return html.escape(str(text), quote=True)


def diff_html(d: Diff, ga: Graph | None = None, gb: Graph | None = None) -> str:
    counts = d.counts()
    body = [f"<h1>What changed</h1><p class='sub'>A: <code>{_e(d.a_label)}</code><br>"
            f"B: <code>{_e(d.b_label)}</code></p>"]
    if d.equal:
        body.append(f"<div class='verdict'>Equal: {counts.get('unchanged', 0):,} nodes "
                    "matched, nothing changed.</div>")
    else:
        parts = [f"{counts[k]:,} {k}" for k in ("changed", "added", "removed", "merged",
                                                  "split", "renamed") if counts.get(k)]
        body.append(f"<div class='verdict diff'>Different: {_e(', '.join(parts))}; "
                    f"{counts.get('unchanged', 0):,} unchanged</div>")
    if d.interface:
        body.append("<h2>Interface</h2><div class='iface'><p>Code that loads the model sees "
                    "these changes:</p><ul>" +
                    "".join(f"<li>{_e(c.text)}</li>" for c in d.interface) + "</ul></div>")
    body.append("<h2>Totals</h2><table><tr><th></th><th>A</th><th>B</th><th>change</th></tr>" +
                "".join(_total_row(k, v) for k, v in d.totals.items()) + "</table>")
    if d.matching.scopes:
        body.append("<h2>Renamed scopes</h2><ul>" + "".join(
            f"<li><code>{_e(a)}/</code> &rarr; <code>{_e(b)}/</code></li>"
            for a, b in d.matching.scopes.items()) + "</ul>")
    body += _changes(d)
    if ga is not None and gb is not None and not d.equal:
        body.append(_pictures(d, ga, gb))
    if d.op_histogram:
        body.append("<h2>Op counts that changed</h2><table><tr><th>op</th><th>A</th><th>B</th>"
                    "</tr>" + "".join(f"<tr><td>{_e(op)}</td><td class='n'>{a:,}</td>"
                                      f"<td class='n'>{b:,}</td></tr>"
                                      for op, (a, b) in d.op_histogram.items()) + "</table>")
    q = d.quality
    shares = ", ".join(f"{_e(rule)} {share:.0%}" for rule, share in q.get("shares", {}).items())
    body.append(f"<h2>How the nodes were matched</h2><p>{q.get('matched', 0):.1%} of A's nodes "
                f"matched ({shares}); {q.get('disagreeing_pairs', 0)} matched pairs whose "
                "inputs are matched elsewhere.</p>")
    return ("<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
            "<meta http-equiv='Content-Security-Policy' content=\"default-src 'none'; "
            "style-src 'unsafe-inline'; img-src data:\">"
            f"<title>Diff: {_e(d.a_label)} vs {_e(d.b_label)}</title><style>{CSS}</style>"
            "</head><body><main>" + "\n".join(body) + "</main></body></html>\n")


def _total_row(name: str, pair) -> str:
    a, b = (pair + [None, None])[:2] if isinstance(pair, list) else (pair, None)
    fmt = (lambda v: f"{v:,}" if isinstance(v, int) else f"{v:.4g}"
           if isinstance(v, float) else _e(v))
    return (f"<tr><td>{_e(name)}</td><td class='n'>{fmt(a)}</td><td class='n'>{fmt(b)}</td>"
            f"<td class='n'>{_e(_delta(a, b).split('  ')[-1])}</td></tr>")


def _changes(d: Diff) -> list:
    out = []
    if d.groups:
        out.append("<h2>Repeated changes</h2>")
        for g in d.groups:
            items = "".join(f"<li>{_e(d.entries[k].describe())}</li>" for k in g.members)
            out.append(f"<details><summary>{_e(g.title)}</summary><ul class='changes'>{items}"
                       "</ul></details>")
    grouped = {k for g in d.groups for k in g.members}
    single = [e for k, e in enumerate(d.entries) if k not in grouped]
    if single:
        out.append("<h2>Other changes</h2><ul class='changes'>" +
                   "".join(f"<li>{_e(e.describe())}</li>" for e in single[:2000]) + "</ul>")
        if len(single) > 2000:
            out.append(f"<p class='small'>... and {len(single) - 2000:,} more.</p>")
    return out


def _marks(d: Diff) -> tuple[dict, dict]:
    """Colour class of the nodes that changed, in A and in B."""
    in_a, in_b = {}, {}
    for e in d.entries:
        if e.a:
            in_a.setdefault(e.a, e.status)
        if e.b:
            in_b.setdefault(e.b, "changed" if e.status in ("changed", "merged") else e.status)
        # (A's side: a node merged into another keeps its own colour, as does a split in B)
    return in_a, in_b


def _shown(graph: Graph, marked: dict) -> list:
    shown = list(dict.fromkeys(n for n in marked if n in graph))[:MAX_DRAWN]
    around = []
    for name in shown:
        around += [r.node for r in graph.node(name).inputs if not r.control]
        around += graph.consumer_names(name)
    for name in around:
        if len(shown) >= MAX_DRAWN:
            break
        if name in graph and name not in shown:
            shown.append(name)
    return shown


def _dot(graph: Graph, marked: dict) -> str:
    shown = _shown(graph, marked)
    keep = set(shown)
    lines = ["digraph diff {", "  rankdir=TB; bgcolor=\"transparent\";",
             "  node [shape=box style=\"rounded,filled\" fontname=\"Helvetica\" fontsize=11];"]
    for name in shown:
        node = graph.node(name)
        status = marked.get(name, "context")
        colour = COLOURS.get(status, COLOURS["changed"])
        font = "#1d2430" if status == "context" else "#ffffff"
        label = f"{node.op}\n{name.rpartition('/')[2][:32]}"
        lines.append(f"  {_q(name)} [label={_q(label)} fillcolor=\"{colour}\" "
                     f"fontcolor=\"{font}\" tooltip={_q(name)}];")
    for name in shown:
        for ref in graph.node(name).inputs:
            if ref.node in keep and not ref.control:
                lines.append(f"  {_q(ref.node)} -> {_q(name)};")
    lines.append("}")
    return "\n".join(lines)


def _pictures(d: Diff, ga: Graph, gb: Graph) -> str:
    in_a, in_b = _marks(d)
    panes = []
    for title, graph, marked in (("A", ga, in_a), ("B", gb, in_b)):
        try:
            svg = clean_svg(render(_dot(graph, marked), "svg", timeout=60).decode("utf-8"))
        except InspectorError as exc:
            svg = f"<p class='small'>No picture: {_e(exc.message)}</p>"
        panes.append(f"<div class='graph'><h3>{title}: what changed and its neighbours</h3>"
                     f"{svg}</div>")
    key = "".join(f"<span style='background:{c}'>{k}</span>" for k, c in COLOURS.items()
                  if k != "context")
    return (f"<h2>Both graphs around the changes</h2><p class='key'>{key}</p>"
            f"<div class='graphs'>{''.join(panes)}</div>")
