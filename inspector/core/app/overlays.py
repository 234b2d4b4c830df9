"""The overlays as the window sees them: the registry (core.overlays.registry) through the
application's door."""

from __future__ import annotations

from inspector.core.overlays import registry

__all__ = ["registry"]
