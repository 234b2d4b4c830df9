"""Every transform module, and which transform names each registers (importing a module
registers its transforms in base.REGISTRY, which imports them here when asked for)."""

from __future__ import annotations

import importlib

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
