"""Comparing two models, the use case: diff them (off the GUI thread), then navigate the
result on two synced views: a node chosen on one side selects its counterparts on the other
(1:1, merged N:1 and split 1:N alike), n / p step through the changes and open the scopes on
the way, collapsed scopes carry "+3 -5 ~2" badges, "changed only" opens just the paths to
changes. Qt-free: the window only draws what this says."""

from __future__ import annotations

from itertools import chain, islice

from inspector.core.app.comparing_numeric import (  # noqa: F401  (the use case's API)
    numeric_between,
    numeric_ports,
    run_numeric,
)
from inspector.core.app.compare_steps import SIDES, ChangeSteps
from inspector.core.app.decorations import Decorations
from inspector.core.app.diffing import diff_models
from inspector.core.app.scope_marks import ScopeMarks
from inspector.core.compare.diff import Diff
from inspector.core.compare.document import _delta, dumps, me_mapping, total_label
from inspector.core.compare.html_report import diff_html
from inspector.core.compare.merged import merged_in_steps
from inspector.core.compare.numeric_report import with_numeric
from inspector.core.formats.writer import proposed_name
from inspector.core.model.graph import Graph
from inspector.core.model.tensors import facts
from inspector.core.overlays.decorate import heat_colour
from inspector.core.runtime.job import NO_JOB, Job
from inspector.core.view.view_graph import ViewModel

# what each entry status looks like on each side (the canvas's diff vocabulary)
LOOK = {"A": {"changed": "changed", "removed": "removed", "merged": "merged",
              "split": "changed"},
        "B": {"changed": "changed", "added": "added", "split": "split", "merged": "changed"}}
SYMBOL = {"added": "+", "removed": "-", "changed": "~", "merged": "merged ", "split": "split "}
BADGE_ORDER = ("added", "removed", "changed", "merged", "split")
LEGEND = (("changed", "#d4a017", "solid"), ("added", "#2e8b57", "solid"),
          ("removed", "#c0392b", "dashed"), ("merged into another node", "#8e44ad", "dash-dot"),
          ("split out of a node", "#138d90", "solid"))
SELECTED = "#1f6fd1"   # the ring around the selected node and its counterparts (no diff
#                        colour: a selected removed node still shows it was removed)
INPUT_OPS = ("Placeholder", "PlaceholderWithDefault", "PlaceholderV2")   # a graph's inputs
READABLE = 0.92        # the first scale of a comparison: 8.5 pt names at ~10 px, edge labels shown

__all__ = ["CompareSession", "compare", "dumps", "me_mapping", "diff_html"]


def _short(text: str, limit: int = 70) -> str:
    """A reason on part of one line: its first sentence, cut."""
    first = text.split("\n")[0].split(". ")[0]
    return first if len(first) <= limit else first[:limit - 1] + "…"


def compare(ga: Graph, gb: Graph, a_label: str, b_label: str, steps=None,
            job: Job = NO_JOB, paths: tuple = ("", ""), totals: bool = False) -> "CompareSession":
    """Diff B against A (diffing.diff_models: the command line's rules) and make both
    views."""
    d = diff_models(ga, gb, (a_label, b_label), steps, paths, totals, job)
    if gb is ga and not steps:       # B is A (identical.same_as_opened): nothing to match
        return CompareSession(d, ga, gb, paths)
    job.progress(95, 100, "views")
    session = CompareSession(d, ga, gb, paths)
    session.change_rows()              # here, in the task: 50k lines are not for the GUI thread
    d.counts()
    return session


def _elements(graph: Graph, name: str) -> int:
    node = graph.get(name)
    if node is None or "value" not in node.proto.attr:
        return 0
    return facts(node.proto.attr["value"].tensor).elements


