"""Every transform's name and the module that registers it, as plain data: asked without
importing the catalogue or any transform (a session file's step names are checked at start,
before the first picture)."""

from __future__ import annotations

MODULES = ("add_default_attributes", "backport_concatv2", "fold_batch_norms", "fold_constants",
           "fold_old_batch_norms", "freeze_requantization_ranges", "insert_logging",
           "merge_duplicate_nodes", "native", "obfuscate_names", "quantize_nodes",
           "quantize_weights", "remove_attribute", "remove_control_dependencies",
           "remove_device", "remove_nodes", "rename_attribute", "rename_op", "round_weights",
           "set_device", "sort_by_execution_order", "strip_unused_nodes")
# the transforms of native.py (TensorFlow's engine); every other module registers its own name
NATIVE_NAMES = ("flatten_atrous_conv", "fuse_pad_and_conv", "fuse_resize_and_conv",
                "fuse_resize_pad_and_conv", "inline_partitionedcall", "sparsify_gather",
                "backport_tensor_array_v3", "rename_node", "optimize_for_inference")
MODULE_OF = {**{name: name for name in MODULES if name != "native"},
             **{name: "native" for name in NATIVE_NAMES}}
