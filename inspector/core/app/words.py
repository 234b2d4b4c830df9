"""Numbers in words, as both front ends print them (the window draws with the same ones,
through core.view.vocabulary): "3 nodes", "1.2M", "4.0 MB", "12.5 ms". Only these: the
command line's start imports nothing heavier."""

from __future__ import annotations

from inspector.core.model.humanize import (
    count,
    human_bytes,
    latency,
    milliseconds,
    tf_human_readable_num,
)

__all__ = ["count", "human_bytes", "latency", "milliseconds", "tf_human_readable_num"]
