"""Everything the window writes, through the application's door: atomic writes that never
replace a file without being told, the DOT export, memory-mapped packages, the tour page and
the command lines it copies."""

from __future__ import annotations

from inspector.core.formats import commands, dot_export
from inspector.core.formats.memmapped import write_memmapped
from inspector.core.formats.tour_html import Slide, tour_html
from inspector.core.formats.writer import atomic_write, beside, check_target

__all__ = ["Slide", "atomic_write", "beside", "check_target", "commands", "dot_export",
           "tour_html", "write_memmapped"]
