"""What the command line prints of an error or a warning: core's line, with what to do (its
hint, core.errors.PLAIN_HINTS' kinds) in the command line's options. The window has its own
table (gui.wording.HINTS); neither changes the other's, whichever ran last in the process."""

from __future__ import annotations

from types import MappingProxyType

from inspector.core import errors

HINTS = MappingProxyType({
    "input_size": "give --input_shape NAME=d0,d1,...",
    "input_values": "give its values with --input FILE.npy (the first input's) or other "
                    "inputs with --inputs"})


def said(thing) -> str:
    """The line the command line prints of `thing` (an InspectorError, a core warning, any
    exception or text)."""
    return errors.said(thing, HINTS)
