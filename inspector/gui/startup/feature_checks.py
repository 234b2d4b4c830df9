"""PySide's check of every imported module, made cheap.

Once PySide6 is imported, it looks at every module imported after it for PySide's optional
`from __feature__ import ...` (snake_case, true_property): shibokensupport.feature reads the
module's whole source file and searches it for "PySide6" (PYSIDE-2029). Before the first
picture that is ~200 source files read and searched: ~17 ms of a ~190 ms start here, ~10 %
(several times that on the slow machine class, and disk reads on a cold start). The answer
only tells PySide which modules to switch when a module selects a feature; the app never
selects one (a test checks), so the answer is taken from the module's name instead.

Its import hook itself (`builtins.__import__` replaced by `__feature_import__`, which calls
the Python function `feature_import` before every import statement, of a module imported
already too, and `feature_imported` after) costs ~3.6 us a statement: ~800 statements before
the first picture, ~3 ms (~13 ms on the slow class), and every local import after it. With no
feature ever selected nothing reads what it records (a module it never saw is switched as a
module that selects none), so the app puts back the import it wraps (`plain_imports`:
PySide's own lazy-class import, `builtins.__orig_import__`, which calls Python's)."""

from __future__ import annotations

import builtins
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


def plain_imports() -> bool:
    """The import PySide's feature hook wraps (kept by PySide as `builtins.__orig_import__`)
    back in its place; True if it was replaced. Only where nothing selects a PySide feature:
    the app's process (tests/gui/test_feature_checks.py checks its modules)."""
    plain = getattr(builtins, "__orig_import__", None)
    hook = builtins.__import__
    if plain is None or hook is plain or getattr(hook, "__name__", "") != "__feature_import__":
        return False
    builtins.__import__ = plain
    return True
