"""Who runs TensorFlow work. Code above the TF layer never imports TensorFlow or the TF layer:
it asks `tensorflow()` for the current executor and calls one of its operations
(runtime/operations.py: TensorFlowOperations) on it. The command
line and the tests install an in-process executor (inspector.core.tf.executor); the app
installs one that sends the work to its TensorFlow worker process. Same code, either way."""

from __future__ import annotations

from inspector.core.errors import TensorFlowUnavailable
from inspector.core.runtime.operations import NAMES, TensorFlowOperations, describe

# name -> what it returns (the operations and their signatures: runtime/operations.py)
OPERATIONS = {name: describe(name) for name in NAMES}
__all__ = ["OPERATIONS", "TensorFlowOperations", "installed", "tensorflow", "use"]

_current = None
def use(executor):
    """Install the process-wide TensorFlow executor; returns the previous one."""
    global _current
    previous, _current = _current, executor
    return previous


def installed():
    """The current executor, or None (never raises)."""
    return _current


def tensorflow():
    """The current executor (raises when none is installed: nothing imports TF silently)."""
    if _current is None:
        raise TensorFlowUnavailable("this needs TensorFlow, and no TensorFlow executor is set "
                                    "up in this process")
    return _current
