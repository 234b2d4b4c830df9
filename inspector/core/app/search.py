"""Searching the shown graph as a use case: the query's result (names, in words, or why none)
goes to the state (`state.search`), which the search panel's controller shows; a new query
supersedes the previous one (one task kind)."""

from __future__ import annotations

from dataclasses import dataclass, field

from inspector.core.errors import InspectorError


@dataclass(frozen=True)
class SearchResult:
    graph: object             # the graph searched (None: no model open)
    text: str
    regex: bool
    names: list = field(default_factory=list)
    words: str = ""           # "12 nodes", or why there are none
    searched: bool = True     # False: nothing to search for (no query, no model)

    @property
    def key(self) -> tuple:
        return (self.graph, self.text, self.regex)


def start_search(state, tasks, text: str, regex: bool, limit: int | None = None) -> None:
    """Search the shown graph for `text` (a substring or a regular expression) in a task;
    at most `limit` names (default: the index's), the count in words saying so: a front end
    that lists fewer than the index finds asks for that many, so that "showing the first N"
    is what it lists and steps through."""
    view = state.view
    graph = view.graph if view is not None else None
    if graph is None or not text:
        tasks.cancel("search", quiet=True)
        state.set_search(SearchResult(graph, text, regex, [], "Type to search the graph"
                                      if graph is not None else "Open a model to search it",
                                      searched=False))
        return

    def work(job):
        # imported here: the search index stays off the first picture's path
        # (tests/gui/test_gui_startup.py)
        from inspector.core.analysis.search import index_for

        index = index_for(graph, job)
        found = index.find(text, regex, job=job) if limit is None else \
            index.find(text, regex, limit, job)
        return SearchResult(graph, text, regex, found.names, found.describe()), index.unreadable

    def done(answer):
        result, unreadable = answer
        state.set_search(result)
        for exc in unreadable[:3]:      # a node whose attributes could not be searched
            state.fail_unreadable(graph, exc)

    def failed(exc):
        state.set_search(SearchResult(graph, text, regex, [], exc.message if isinstance(
            exc, InspectorError) else str(exc)))

    tasks.submit("search", work, done, failed, label="Searching", quiet=True)
