"""Squarified treemaps (Bruls, Huizing and van Wijk, 2000): weighted items laid out in a
rectangle as tiles whose areas are proportional to the weights and whose sides stay close to
square, rows filled along the shorter side while that improves the worst aspect ratio.
Nested for a tree: each tile keeps a header band and lays out its children inside."""

from __future__ import annotations

import heapq
import re
from dataclasses import dataclass

from inspector.core.model.humanize import human_bytes


DEPTH = 3           # levels of groups a map by scope shows
INSIDE = 0.95       # a map starts inside a scope that holds this share of it all
UNLABELLED = 8      # more groups too small for a label than this: one labelled tile (nested)
# the area of a tile its name and size fit in (11 px text on two lines, the window's `fold`):
# 300 stages of 1 MB were 300 blank 20 x 18 px tiles
LABELLED = 60 * 34


def inside(root) -> list:
    """The groups from `root` to the one a map by scope starts in: while one scope holds
    (almost) it all, the map starts inside it."""
    chain = [root]
    while root.children:
        big = max(root.children.values(), key=lambda g: g.bytes)
        if not big.children or big.bytes < INSIDE * root.bytes:
            break
        root = big
        chain.append(root)
    return chain


@dataclass(frozen=True)
class Tile:
    id: str            # what a click goes to (a scope path, a node name, an op type ...)
    label: str
    weight: float
    x: float
    y: float
    w: float
    h: float
    depth: int = 0
    leaf: bool = True
    detail: str = ""   # a folded tile's third line: how big its groups are, the biggest
    tip: str = ""      # a folded tile's tooltip: its biggest groups


def _worst(total: float, biggest: float, smallest: float, side: float) -> float:
    """Worst aspect ratio of a row of areas (their sum, largest and smallest) laid along a
    side of length `side` (each tile's worst is max(thick^2 / a, a / thick^2))."""
    if total <= 0 or side <= 0 or smallest <= 0:
        return float("inf")
    thick = total / side
    return max(thick * thick / smallest, biggest / (thick * thick))


def squarify(items: list, x: float, y: float, w: float, h: float) -> list:
    """[(id, label, weight)] -> [(id, label, weight, x, y, w, h)]; zero weights are left out,
    the biggest items come first. Linear after the sort: a row's worst ratio comes from its
    sum, first and last area (items go biggest first), not from a pass over the row (that
    was quadratic in a row's length: 1M equal nodes held the GUI thread for minutes)."""
    items = sorted((i for i in items if i[2] > 0), key=lambda i: -i[2])
    total = sum(i[2] for i in items)
    out: list = []
    if not items or w <= 0 or h <= 0:
        return out
    scale = w * h / total
    k, n = 0, len(items)
    while k < n:
        side = min(w, h)
        first = items[k][2] * scale
        start, area = k, first
        k += 1
        while k < n:
            a = items[k][2] * scale
            if _worst(area + a, first, a, side) > _worst(area, first, items[k - 1][2] * scale,
                                                          side):
                break
            area += a
            k += 1
        thick = area / side
        pos = 0.0
        for ident, label, weight in items[start:k]:
            length = weight * scale / thick
            if w >= h:       # the row is a column on the left
                out.append((ident, label, weight, x, y + pos, thick, length))
            else:            # the row is a band on top
                out.append((ident, label, weight, x + pos, y, length, thick))
            pos += length
        if w >= h:
            x, w = x + thick, w - thick
        else:
            y, h = y + thick, h - thick
    return out


