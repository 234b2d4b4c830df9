"""TensorFlow in this process: the executor of the command line, the tests and the worker
process itself. Each operation of runtime/operations.py (TensorFlowOperations) is a function
of one of the modules beside this one."""

from __future__ import annotations

from inspector.core.runtime import executor
from inspector.core.tf import child_ops
from inspector.core.runtime.operations import NAMES as OPERATIONS
from inspector.core.runtime.operations import TensorFlowOperations


def _homes() -> tuple:
    """The TF layer's modules, each holding some operations' functions (imported here, on
    first use: ~0.1 s with numpy, which a command that never calls one does not pay)."""
    from inspector.core.model import text_parse
    from inspector.core.tf import (
        checkpoint_freeze,
        compare_run,
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

    return (runtime, freeze, checkpoint_freeze, graphs, run, registry, engine, lite, litert,
            text_parse, targets, compare_run)


class InProcess(TensorFlowOperations):
    """Calls TensorFlow here, in this process (imported on first use): each method of
    TensorFlowOperations is the function of that name in one of the TF layer's modules."""

    def __init__(self):
        self._functions = {}
        homes = _homes()
        for name in OPERATIONS:
            home = next((m for m in homes if hasattr(m, name)), None)
            if home is None:
                raise RuntimeError(f"no TensorFlow function for operation '{name}'")
            self._functions[name] = getattr(home, name)
            # shadows the protocol's method; the command's Keras child may answer it
            setattr(self, name, child_ops.forwarding(name, self._functions[name]))




class Deferred:
    """The in-process executor, made when the first operation is called: a command whose
    work never needs TensorFlow (a pure-Python transform) never imports the TF layer."""

    def __init__(self):
        self._real = None

    def __getattr__(self, name: str):
        if name not in OPERATIONS:      # e.g. a worker client's `isolated`: not ours
            raise AttributeError(name)
        if self._real is None:
            self._real = InProcess()
            if executor.installed() is self:
                executor.use(self._real)
        return getattr(self._real, name)


def install(deferred: bool = False) -> InProcess | Deferred:
    """Make this process run TensorFlow work itself (unless an executor is already set);
    `deferred`: the TF layer's modules are imported when the first operation is called."""
    try:
        return executor.tensorflow()
    except Exception:  # noqa: BLE001  (none installed yet)
        ex = Deferred() if deferred else InProcess()
        executor.use(ex)
        return ex
