"""What the canvas and the panels draw with, in one place for the window: numbers in words,
the op categories and their colours, TFLite statuses and theirs, shapes and dtypes as text,
and the plain sentences of the glossary. (The GUI enters the core through core.app and draws
with core.view; these live in lower floors and are shown here.)"""

from __future__ import annotations

import importlib

from inspector.core.analysis import glossary
from inspector.core.analysis.glossary import plain
from inspector.core.analysis.summary import dtype_of, port_dtype, shape_of
from inspector.core.loaders.loaded import bytes_on_disk
from inspector.core.model.attrs import TensorValue
from inspector.core.model.humanize import (
           count,
           human_bytes,
           latency,
           milliseconds,
           tf_human_readable_num,
)
from inspector.core.model.op_categories import COLOURS as CATEGORY_COLOURS
from inspector.core.model.op_categories import category
from inspector.core.model.tensors import format_shape, shape_dims

__all__ = ["CATEGORY_COLOURS", "STATUSES", "STATUS_COLOURS", "STATUS_LABELS", "TensorValue",
           "bytes_on_disk", "category", "count", "dtype_of", "format_shape", "glossary", "human_bytes",
           "latency", "milliseconds", "plain", "port_dtype", "shape_dims", "shape_of", "tf_human_readable_num"]

# the TFLite statuses' names, read from core.mobile.tflite_compat on first use: the Phone
# panels read them, the first picture does not (~2 ms, ~6 ms on the slow class, otherwise)
_STATUS_NAMES = {"STATUS_COLOURS": "COLOURS", "STATUS_LABELS": "LABELS",
                 "STATUSES": "STATUSES"}


def __getattr__(name: str):
    if name not in _STATUS_NAMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    statuses = importlib.import_module("inspector.core.mobile.tflite_compat")
    value = globals()[name] = getattr(statuses, _STATUS_NAMES[name])
    return value
