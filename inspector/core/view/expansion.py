"""Expand all, bounded: the scopes opened level by level from the top while the items drawn
stay within ITEMS_AT_MOST (a 300k-node graph opened entirely drew 180k items: 35 s of layout
and 1.5 GB; 1M nodes, 3 GB). Whole levels while one fits; when not even the next whole level
fits, its scopes in graph order as far as they fit. What is left collapsed, and why, is said
in `note`."""

from __future__ import annotations

from typing import NamedTuple

from inspector.core.runtime.job import NO_JOB, Job

ITEMS_AT_MOST = 50_000     # items drawn by Expand all (~7 KB each in the window)


class Expansion(NamedTuple):
    paths: frozenset       # the scopes open ("" the root)
    items: int             # items then drawn (without other scopes open before)
    left: int              # scopes drawn and left collapsed that hold more
    note: str              # '' when every scope is open, else what was left and why


def expand_all(hierarchy, at_most: int | None = None, job: Job = NO_JOB) -> Expansion:
    """The scopes of `hierarchy` that Expand all opens (see the module's text; `at_most`:
    ITEMS_AT_MOST). The work is bounded by the items it may draw: a level is counted only
    until it overflows."""
    at_most = ITEMS_AT_MOST if at_most is None else at_most
    stats, scopes = hierarchy.stats, hierarchy.scopes
    opened, items, level, depth = [""], len(hierarchy.children("")), [""], 0
    while True:
        below = [c.path for p in level for c in scopes[p].children.values()
                 if stats[c.path].shows]
        if not below:
            return Expansion(frozenset(opened), items, 0, "")
        sizes, total = [], items
        for k, path in enumerate(below):       # stops once the level cannot fit
            job.every(k, 255)
            sizes.append(len(hierarchy.children(path)))
            total += sizes[-1]
            if total > at_most:
                break
        if total <= at_most:
            opened += below
            items, level, depth = total, below, depth + 1
            continue
        part = 0
        if depth == 0:         # no whole level opens: as many of this one as fit, in order
            while part < len(sizes) and items + sizes[part] <= at_most:
                items += sizes[part]
                part += 1
            opened += below[:part]
        return Expansion(frozenset(opened), items, len(below) - part,
                         _note(depth, part, len(below), items, at_most))


def _note(depth: int, part: int, level: int, items: int, at_most: int) -> str:
    why = (f"opening more would draw over {at_most:,} items (the window stays quick); "
           "double-click a scope to open it")
    if part:
        return (f"Expand all opened {part:,} of the {level:,} top scopes, from the graph's "
                f"start ({items:,} items); {level - part:,} left collapsed: {why}")
    if depth == 0:
        return f"Expand all opened nothing: {level:,} top scopes left collapsed: {why}"
    levels = "the top level" if depth == 1 else f"the top {depth} levels"
    return (f"Expand all opened {levels} of scopes ({items:,} items); "
            f"{level:,} scopes below left collapsed: {why}")