class CompareSession(ChangeSteps):
    """A comparison to navigate (the change list and n / p: compare_steps.ChangeSteps)."""

    def __init__(self, diff: Diff, ga: Graph, gb: Graph, paths: tuple = ("", "")):
        self.diff = diff
        self.paths = paths                  # the files A and B came from ("" if none)
        self.ports = ([], [])                # A's marked inputs and outputs, if any
        self.graphs = {"A": ga, "B": gb}
        self.views = {"A": ViewModel(ga), "B": ViewModel(gb)}
        self.marks = {side: {} for side in SIDES}         # node -> added/removed/changed
        for e in diff.entries:
            if e.a and e.status in LOOK["A"]:
                self.marks["A"].setdefault(e.a, LOOK["A"][e.status])
            if e.b and e.status in LOOK["B"]:
                self.marks["B"].setdefault(e.b, LOOK["B"][e.status])
        self.weights_changed = {side: {} for side in SIDES}   # node -> elements changed
        for e in diff.entries:
            for c in e.changes:
                if c.kind in ("values", "quantized") and c.figures:
                    elements = _elements(ga, e.a)
                    for side, name in (("A", e.a), ("B", e.b)):
                        self.weights_changed[side][name] = c.figures["changed_share"] * elements
        self.expanded = {side: frozenset({""}) for side in SIDES}
        self.selected = {side: [] for side in SIDES}
        self.index = -1                                    # the entry stepped to
        self.row = -1                                      # the change list's row shown
        self.stop = -1                                     # its place among the stops
        self.merged = None                                 # (ViewModel, ghosts), when asked
        self.numeric = None          # the last numeric run's result, as it came (saved too)
        self._scoped: dict = {}                            # side -> marks by scope (paint)
        self.changed_only(True)

    # -- navigation -----------------------------------------------------------------------
    def counterparts(self, side: str, name: str) -> list:
        m = self.diff.matching
        return m.counterparts_in_b(name) if side == "A" else m.counterparts_in_a(name)

    def select(self, side: str, name: str) -> None:
        """`name` chosen on `side`: it and its counterparts on the other side are selected and
        their scopes opened."""
        other = "B" if side == "A" else "A"
        self.selected[side] = [name] if name in self.graphs[side] else []
        self.selected[other] = self.counterparts(side, name) if self.selected[side] else []
        for s in SIDES:
            self._open_to(s, self.selected[s])

    def _open_to(self, side: str, names) -> None:
        """Open every scope (and group, in a graph without scopes) holding these nodes."""
        graph = self.graphs[side]
        self.expanded[side] = self.expanded[side] | self.views[side].scopes_holding(
            [n for n in names if n in graph])

    def changed_only(self, on: bool) -> None:
        """Open just the scopes on the paths to changes (on), or close every scope (off)."""
        small = [s for s in SIDES if len(self.marks[s]) <= 400] if on else []
        for side in SIDES:
            self.expanded[side] = frozenset({""})
            if side in small:
                self._open_to(side, list(self.marks[side]))
        if len(small) == 1:     # the other side alike (not one open, one closed): to the
            side, other = small[0], "B" if small[0] == "A" else "A"   # counterparts
            self._open_to(other, [c for n in self.marks[side] for c in self.counterparts(side, n)])

    def merged_view(self):
        """B with A's lost nodes as ghosts (built on first use: call it in a task)."""
        if self.merged is None:
            graph, ghosts = merged_in_steps(self.diff, self.graphs["A"], self.graphs["B"])
            self._ghost_of_node = {g: a for a, g in ghosts.items()}
            self.merged = (ViewModel(graph), ghosts)
        return self.merged

    def merged_pick(self, item: str) -> tuple:
        """A node clicked in the merged view as (side, name): A's node for its ghost, else
        B's own (a look-up: no walk over the ghosts on the GUI thread)."""
        self.merged_view()
        source = self._ghost_of_node.get(item)
        return ("A", source) if source is not None else ("B", item)

    def merged_paint(self, items, expanded) -> dict:
        """Diff colours of the merged view: ghosts removed, B's own marks as on side B."""
        view, ghosts = self.merged_view()
        diff = {}
        merged = self.diff.matching.merged
        looks = chain(self.marks["B"].items(),        # walked, not listed: 300k tuples
                      ((g, "merged" if a in merged else "removed")   # in one C call held
                       for a, g in ghosts.items()))                  # the GIL ~15 ms
        for name, look in looks:
            item = view.owner(view.badge_host(name), expanded)
            if item in items:
                diff[item] = look if not item.endswith("/") else "changed"
        return diff

    # -- what the canvases draw -------------------------------------------------------------
    def visible(self, side: str, name: str, expanded=None) -> str:
        view = self.views[side]
        return view.owner(view.badge_host(name),
                          self.expanded[side] if expanded is None else expanded)

    def inputs_drawn(self, side: str, items, expanded, merged: bool = False) -> list:
        """The drawn items holding the side's inputs (its Placeholders, the first 64 in graph
        order; the merged view's when `merged`): where its first view starts."""
        view = self.merged_view()[0] if merged else self.views[side]
        graph, found = view.graph, []
        for i in sorted(i for op in INPUT_OPS for i in graph.nodes_of_op(op)[:64])[:64]:
            item = view.owner(graph.name_list[i], expanded)
            if item in items and item not in found:
                found.append(item)
        return found

    def changes_drawn(self, side: str, items, expanded) -> list:
        """The drawn items holding the side's changed nodes (the first 64 in graph order),
        where the first view starts with Changed only on (the inputs of a wide graph opened
        to its changes sat alone, far from anything that changed)."""
        view = self.views[side]
        graph, found = view.graph, []
        marked = sorted((graph.index(n), n) for n in islice(self.marks[side], 4096)
                        if n in graph)
        for _, name in marked:
            item = view.owner(view.badge_host(name), expanded)
            if item in items and item not in found:
                found.append(item)
                if len(found) == 64:
                    break
        return found

    def paint(self, side: str, items, expanded) -> tuple:
        """(diff colours, badges, drawn scopes) of the drawn items: a collapsed scope shows
        the worst inside and "+added -removed ~changed". Walks the open scopes of the marks'
        scope tree (ScopeMarks, made once): run it in the layout task, not on the GUI
        thread."""
        diff, counts, weights = {}, {}, {}
        open_marks, collapsed = self._by_scope(side).shown(expanded)
        for host, look in open_marks:             # in open scopes: each node shows
            if host in items:
                diff[host] = look
        for item, (looks, changed) in collapsed.items():   # a collapsed scope: its totals
            if item in items and looks:
                counts[item] = looks
                if changed is not None:
                    weights[item] = changed
        badges = {}
        for item, c in counts.items():
            badges[item] = " ".join(f"{SYMBOL[k]}{c[k]}" for k in BADGE_ORDER if c[k])
            params = self.views[side].scope_stats(item[:-1])[1] if item in weights else 0
            if params:
                badges[item] += f"  weights changed {100 * weights[item] / params:.1f} %"
            diff[item] = "changed"
        return diff, badges, [i for i, it in items.items() if i.endswith("/") and
                              getattr(it, "kind", "") != "frame"]      # collapsed scopes

    def _by_scope(self, side: str) -> ScopeMarks:
        """The marks and changed weights of a side by the scopes their nodes are drawn in
        (the node showing each: itself or the one carrying it as a badge), made once: a
        picture then asks each scope, not each of 50k marked nodes, what shows it."""
        found = self._scoped.get(side)
        if found is None:
            view, marks, weights = self.views[side], {}, {}
            for name, look in self.marks[side].items():
                host = view.badge_host(name)
                marks.setdefault(tuple(view.parts(host)), []).append((host, look))
            for name, changed in self.weights_changed[side].items():
                key = tuple(view.parts(view.badge_host(name)))
                weights[key] = weights.get(key, 0.0) + changed
            found = self._scoped[side] = ScopeMarks(marks, weights)
        return found

    @staticmethod
    def dimmed(items, diff: dict) -> frozenset:
        """Collapsed scopes with nothing changed inside: dimmed, as the issue asks."""
        return frozenset(i for i in items if i.endswith("/") and i not in diff)

    def decorations(self, side: str, painted: tuple, numeric: tuple | None = None) -> Decorations:
        """The painted marks with the selection (the first selected node, the rest of them
        as its highlighted companions) and the numeric heat and badges."""
        diff, badges = painted[0], painted[1]
        heat = {}
        if numeric is not None:
            heat, extra = numeric
            badges = {**badges, **extra}
        selected = self.selected[side]
        first = self.visible(side, selected[0]) if selected else None
        cone = frozenset(self.visible(side, n) for n in selected[1:])
        return Decorations(selected=first, cone=cone, diff=diff, badges=badges, heat=heat,
                           dimmed=self.dimmed(painted[2], diff) if len(painted) > 2
                           else frozenset())


    def totals_text(self) -> str:
        """'nodes 73 -> 76 (+4.1%) · bytes ...': the totals on one line."""
        parts = []
        for name, pair in self.diff.totals.items():
            if name.startswith("latency") and "(phone)" not in name:
                continue                                   # one device class is enough here
            if name == "FLOPs counted from" and "TensorFlow" not in str(pair):
                continue                                   # said only when TF inferred them
            text = _delta(*pair, name) if isinstance(pair, list) and len(pair) == 2 \
                else str(pair)
            head, _, change = text.partition("  ")
            parts.append(f"{total_label(name)} {head}" + (f" ({change.split('(')[-1]}" if "(" in change
                                            else ""))
        return "  ·  ".join(parts)

    def file_name(self, extension: str) -> str:
        """What Save report / Save comparison propose: "A_vs_B.html" beside model A."""
        return proposed_name(self.diff.a_label, self.diff.b_label, self.paths[0], extension)

    def entry_text(self, index: int) -> str:
        return self.diff.entries[index].describe()

    def status(self) -> str:
        counts = self.diff.counts()
        if self.diff.equal:
            return f"Equal: {counts.get('unchanged', 0):,} nodes matched"
        parts = [f"{counts[k]:,} {k}" for k in
                 ("changed", "added", "removed", "merged", "split") if counts.get(k)]
        where = f"  ·  n / p: {self.stop + 1} of {len(self.stops())}" \
            if self.stop >= 0 else ""
        warn = "  ·  unrelated: different models, paired by exact name only" \
            if self.diff.unrelated else ""
        return ", ".join(parts) + where + warn


