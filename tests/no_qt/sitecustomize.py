"""Put on PYTHONPATH to run the core's tests as if PySide6 were not installed."""

import importlib.abc
import sys


class _NoQt(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("PySide6", "shiboken6", "pyqtgraph", "pytestqt"):
            raise ModuleNotFoundError(f"No module named '{name}' (hidden: Qt-free test pass)")
        return None


sys.meta_path.insert(0, _NoQt())
