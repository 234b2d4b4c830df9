"""The HTML report's pictures of both graphs around the changes: one picture per change group
(a repeated change drawn where it first occurs, the other changes by scope), A beside B, each
at Graphviz's own size (11 pt labels: 14.7 CSS px), scrolling rather than shrinking."""

from __future__ import annotations

import html
import re

from inspector.core.compare.diff import Diff
from inspector.core.errors import InspectorError
from inspector.core.formats.dot_export import _q, render
from inspector.core.formats.tour_html import clean_svg
from inspector.core.model.graph import Graph, scope_of

MAX_PICTURES = 16        # pictures in a report: the repeated changes first, then the others
PER_PICTURE = 6          # changes drawn in one picture
MAX_NODES = 40           # nodes per side of a picture: its changes, then their neighbours
PX_PER_PT = 4 / 3        # Graphviz draws in points; the page shows them at CSS pixel size
COLOURS = {"changed": "#f5a623", "added": "#2e9e4f", "removed": "#d64545", "merged": "#b15fd6",
           "split": "#138d90", "context": "#d9dde3"}
CSS = """
.pic{background:#fff;border-radius:8px;padding:8px 12px;margin:12px 0}
.pic h3{margin:0 0 2px;font-size:15px}
.pair{display:grid;grid-template-columns:1fr 1fr;gap:12px;align-items:start}
div.graph{overflow:auto;max-height:720px;border:1px solid #eef0f3;border-radius:6px;padding:4px}
div.graph h4{margin:0 0 4px;font-size:13px;color:#5b6573}
div.graph svg{display:block}
.key span{display:inline-block;padding:1px 8px;border-radius:4px;margin-right:6px;color:#fff}
"""
_BOX = re.compile(r'viewBox="\s*[-\d.]+[\s,]+[-\d.]+[\s,]+([\d.]+)[\s,]+([\d.]+)\s*"')


def _e(text) -> str:
    return html.escape(str(text), quote=True)


def _scope(entry) -> str:
    return scope_of(entry.a or entry.b)


def picture_sets(d: Diff) -> list:
    """(title, note, entry indices) per picture: each group's changes in its first scope,
    then the changes not in a group, by scope, PER_PICTURE at a time."""
    sets = []
    for g in d.groups:
        first = _scope(d.entries[g.members[0]])
        drawn = [k for k in g.members if _scope(d.entries[k]) == first][:PER_PICTURE]
        where = f"in {first}/" if first else "at the top level"
        note = "" if len(drawn) == len(g.members) else \
            f"{len(drawn)} of its {len(g.members):,}, {where}"
        sets.append((g.title, note, drawn))
    grouped = {k for g in d.groups for k in g.members}
    by_scope: dict = {}
    for k, e in enumerate(d.entries):
        if k not in grouped:
            by_scope.setdefault(_scope(e), []).append(k)
    for scope, members in by_scope.items():
        for start in range(0, len(members), PER_PICTURE):
            part = members[start:start + PER_PICTURE]
            title = d.entries[part[0]].describe() if len(part) == 1 else \
                f"{len(part)} changes {'in ' + scope + '/' if scope else 'at the top level'}"
            sets.append((title, "", part))
    return sets


def _marks(d: Diff, members: list) -> tuple[dict, dict]:
    """Colour class of the nodes that changed, in A and in B (A's side: a node merged into
    another keeps its own colour, as does a split in B)."""
    in_a, in_b = {}, {}
    for k in members:
        e = d.entries[k]
        if e.a:
            in_a.setdefault(e.a, e.status)
        if e.b:
            in_b.setdefault(e.b, "changed" if e.status in ("changed", "merged") else e.status)
    return in_a, in_b


def _shown(graph: Graph, marked: dict) -> list:
    shown = list(dict.fromkeys(n for n in marked if n in graph))[:MAX_NODES]
    around = []
    for name in shown:
        around += [r.node for r in graph.node(name).inputs if not r.control]
        around += graph.consumer_names(name)
    for name in around:
        if len(shown) >= MAX_NODES:
            break
        if name in graph and name not in shown:
            shown.append(name)
    return shown


def _dot(graph: Graph, marked: dict) -> str:
    shown = _shown(graph, marked)
    keep = set(shown)
    lines = ["digraph diff {", "  rankdir=TB; bgcolor=\"transparent\"; nodesep=0.2;",
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


def natural_size(svg: str) -> str:
    """The cleaned SVG at Graphviz's own size in CSS pixels (clean_svg makes it fill its box,
    which shrinks a wide graph's labels to a few pixels)."""
    box = _BOX.search(svg)
    if box is None:
        return svg
    w, h = (float(v) * PX_PER_PT for v in box.groups())
    return svg.replace('width="100%" height="100%"', f'width="{w:.0f}" height="{h:.0f}"', 1)


def _side(title: str, graph: Graph, marked: dict) -> str:
    if not marked:
        return (f"<div class='graph'><h4>{title}</h4><p class='small'>none of these nodes is "
                f"in {title}</p></div>")
    try:
        svg = natural_size(clean_svg(render(_dot(graph, marked), "svg", timeout=60)
                                     .decode("utf-8")))
    except InspectorError as exc:
        svg = f"<p class='small'>No picture: {_e(exc.message)}</p>"
    return f"<div class='graph'><h4>{title}</h4>{svg}</div>"


def pictures(d: Diff, ga: Graph, gb: Graph) -> str:
    sets = picture_sets(d)
    key = "".join(f"<span style='background:{c}'>{k}</span>" for k, c in COLOURS.items()
                  if k != "context")
    out = [f"<h2>Both graphs around the changes</h2><p class='key'>{key} grey: unchanged "
           "neighbours</p>"]
    for title, note, members in sets[:MAX_PICTURES]:
        in_a, in_b = _marks(d, members)
        out.append(f"<section class='pic'><h3>{_e(title)}</h3>"
                   + (f"<p class='small'>{_e(note)}</p>" if note else "")
                   + f"<div class='pair'>{_side('A', ga, in_a)}{_side('B', gb, in_b)}</div>"
                   "</section>")
    if len(sets) > MAX_PICTURES:
        out.append(f"<p class='small'>{len(sets) - MAX_PICTURES:,} more change groups are not "
                   "drawn: the lists above have them all.</p>")
    return "".join(out)
