"""The application's start, before and while the window is made: the reader process for the
model given on the command line (before Qt is imported, so it can be a fork), and the modules
every opened model needs (imported while the window starts, not while a model opens)."""

from __future__ import annotations


def prestart(path: str) -> None:
    from inspector.core.loaders.readers import prestart as start_reader

    start_reader(path)


def import_model_modules() -> None:
    """~50-90 ms of stall on the GUI thread at the first open otherwise (bench/scale.py)."""
    import inspector.core.analysis.metrics  # noqa: F401
    import inspector.core.analysis.summary  # noqa: F401
    import inspector.core.app.preview  # noqa: F401
    import inspector.core.loaders  # noqa: F401
    import inspector.core.view.view_graph  # noqa: F401
