"""TensorFlow in this process: the executor of the command line, the tests and the worker
process itself. Each operation of runtime/operations.py (TensorFlowOperations) is a function
of one of the modules beside this one."""

from __future__ import annotations

from inspector.core.model import text_parse
from inspector.core.runtime.operations import NAMES as OPERATIONS
from inspector.core.runtime.operations import TensorFlowOperations
from inspector.core.tf import (
    checkpoint_freeze,
    engine,
    freeze,
    graphs,
    lite,
    litert,
    registry,
    run,
    runtime,
    targets,
)

_HOMES = (runtime, freeze, checkpoint_freeze, graphs, run, registry, engine, lite, litert,
          text_parse, targets)


class InProcess(TensorFlowOperations):
    """Calls TensorFlow here, in this process (imported on first use): each method of
    TensorFlowOperations is the function of that name in one of the TF layer's modules."""

    def __init__(self):
        self._functions = {}
        for name in OPERATIONS:
            home = next((m for m in _HOMES if hasattr(m, name)), None)
            if home is None:
                raise RuntimeError(f"no TensorFlow function for operation '{name}'")
            self._functions[name] = getattr(home, name)
            setattr(self, name, self._functions[name])   # shadows the protocol's method




def install() -> InProcess:
    """Make this process run TensorFlow work itself (unless an executor is already set)."""
    from inspector.core.runtime import executor

    try:
        return executor.tensorflow()
    except Exception:  # noqa: BLE001  (none installed yet)
        ex = InProcess()
        executor.use(ex)
        return ex
