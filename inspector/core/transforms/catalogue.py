"""Every transform module, and which transform names each registers (importing a module
registers its transforms in base.REGISTRY, which imports them here when asked for)."""

from __future__ import annotations

import importlib

from inspector.core.transforms.names import MODULE_OF, MODULES, NATIVE_NAMES  # noqa: F401

_loaded: set = set()


def _import(module: str) -> None:
    if module not in _loaded:
        _loaded.add(module)         # before importing: native.py asks the registry itself
        try:
            importlib.import_module(f"inspector.core.transforms.{module}")
        except BaseException:
            _loaded.discard(module)
            raise


def load(name: str | None = None) -> None:
    """Import the module registering transform `name` (every module for None or a name no
    module is known to register)."""
    module = MODULE_OF.get(name) if name is not None else None
    if module is not None:
        _import(module)
        return
    for module in MODULES:      # in this order: a later module's registration wins
        _import(module)
