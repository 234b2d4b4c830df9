"""PySide's check of every imported module, made cheap.

Once PySide6 is imported, it looks at every module imported after it for PySide's optional
`from __feature__ import ...` (snake_case, true_property): shibokensupport.feature reads the
module's whole source file and searches it for "PySide6" (PYSIDE-2029). Before the first
picture that is ~200 source files read and searched: ~17 ms of a ~190 ms start here, ~10 %
(several times that on the slow machine class, and disk reads on a cold start). The answer
only tells PySide which modules to switch when a module selects a feature; the app never
selects one (a test checks), so the answer is taken from the module's name instead."""

from __future__ import annotations

import sys

# the app's modules that use Qt, and Qt's Python packages
USES_PYSIDE = ("inspector.gui", "PySide6", "shiboken6", "pyqtgraph")


def uses_pyside_by_name(module) -> bool:
    """PySide's question ("does this module use PySide?") answered without its source."""
    name = getattr(module, "__name__", None)
    return isinstance(name, str) and name.startswith(USES_PYSIDE)


def make_feature_checks_cheap() -> bool:
    """Replace PySide's source-reading check, if PySide is imported; True if replaced."""
    feature = sys.modules.get("shibokensupport.feature")
    if feature is None or not callable(getattr(feature, "_mod_uses_pyside", None)):
        return False
    feature._mod_uses_pyside = uses_pyside_by_name
    return True