# -- numeric divergence on the two views (run in comparing_numeric) -----------------------
def report_html(session: CompareSession) -> str:
    """Save report's page: the diff, and the numeric run's result when there was one."""
    s = session
    return report_page(s.diff, s.graphs["A"], s.graphs["B"], s.numeric)


def report_page(d: Diff, ga: Graph, gb: Graph, numeric=None) -> str:
    """The one-file HTML report, with a numeric run's section when given (the window's
    Save report and `diff --html --numeric`)."""
    return with_numeric(diff_html(d, ga, gb), numeric)


def snr_fraction(snr_db: float) -> float:
    """0 (cold: 60 dB and better, equal) .. 1 (hot: 10 dB and worse)."""
    return min(1.0, max(0.0, (60.0 - snr_db) / 50.0))


def numeric_heat(session: CompareSession, side: str, divergence, expanded=None) -> tuple:
    """(heat colours, badges) of the drawn items from a divergence: each compared node by its
    SNR, a collapsed scope by its worst node; the first node past the threshold says so."""
    heat, worst = {}, {}
    for a, b in divergence.pairs:
        name = a if side == "A" else b
        snr = divergence.per_node[a]["snr_db"]
        item = session.visible(side, name, expanded)
        if item not in worst or snr < worst[item]:
            worst[item] = snr
    badges = {}
    for item, snr in worst.items():
        heat[item] = heat_colour(snr_fraction(snr))
        badges[item] = "equal" if snr == float("inf") else f"SNR {snr:.0f} dB"
    if divergence.first:
        first = divergence.first if side == "A" else dict(divergence.pairs).get(
            divergence.first, "")
        if first:
            item = session.visible(side, first, expanded)
            badges[item] = "▲ first · " + badges.get(item, "").replace("SNR ", "")
    return heat, badges
