"""What the window shows of an error or a warning: core's line, with what to do (its hint,
core.errors.PLAIN_HINTS' kinds) in the window's words. The command line has its own table
(cli.main.HINTS); neither changes the other's, whichever ran last in the process."""

from __future__ import annotations

from types import MappingProxyType

from inspector.core import errors

# the Input sizes field sizes the marked (or likely) inputs of Profile, the pipeline's Check
# and the conversion
HINTS = MappingProxyType({
    "input_size": "give its size in Phone > Conversion preview > Input sizes",
    "input_values": ""})     # (Run both asks for the size itself: gui/run_both_sizes.py)


def said(thing) -> str:
    """The line the window shows of `thing` (an InspectorError, a core warning, any
    exception or text)."""
    return errors.said(thing, HINTS)
