"""A module imported on its first use. numpy costs ~0.1 s to import (0.4 s on the slow machine
class) and the app's first picture needs none of it: a module that only uses numpy inside its
functions writes `np = later("numpy", globals(), "np")`; the first attribute read imports
numpy and puts the module itself in that global, so later reads cost nothing extra."""

from __future__ import annotations

import importlib


class Later:
    """Stands in for a module until its first attribute is read."""

    __slots__ = ("_name", "_globals", "_key")

    def __init__(self, name: str, module_globals: dict, key: str):
        self._name, self._globals, self._key = name, module_globals, key

    def __getattr__(self, attr: str):
        module = importlib.import_module(self._name)
        if self._globals.get(self._key) is self:
            self._globals[self._key] = module
        return getattr(module, attr)

    def __repr__(self) -> str:
        return f"<module {self._name!r}, imported on first use>"


def later(name: str, module_globals: dict, key: str) -> Later:
    return Later(name, module_globals, key)
