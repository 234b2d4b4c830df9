"""The app's TensorFlow executor: every operation of runtime/operations.py runs in a
worker process (server.py), started on the first request and again after it dies.

- Cancel: the calling task's cancel flag (or a cancel Event passed to the operation) is
  watched while the worker runs. A cancelled call returns at once (Cancelled); the worker is
  told (run_many and profile_runs stop between runs) and gets DRAIN_SECONDS to finish, so a
  superseded short request costs no restart; past that it is killed, and the next request
  starts a new worker.
- A worker that dies (TF CHECK abort, segfault, killed) becomes one WorkerFailed error that
  names the operation, how the worker ended and the last line it printed.
- Memory: the worker's resident memory is watched (psutil); past the limit it is killed and
  the call fails with a message, so a graph that allocates without bound never takes the
  desktop down. RLIMIT_AS is not used: TensorFlow does not start under it.
"""

from __future__ import annotations

import functools
import itertools
import os
import select
import sys
import tempfile
import threading
import time

from inspector.core.errors import Cancelled, InspectorError
from inspector.core.runtime import executor, job as jobs
from inspector.core.runtime import keras_limits
from inspector.core.runtime.blas_threads import as_the_user_had_it
from inspector.core.runtime.lazy_import import later
from inspector.core.runtime.operations import NAMES, TensorFlowOperations
from inspector.worker import process as worker_process
from inspector.worker.process import ResidentMemory, default_memory_limit
from inspector.worker.protocol import (
    TEST_OPERATIONS,
    Callback,
    CancelFlag,
    GraphBytes,
    JobMark,
    ProtocolError,
    pack,
    receive,
    received_graphs,
    send,
)

subprocess = later("subprocess", globals(), "subprocess")   # not before the first picture

POLL_SECONDS = 0.02
# seconds a started worker has to say its first word (server.main says it before importing
# anything heavy): a program that runs and never answers (a script that sleeps, one that
# closes its output) held every request for ever (hostile17)
HELLO_SECONDS = 60.0
DRAIN_SECONDS = 1.5  # a cancelled request may finish this long (no restart), then is killed


class WorkerFailed(InspectorError):
    """The TensorFlow worker ended while running an operation (the app goes on)."""


def _describe(operation: str, args) -> str:
    """What a request does, in the words of a failure message."""
    if operation == "model":       # (ref, operation of the engine, ...)
        return "the pipeline preview" if args[1] == "run" else f"{args[1]} on the model"
    return operation


def _request(name: str):
    """The client's method for one operation: the protocol's signature, one request."""
    def method(self, *args, **kwargs):
        return self.call(name, *args, **kwargs)

    return functools.wraps(getattr(TensorFlowOperations, name))(method)


