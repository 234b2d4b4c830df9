"""View > Expand all scopes as a use case: the scopes to open counted in a task (bounded by
the items a picture may draw, core.view.expansion; ~0.6 s on 300k nodes), then opened in the
state, which says what was left collapsed and why."""

from __future__ import annotations

from inspector.core.errors import Cancelled
from inspector.core.view.expansion import expand_all


def start_expand_all(state, tasks) -> None:
    """Count what Expand all opens off the GUI thread, then open it (dropped if the view
    changed meanwhile); a failure is one line in the state."""
    view = state.view
    if view is None:
        return
    tasks.submit("expand", lambda job: expand_all(view.hierarchy, job=job),
                 lambda found: view is state.view and state.expand_to(found),
                 lambda exc: isinstance(exc, Cancelled) or
                 state.fail(f"Expand all failed: {exc}"), label="Expanding")
