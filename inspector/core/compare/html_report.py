"""The diff as one HTML file that opens offline (no script, no network, nothing fetched):
the verdict, the interface, the totals, repeated changes that open to their members, the
other changes, both graphs around what changed (Graphviz SVG, sanitised as the tours' are)
and the matching's own quality. Attach it to a bug report or a CI run."""

from __future__ import annotations

import html

from inspector.core.compare.diff import Diff
from inspector.core.compare.document import _delta, total_figure, total_label
from inspector.core.compare.html_pictures import CSS as PICTURE_CSS
from inspector.core.compare.html_pictures import pictures
from inspector.core.model.graph import Graph

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
.small{color:#5b6573;font-size:13px}
""" + PICTURE_CSS


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
        verdict = "Unrelated (different models, paired by exact name only)" \
            if d.unrelated else "Different"
        body.append(f"<div class='verdict diff'>{verdict}: {_e(', '.join(parts))}; "
                    f"{counts.get('unchanged', 0):,} unchanged</div>")
    if d.interface:
        body.append("<h2>Interface</h2><div class='iface'><p>Code that loads the model sees "
                    "these changes:</p><ul>" +
                    "".join(f"<li>{_e(c.text)}</li>" for c in d.interface) + "</ul></div>")
    body.append("<h2>Totals</h2><table><tr><th></th><th>A</th><th>B</th><th>change</th></tr>" +
                "".join(_total_row(k, v) for k, v in d.totals.items()) + "</table>")
    if d.notes:                          # why the size changed
        body.append("<ul>" + "".join(f"<li>{_e(n.text)}</li>" for n in d.notes) + "</ul>")
    if d.matching.scopes:
        body.append("<h2>Renamed scopes</h2><ul>" + "".join(
            f"<li><code>{_e(a)}/</code> &rarr; <code>{_e(b)}/</code></li>"
            for a, b in d.matching.scopes.items()) + "</ul>")
    body += _changes(d)
    if ga is not None and gb is not None and not d.equal:
        body.append(pictures(d, ga, gb))
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
    fmt = (lambda v: _e(total_figure(name, v)) if v is not None else _e(v))
    numbers = all(isinstance(v, (int, float)) for v in (a, b))
    change = _delta(a, b, name).split("  ")[-1] if numbers else ""   # words are not one
    return (f"<tr><td>{_e(total_label(name))}</td><td class='n'>{fmt(a)}</td><td class='n'>{fmt(b)}</td>"
            f"<td class='n'>{_e(change)}</td></tr>")


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