class WorkerClient(TensorFlowOperations):
    isolated = True  # slow pure-Python work (text parsing) is worth sending here too

    def __init__(self, python: str | None = None, memory_limit: int | None = None,
                 env: dict | None = None):
        self.python = python or os.environ.get("INSPECTOR_TF_PYTHON") or sys.executable
        self._memory_limit = memory_limit   # the default on first use (psutil: not at start)
        self.env = as_the_user_had_it(dict(os.environ if env is None else env))
        self.env["PYTHONPATH"] = worker_process.python_path(self.python, self.env)
        self.process = None
        self.starts = 0
        self._pending = None  # (id, deadline) of a cancelled request still in the worker
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self._log = None
        self._heard = False   # this worker process has sent something: it is our worker
        self._started = 0.0

    @property
    def memory_limit(self) -> int:
        if self._memory_limit is None:
            self._memory_limit = default_memory_limit()
        return self._memory_limit

    @memory_limit.setter
    def memory_limit(self, value: int) -> None:
        self._memory_limit = value

    # -- the executor interface ------------------------------------------------------------
    def busy(self) -> bool:
        """A request is running (or waiting to drain): a new one would queue behind it."""
        return self._lock.locked() or self._pending is not None

    def open_preview(self, ref):
        """A pipeline preview engine in the worker, for the model `ref` names."""
        from inspector.worker.remote_preview import RemotePreview

        return RemotePreview(self, ref)

    def __getattr__(self, name):
        if name in TEST_OPERATIONS:
            return lambda *args, **kwargs: self.call(name, *args, **kwargs)
        raise AttributeError(name)

    def call(self, name: str, *args, **kwargs):
        """Run one operation in the worker; waits, relays progress, honours cancel."""
        callbacks, cancels = [], []
        args = [self._mark(a, callbacks, cancels) for a in args]
        kwargs = {k: self._mark(v, callbacks, cancels) for k, v in kwargs.items()}
        running = jobs.current()
        if running is not jobs.NO_JOB:
            cancels.append(running.cancel_event)
        while not self._lock.acquire(timeout=POLL_SECONDS):  # one request at a time
            if any(c.is_set() for c in cancels):
                raise Cancelled()
        try:
            return self._run(name, args, kwargs, callbacks, cancels)
        finally:
            self._lock.release()

    @staticmethod
    def _mark(value, callbacks: list, cancels: list):
        if isinstance(value, jobs.Job):
            cancels.append(value.cancel_event)
            marks = []
            for relay, wanted in ((value.progress, value._on_progress),
                                  (value.partial, value._on_partial)):
                if wanted is None:
                    marks.append(None)
                else:
                    callbacks.append(relay)
                    marks.append(len(callbacks) - 1)
            return JobMark(*marks)
        if isinstance(value, threading.Event):
            cancels.append(value)
            return CancelFlag()
        if callable(value) and not isinstance(value, type):
            callbacks.append(value)
            return Callback(len(callbacks) - 1)
        return pack(value)

    # -- the process ---------------------------------------------------------------------------
    def _start(self) -> None:
        if self._log is not None:
            self._log.close()  # the previous worker's (read by _failed before we get here)
        self._log = tempfile.TemporaryFile()
        try:
            self.process, self._to, self._from = worker_process.spawn(self.python, self.env,
                                                                      self._log)
        except OSError as exc:
            raise WorkerFailed(f"cannot start the TensorFlow worker with {self.python}: "
                               f"{exc.strerror or exc}") from None
        self.starts += 1
        self._heard = False
        self._started = time.monotonic()

    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def pid(self) -> int | None:
        return self.process.pid if self.running() else None

    def stop(self) -> None:
        """End the worker (the next request starts a new one)."""
        process, self.process = self.process, None
        self._pending = None
        if process is not None:
            worker_process.kill(process, (self._to, self._from))

    close = stop

    def _run(self, operation, args, kwargs, callbacks, cancels):
        name = _describe(operation, args)   # for messages
        self._settle()
        if not self.running():
            self.stop()
            self._start()
        call_id = next(self._ids)
        rss = ResidentMemory(self.process.pid)
        rss.limit, rss.said = self._limit_for(operation, args, rss)
        try:
            send(self._to, ("call", call_id, operation, args, kwargs))
        except ProtocolError:
            raise self._failed(name) from None
        try:
            return self._wait(name, call_id, callbacks, cancels, rss)
        except (Cancelled, WorkerFailed):
            raise
        except InspectorError:
            raise  # the operation's own error: the worker is fine
        except BaseException:
            if self._pending is None:
                self.stop()  # out of step with the worker (a callback raised, say): end it
            raise

    def _wait(self, name, call_id, callbacks, cancels, rss):
        layer = None        # the layer a Keras load is building (the worker says)
        while True:
            # cancel and memory are checked on every turn: a chatty run (progress after
            # progress) must not starve them
            if any(c.is_set() for c in cancels):
                # the caller gets control back now; the worker is told, may finish within
                # DRAIN_SECONDS (then no restart), else the next request or a timer kills it
                try:
                    send(self._to, ("cancel", call_id))
                except ProtocolError:
                    pass
                self._pending = (call_id, time.monotonic() + DRAIN_SECONDS)
                timer = threading.Timer(DRAIN_SECONDS + 0.2, self._settle_when_idle)
                timer.daemon = True
                timer.start()
                raise Cancelled()
            if rss.sample() > rss.limit:
                self.stop()
                if rss.said:
                    raise rss.said(layer)
                raise WorkerFailed(
                    f"TensorFlow needed more than {self.memory_limit / (1 << 30):.1f} GB of "
                    f"memory while running {name} (the worker's limit) and was stopped; the "
                    "graph may declare huge tensors or need a smaller input shape")
            ready, _, _ = select.select([self._from], [], [], POLL_SECONDS)
            if not ready:
                if not self.running():
                    raise self._failed(name)
                if not self._heard and time.monotonic() - self._started > HELLO_SECONDS:
                    self.stop()
                    raise WorkerFailed(f"the TensorFlow worker did not start: {self.python} "
                                       f"said nothing within {HELLO_SECONDS:.0f} s (running "
                                       f"{name}); is it a Python with TensorFlow installed?")
                continue
            made = GraphBytes.made
            try:
                kind, got_id, *rest = receive(self._from)
            except ProtocolError:
                raise self._failed(name) from None
            self._heard = True
            if got_id != call_id:
                continue  # an answer to a request given up before: not ours
            if kind == "progress":
                callbacks[rest[0]](*rest[1])
                continue
            if kind == "layer":
                layer = rest[0]
                continue
            if kind == "error":
                raise rest[0]
            return received_graphs(rest[0], made)

    def _limit_for(self, operation: str, args, rss) -> tuple:
        """(memory limit, error past it: made of the layer Keras was building, None: the
        worker's own) of one request: a Keras load may grow the worker by its file's budget
        (runtime/keras_limits), at most to the worker's limit."""
        if operation != "freeze_keras" or not args or not isinstance(args[0], str):
            return self.memory_limit, None
        path = args[0]
        limit = keras_limits.worker_limit(path, rss.sample(), self.memory_limit)
        return limit, lambda layer: WorkerFailed(
            keras_limits.too_much(limit, layer, "the TensorFlow worker was ended") +
            "; your work is kept", path=path)

    def _settle(self) -> None:
        """Before a new request: let a cancelled one finish (its answer is dropped) or, past
        its deadline, end the worker. Called with the lock held."""
        if self._pending is None:
            return
        call_id, deadline = self._pending
        self._pending = None
        while self.running():
            left = deadline - time.monotonic()
            if left <= 0:
                self.stop()  # still computing what nobody wants: the next request restarts
                return
            ready, _, _ = select.select([self._from], [], [], min(left, POLL_SECONDS * 5))
            if not ready:
                continue
            try:
                kind, got_id, *_rest = receive(self._from)
            except ProtocolError:
                self.stop()
                return
            if got_id == call_id and kind in ("result", "error"):
                return  # it finished: the worker is free, TF stays warm

    def _settle_when_idle(self) -> None:
        """A cancelled request nobody followed: do not let it compute on and on."""
        if self._lock.acquire(blocking=False):
            try:
                self._settle()
            finally:
                self._lock.release()

    def _failed(self, name: str) -> WorkerFailed:
        process = self.process
        code = None
        if process is not None:
            try:
                code = process.wait(timeout=1.0)  # it died, or is dying: its exit status
            except subprocess.TimeoutExpired:
                self.stop()  # alive but out of step with us: end it
                code = process.returncode
        last = worker_process.last_line(self._log)
        self.stop()
        if code == 0 and not self._heard:
            # our worker never ends by itself with a request pending, nor before saying a
            # word: a program that is not a Python with the worker (/usr/bin/true, echo)
            return WorkerFailed(f"the TensorFlow worker did not start: {self.python} exited "
                                f"at once without answering (running {name}); is it a "
                                "Python with TensorFlow installed?")
        return WorkerFailed(f"the TensorFlow worker {worker_process.how_it_ended(code)} while "
                            f"running {name}" + (f": {last}" if last else "")
                            + "; your work is kept, and the next request starts a new worker")


def install(python: str | None = None, memory_gb: float | None = None) -> WorkerClient:
    """Make this process (the app) send TensorFlow work to a worker process."""
    if python:
        os.environ["INSPECTOR_TF_PYTHON"] = python  # the calibration run uses it too
    client = WorkerClient(python, int(memory_gb * (1 << 30)) if memory_gb else None)
    executor.use(client)
    return client


for _name in NAMES:
    setattr(WorkerClient, _name, _request(_name))
