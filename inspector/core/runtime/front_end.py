"""Which front end this process serves: the window opens a model for its first picture (what
the picture needs comes first), the command line for its report."""

from __future__ import annotations

WINDOW = False      # set by the window's start (gui.app.tune_runtime)
