"""Who runs TensorFlow work. Code above the TF layer never imports TensorFlow or the TF layer:
it asks `tensorflow()` for the current executor and calls one of its operations
(runtime/operations.py: TensorFlowOperations) on it. The command
line and the tests install an in-process executor (inspector.core.tf.executor); the app
installs one that sends the work to its TensorFlow worker process. Same code, either way."""

from __future__ import annotations

import importlib

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


IN_PROCESS = "inspector.core.tf.executor"   # the TF layer's executor, named, not imported here


def install_in_process(deferred: bool = True):
    """Make this process run its TensorFlow work itself, as the command line does (the app
    sends it to its worker instead): installs the TF layer's in-process executor, whose
    modules are imported when the first operation is called (`deferred`). The runtime is
    the floor below the TF layer, so it names that module instead of importing it."""
    return importlib.import_module(IN_PROCESS).install(deferred=deferred)
