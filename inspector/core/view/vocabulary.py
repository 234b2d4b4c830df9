"""What the canvas and the panels draw with, in one place for the window: numbers in words,
the op categories and their colours, TFLite statuses and theirs, shapes and dtypes as text,
and the plain sentences of the glossary. (The GUI enters the core through core.app and draws
with core.view; these live in lower floors and are shown here.)"""

from __future__ import annotations

from inspector.core.analysis import glossary
from inspector.core.analysis.glossary import plain
from inspector.core.analysis.summary import dtype_of, port_dtype, shape_of
from inspector.core.mobile.tflite_compat import COLOURS as STATUS_COLOURS
from inspector.core.mobile.tflite_compat import LABELS as STATUS_LABELS
from inspector.core.mobile.tflite_compat import STATUSES
from inspector.core.model.attrs import TensorValue
from inspector.core.model.humanize import (
           count,
           human_bytes,
           milliseconds,
           tf_human_readable_num,
)
from inspector.core.model.op_categories import COLOURS as CATEGORY_COLOURS
from inspector.core.model.op_categories import category
from inspector.core.model.tensors import format_shape, shape_dims

__all__ = ["CATEGORY_COLOURS", "STATUSES", "STATUS_COLOURS", "STATUS_LABELS", "TensorValue",
           "category", "count", "dtype_of", "format_shape", "glossary", "human_bytes",
           "milliseconds", "plain", "port_dtype", "shape_dims", "shape_of", "tf_human_readable_num"]