class _Rest:
    """The groups too small to draw or to label, as one tile ("N more nodes", "300 scopes
    and 2 nodes"): no click target; they are drawn inside it (no label), `detail` says how
    big they are and names the first, `tip` lists the biggest."""

    node = ""

    def __init__(self, groups: list, alone: bool = False, scopes: bool = True,
                 inside: bool = False):
        self.bytes = sum(g.bytes for g in groups)
        self.nodes = sum(g.nodes for g in groups)
        self.folded = len(groups)
        self.children = dict(enumerate(groups)) if inside else {}
        if all(g.node or g.folded for g in groups):
            self.name = f"{self.nodes:,} more node{'s' if self.nodes != 1 else ''}"
        elif scopes:
            groups_in = sum(1 for g in groups if not g.node and not g.folded)
            nodes = sum(1 if g.node else g.nodes for g in groups if g.node or g.folded)
            self.name = f"{groups_in:,} {'' if alone else 'more '}scope" + \
                ("s" if groups_in != 1 else "") + \
                (f" and {nodes:,} node{'s' if nodes != 1 else ''}" if nodes else "")
        else:
            self.name = f"{sum(g.folded or 1 for g in groups):,} " + \
                ("groups" if alone else "others")
        named = heapq.nlargest(8, (g for g in groups if not g.folded), key=lambda g: g.bytes)
        if named and named[-1].bytes >= 0.98 * named[0].bytes:   # as big: in name order
            named = heapq.nsmallest(8, (g for g in groups if not g.folded and
                                        g.bytes >= 0.98 * named[0].bytes),
                                    key=lambda g: _natural(g.name))
        label = [(g.name.split("/")[-1] or g.name) for g in named]
        sized = [g for g in groups if not g.folded and not g.node] or named   # the scopes'
        least = min(g.bytes for g in sized) if named else 0
        self.detail = "" if not named else (
            f"{_size(named[0].bytes)} each" if least == named[0].bytes else
            f"about {_size(named[0].bytes)} each" if least * 1.1 >= named[0].bytes else
            f"up to {_size(named[0].bytes)}") + ": " + ", ".join(label[:3]) + \
            (", …" if self.folded > 3 else "")
        self.tip = "\n".join(f"{name}  {_size(g.bytes)}" for name, g in zip(label, named)) + \
            (f"\n… and {self.folded - len(named):,} more" if self.folded > len(named) else "")


def _natural(name: str) -> list:
    """stage_2 before stage_10."""
    return [int(p) if k % 2 else p for k, p in enumerate(re.split(r"(\d+)", name))]


def _size(n: float) -> str:
    return human_bytes(n)


def nested(root, x: float, y: float, w: float, h: float, depth: int = 2,
           header: float = 16.0, pad: float = 2.0, min_side: float = 6.0,
           scopes: bool = True, fold: float = 0.0) -> list:
    """Tiles of a sizes.Group tree `depth` levels deep: a group big enough keeps a header
    band for its label and shows its children inside. With `scopes`, a group's tile id is
    its path with a trailing '/' (a scope and a node may share a name). Groups whose tile
    would be smaller than min_side x min_side, and groups the measure folded already
    (`folded`), are one tile "N more nodes" (id ""): the tiles never outnumber what the
    rectangle can show, whatever the number of groups. `fold`: the area (px²) a label
    fits in; when more than UNLABELLED groups of a group would be drawn smaller, they are
    one tile ("N more scopes", "300 scopes and 2 nodes") with a label and them inside."""
    tiles: list = []

    def visit(group, gx, gy, gw, gh, level):
        kids = [g for g in group.children.values() if g.bytes > 0]
        total = sum(g.bytes for g in kids)
        if not kids or gw <= 0 or gh <= 0:
            return
        area = gw * gh
        drawn = total * min_side * min_side / area  # the weight of a least tile here
        small = drawn
        if fold and not isinstance(group, _Rest):   # (not again inside the folded tile)
            labelled = total * fold / area
            if sum(1 for g in kids if drawn <= g.bytes < labelled) > UNLABELLED:
                small = labelled
        shown = [g for g in kids if g.bytes >= small and not getattr(g, "folded", 0)]
        if len(shown) < len(kids):
            rest = [g for g in kids if g.bytes < small or getattr(g, "folded", 0)]
            shown.append(rest[0] if len(rest) == 1 else _Rest(rest, not shown, scopes,
                                                              small > drawn))
        placed = squarify([(k, g.name.split("/")[-1] or g.name, g.bytes)
                           for k, g in enumerate(shown)], gx, gy, gw, gh)
        for k, label, weight, tx, ty, tw, th in placed:
            g = shown[k]
            inner = level + 1 < depth and g.children and tw > 4 * min_side and \
                th > header + 2 * min_side
            ident = "" if getattr(g, "folded", 0) else \
                g.node or (g.name + "/" if scopes else g.name)
            tiles.append(Tile(ident, label, weight, tx, ty, tw, th, level, not inner,
                              getattr(g, "detail", ""), getattr(g, "tip", "")))
            if inner:
                visit(g, tx + pad, ty + header, tw - 2 * pad, th - header - pad, level + 1)

    visit(root, x, y, w, h, 0)
    return tiles
