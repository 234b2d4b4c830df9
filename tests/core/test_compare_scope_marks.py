"""A comparison picture's diff colours and "+1 ~2" badges come from the marks' scope tree
(ScopeMarks: totals per scope, made once), walking the open scopes only: the same colours and
badges as asking each marked scope which item shows it."""

import random
from collections import Counter

from inspector.core.app.comparing import BADGE_ORDER, SIDES, SYMBOL, compare
from inspector.core.loaders import load
from inspector.core.view.hierarchy import outermost_collapsed


def asked_per_scope(session, side, items, expanded) -> tuple:
    """What paint() gave before: each marked scope asked which item shows it."""
    view = session.views[side]
    marks, changed_weights = {}, {}
    for name, look in session.marks[side].items():
        host = view.badge_host(name)
        marks.setdefault(tuple(view.parts(host)), []).append((host, look))
    for name, changed in session.weights_changed[side].items():
        key = tuple(view.parts(view.badge_host(name)))
        changed_weights[key] = changed_weights.get(key, 0.0) + changed
    diff, counts, weights = {}, {}, {}
    for key, entries in marks.items():
        owner = outermost_collapsed(key, expanded)
        if owner is None:
            for host, look in entries:
                if host in items:
                    diff[host] = look
        elif owner in items:
            c = counts.setdefault(owner, Counter())
            for _, look in entries:
                c[look] += 1
    for key, changed in changed_weights.items():
        owner = outermost_collapsed(key, expanded)
        if owner is not None and owner in items:
            weights[owner] = weights.get(owner, 0.0) + changed
    badges = {}
    for item, c in counts.items():
        badges[item] = " ".join(f"{SYMBOL[k]}{c[k]}" for k in BADGE_ORDER if c[k])
        params = view.scope_stats(item[:-1])[1] if item in weights else 0
        if params:
            badges[item] += f"  weights changed {100 * weights[item] / params:.1f} %"
        diff[item] = "changed"
    return diff, badges


def test_scope_tree_paints_what_asking_each_marked_scope_painted():
    from tests.fixtures.scale_models import blocks_graph

    session = compare(load(blocks_graph(3000, 0)).graph, load(blocks_graph(3000, 1)).graph,
                      "A", "B")
    rng = random.Random(4)
    checked = 0
    for side in SIDES:
        view = session.views[side]
        scopes = sorted(p for p in view.hierarchy.scopes if p)
        for k in range(8):
            opened = set(rng.sample(scopes, rng.randint(0, 10)))
            opened |= {"/".join(p.split("/")[:i]) for p in opened if k % 2
                       for i in range(1, p.count("/") + 1)}
            expanded = frozenset({""} | opened)
            items = view.scene(expanded).items
            diff, badges, _ = session.paint(side, items, expanded)
            want_diff, want_badges = asked_per_scope(session, side, items, expanded)
            assert diff == want_diff and badges == want_badges
            checked += len(badges)
    assert checked > 20 and any("weights changed" in b for b in want_badges.values())
