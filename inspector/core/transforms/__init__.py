"""Graph transforms: one module per transform, registered by name (see base.REGISTRY)."""

from inspector.core.transforms import (  # noqa: F401  (importing registers them)
    add_default_attributes,
    backport_concatv2,
    fold_batch_norms,
    fold_constants,
    fold_old_batch_norms,
    freeze_requantization_ranges,
    insert_logging,
    merge_duplicate_nodes,
    native,
    obfuscate_names,
    quantize_nodes,
    quantize_weights,
    remove_attribute,
    remove_control_dependencies,
    remove_device,
    remove_nodes,
    rename_attribute,
    rename_op,
    round_weights,
    set_device,
    sort_by_execution_order,
    strip_unused_nodes,
)
from inspector.core.transforms.base import REGISTRY, TransformError  # noqa: F401
from inspector.core.transforms.pipeline import run_pipeline  # noqa: F401
from inspector.core.transforms.syntax import (  # noqa: F401
    TransformSpec,
    format_transforms,
    parse_transforms,
)
