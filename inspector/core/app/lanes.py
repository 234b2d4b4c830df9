"""N-way comparison: a pipeline's stages (the original, each step, or any list of models) as
synced lanes. Consecutive stages are matched (with the pipeline's own provenance where there
is one); a node chosen in one lane lights its counterparts in every other lane, following
the matchings through the stages in between, 1:N and N:1 included. Qt-free."""

from __future__ import annotations

from collections import deque

from inspector.core.app.decorations import Decorations
from inspector.core.compare import provenance as _provenance
from inspector.core.compare.diff import diff_graphs
from inspector.core.model.graph import Graph
from inspector.core.runtime.job import NO_JOB, Job
from inspector.core.view.view_graph import ViewModel

LOOK = {"changed": "changed", "added": "added", "split": "split", "merged": "changed"}


class LanesSession:
    def __init__(self, graphs: list, labels: list, diffs: list):
        self.graphs, self.labels, self.diffs = graphs, labels, diffs
        self.views = [ViewModel(g) for g in graphs]
        self.marks = [{}] + [{e.b: LOOK[e.status] for e in d.entries if e.b and e.status in LOOK}
                             for d in diffs]              # what each stage changed
        self.expanded = [frozenset({""}) for _ in graphs]
        self.selected = [[] for _ in graphs]

    def counterparts(self, lane: int, name: str) -> list:
        """[names in lane k for every k]: walk the matchings forward and backward."""
        found = [set() for _ in self.graphs]
        found[lane].add(name)
        queue = deque([(lane, name)])
        while queue:
            k, n = queue.popleft()
            steps = []
            if k + 1 < len(self.graphs):
                steps.append((k + 1, self.diffs[k].matching.counterparts_in_b(n)))
            if k > 0:
                steps.append((k - 1, self.diffs[k - 1].matching.counterparts_in_a(n)))
            for other, names in steps:
                for m in names:
                    if m not in found[other]:
                        found[other].add(m)
                        queue.append((other, m))
        return [sorted(f) for f in found]

    def select(self, lane: int, name: str) -> None:
        found = self.counterparts(lane, name)
        found[lane] = [name]
        self.selected = found
        for k, names in enumerate(found):
            self.expanded[k] = self.expanded[k] | self.views[k].scopes_holding(names)

    def visible(self, lane: int, name: str, expanded=None) -> str:
        view = self.views[lane]
        return view.owner(view.badge_host(name),
                          self.expanded[lane] if expanded is None else expanded)

    def paint(self, lane: int, items, expanded) -> dict:
        diff = {}
        for name, look in self.marks[lane].items():
            item = self.visible(lane, name, expanded)
            if item in items:
                diff[item] = look if not item.endswith("/") else "changed"
        return diff

    def decorations(self, lane: int, diff: dict) -> Decorations:
        names = self.selected[lane]
        first = self.visible(lane, names[0]) if names else None
        return Decorations(selected=first, cone=frozenset(self.visible(lane, n)
                                                          for n in names[1:]), diff=diff)


def lanes(graphs: list, labels: list, step_reports: list | None = None,
          job: Job = NO_JOB) -> LanesSession:
    """Match each stage with the next; `step_reports[k]` made stage k+1 from stage k."""
    diffs = []
    for k in range(len(graphs) - 1):
        job.check()
        job.progress(k, len(graphs) - 1, f"matching {labels[k + 1]}")
        prov = None
        if step_reports and k < len(step_reports) and step_reports[k] is not None:
            prov = _provenance.from_steps(graphs[k].names(), [step_reports[k]])
        diffs.append(diff_graphs(graphs[k], graphs[k + 1], labels[k], labels[k + 1],
                                 provenance=prov, job=job))
    return LanesSession(graphs, labels, diffs)


def pipeline_lanes(original: Graph, step_graph, rows,
                   job: Job = NO_JOB) -> LanesSession:
    """The preview's stages as lanes: the original (the window's own graph) and the graph
    after each step, `step_graph(key)` (a Graph, or None once the preview engine forgot it;
    the engine lives in the worker, in the app)."""
    graphs = [original]
    labels = ["original"]
    reports = []
    for row in rows[1:]:
        if row.report is None:
            break
        job.check()
        graph = step_graph(row.key)
        if graph is None:
            break
        graphs.append(graph)
        labels.append(row.label)
        reports.append(row.report)
    return lanes(graphs, labels, reports, job)
