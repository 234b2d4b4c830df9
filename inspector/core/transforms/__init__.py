"""Graph transforms: one module per transform, registered by name (see base.REGISTRY)."""

from inspector.core.transforms.base import REGISTRY, TransformError  # noqa: F401
from inspector.core.transforms.pipeline import last_graph, run_pipeline  # noqa: F401
from inspector.core.transforms.syntax import (  # noqa: F401
    TransformSpec,
    format_transforms,
    parse_transforms,
)
