"""The application's start, before and while the window is made: the reader process for the
model given on the command line (before Qt is imported, so it can be a fork), and the modules
every opened model needs (imported while the window starts, not while a model opens)."""

from __future__ import annotations

import os

# binary GraphDefs from this size are read lazily, and the app starts their reader early
# (lazy_graphdef.LAZY_ABOVE; tests/gui/test_gui_startup.py checks they agree)
PRESTART_ABOVE = 4 * 2 ** 20


def prestart(path: str) -> None:
    """The reader process for a big model; for a small one (the demo model) nothing is
    imported here: the loaders and numpy cost ~0.3 s on the slow class before Qt starts."""
    try:
        if os.stat(path).st_size < PRESTART_ABOVE:
            return
    except OSError:
        return                      # the real open says what is wrong
    from inspector.core.loaders.readers import prestart as start_reader

    start_reader(path)


def import_model_modules() -> None:
    """~50-90 ms of stall on the GUI thread at the first open otherwise (bench/scale.py)."""
    import inspector.core.analysis.metrics  # noqa: F401
    import inspector.core.analysis.summary  # noqa: F401
    import inspector.core.app.preview  # noqa: F401
    import inspector.core.loaders  # noqa: F401
    import inspector.core.view.view_graph  # noqa: F401


def import_after_first_picture() -> None:
    """What the app's first picture needs not, imported once it is up (on a thread): numpy
    and every transform (the Pipeline panel lists them)."""
    import numpy  # noqa: F401

    from inspector.core.transforms import REGISTRY

    len(REGISTRY)           # imports every transform's module (base.Registry)
