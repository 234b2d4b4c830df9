"""A minimal event, napari-style: the state emits, views and controllers listen."""

from __future__ import annotations

from typing import Callable


class Event:
    """Connect callbacks; emit calls them in the order they were connected."""

    def __init__(self):
        self._slots: list = []

    def connect(self, fn: Callable) -> None:
        self._slots.append(fn)

    def disconnect(self, fn: Callable) -> None:
        """Forget fn (a bound method equals, but is not, the one connected)."""
        self._slots = [s for s in self._slots if s != fn]

    def emit(self, *args) -> None:
        for fn in list(self._slots):
            fn(*args)
