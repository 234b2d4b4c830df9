"""Put on PYTHONPATH to run tests as if some packages were not installed (a hide-list).

INSPECTOR_HIDE names the groups to hide, comma-separated (default "qt"):
  qt  PySide6, shiboken6, pyqtgraph, pytest-qt (a CLI-only install)
  tf  tensorflow, keras, tf_keras (an install without TensorFlow)
The headless pass of tests/core hides both ("qt,tf")."""

import importlib.abc
import os
import sys

GROUPS = {
    "qt": ("PySide6", "shiboken6", "pyqtgraph", "pytestqt"),
    "tf": ("tensorflow", "keras", "tf_keras"),
}
HIDDEN = frozenset(name for group in os.environ.get("INSPECTOR_HIDE", "qt").split(",")
                   if group.strip() for name in GROUPS[group.strip()])


class _Hidden(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in HIDDEN:
            raise ModuleNotFoundError(f"No module named '{name}' (hidden: "
                                      f"INSPECTOR_HIDE={os.environ.get('INSPECTOR_HIDE', 'qt')})",
                                      name=name)
        return None


sys.meta_path.insert(0, _Hidden())
