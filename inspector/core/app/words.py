"""Numbers in words, as both front ends print them (the window draws with the same ones,
from core.view.vocabulary): "3 nodes", "1.2M", "4.0 MB", "12.5 ms"."""

from __future__ import annotations

from inspector.core.view.vocabulary import count, human_bytes, milliseconds, tf_human_readable_num

__all__ = ["count", "human_bytes", "milliseconds", "tf_human_readable_num"]
