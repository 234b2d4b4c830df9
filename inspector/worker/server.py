"""The TensorFlow worker: `python -m inspector.worker IN_FD OUT_FD`. Runs each requested
operation with the in-process executor and answers on the pipe; TensorFlow is imported on
the first request that needs it. Anything written to stdout goes to stderr (the app keeps
the tail of it to explain a crash)."""

from __future__ import annotations

import gc
import os
import queue
import sys
import threading
import time

from inspector.core.runtime import gc_policy
from inspector.core.runtime.job import Job, running
from inspector.worker.protocol import (
    PREVIEW_OPERATIONS,
    TEST_OPERATIONS,
    Callback,
    CancelFlag,
    JobMark,
    ProtocolError,
    pack,
    receive,
    send,
    sliced,
    unpack,
)

WORKER_NICENESS = 5


def _test_operations() -> dict:
    """Operations that exist only for tests of the process boundary (INSPECTOR_WORKER_TEST=1):
    abort like a TF CHECK failure, crash TF itself, sleep like a long session.run, allocate
    like a huge Fill."""
    if os.environ.get("INSPECTOR_WORKER_TEST") != "1":
        return {}

    def allocate(megabytes: int, hold: float = 30.0):
        block = bytearray(megabytes << 20)
        for i in range(0, len(block), 4096):
            block[i] = 1  # touch every page: resident, not just reserved
        time.sleep(hold)
        return len(block)

    def import_unchecked(graph_bytes: bytes):
        """TF's own import, without our recursion check: a recursive function library
        overflows TF's stack (SIGSEGV in TF 2.21)."""
        from inspector.core.tf.runtime import tf as tensorflow_module

        tf = tensorflow_module()
        with tf.Graph().as_default():
            tf.graph_util.import_graph_def(tf.compat.v1.GraphDef.FromString(graph_bytes),
                                           name="")
        return True

    operations = {
        "_abort": os.abort, "_import_unchecked": import_unchecked, "_allocate": allocate,
        "_sleep": lambda seconds: time.sleep(seconds) or seconds, "_pid": os.getpid,
        "_modules": lambda: sorted(m for m in sys.modules
                                   if m.split(".")[0] in ("tensorflow", "keras"))}
    assert set(operations) == set(TEST_OPERATIONS)  # the client offers exactly these
    return operations


def _bind(value, out_fd: int, call_id: int, cancel):
    if isinstance(value, JobMark):
        def relay(index):
            if index is None:
                return None
            return lambda *args: send(out_fd, sliced(("progress", call_id, index, args)))
        return Job(cancel, relay(value.progress), relay(value.partial))
    if isinstance(value, Callback):
        return lambda *args: send(out_fd, sliced(("progress", call_id, value.index, args)))
    if isinstance(value, CancelFlag):
        return cancel  # set when the app sends ("cancel", id): run_many, profile_runs stop
    return unpack(value)


def _read_calls(in_fd: int, calls: queue.Queue, current: dict, lock) -> None:
    """The one reader of the app's pipe: calls are queued, a cancel sets the running call's
    flag at once. When the pipe closes the app is gone (or done with us): exit now, even in
    the middle of a TensorFlow run, so no orphan keeps computing."""
    while True:
        try:
            message = receive(in_fd)
        except ProtocolError:
            os._exit(0)
        if message[0] == "cancel":
            with lock:
                if current.get("id") == message[1]:
                    current["cancel"].set()
        else:
            calls.put(message)


def _answer(out_fd: int, reply) -> None:
    try:
        send(out_fd, sliced(reply))
    except ProtocolError:
        os._exit(0)
    except Exception as exc:  # noqa: BLE001 - an answer that cannot be pickled (TF's OpError
        # holds an Operation): say what the original said, not why pickling failed
        from inspector.core.tf.runtime import first_line

        original = reply[2] if reply[0] == "error" else exc
        send(out_fd, ("error", reply[1], RuntimeError(
            f"{type(original).__name__}: {first_line(original)}")))


def _tell(out_fd: int, note) -> None:
    """A note of the running call to the app (the layer a Keras load builds: the app names
    it if it stops the load past its memory limit)."""
    try:
        send(out_fd, note)
    except ProtocolError:
        os._exit(0)


TIDY_AFTER = 0.5    # seconds: calls at least this long are followed by a full collection


def serve(in_fd: int, out_fd: int) -> int:
    from inspector.core.runtime.operations import NAMES
    from inspector.core.tf import executor as tf_executor, keras_child
    from inspector.worker.preview_host import PreviewHost

    executor = tf_executor.install()
    preview = PreviewHost().operations()
    assert set(preview) == set(PREVIEW_OPERATIONS)  # the ones the client asks for
    extra = {**_test_operations(), **preview}
    calls: queue.Queue = queue.Queue()
    current: dict = {}
    lock = threading.Lock()
    threading.Thread(target=_read_calls, args=(in_fd, calls, current, lock), daemon=True,
                     name="inspector-worker-reader").start()
    keras_child.tell_layers_to(lambda layer: _tell(out_fd, ("layer", current.get("id"), layer)))
    while True:
        _kind, call_id, name, args, kwargs = calls.get()
        cancel = threading.Event()
        with lock:
            current.update(id=call_id, cancel=cancel)
        args = [_bind(a, out_fd, call_id, cancel) for a in args]
        kwargs = {k: _bind(v, out_fd, call_id, cancel) for k, v in kwargs.items()}
        began = time.monotonic()
        try:
            if name in extra:
                function = extra[name]
            elif name in NAMES:
                function = getattr(executor, name)
            else:
                raise ValueError(f"unknown worker operation '{name}'")
            with gc_policy.paused(freeze=False), running(Job(cancel)):  # see _tidy_after
                reply = ("result", call_id, pack(function(*args, **kwargs)))
        except BaseException as exc:  # noqa: BLE001 - every failure is an answer
            reply = ("error", call_id, exc)
        with lock:
            current.clear()
        _answer(out_fd, reply)
        del reply, args, kwargs
        if time.monotonic() - began >= TIDY_AFTER:
            _tidy_after()


def _tidy_after() -> None:
    """Calls run without garbage collection: with TensorFlow's objects and a big model in this
    process, collections during a call cost more than half of it (building the graph of a
    100k-node model for its FLOPs: 4.1 s with them, 1.8 s without). After a long call, one
    full collection, then what is alive (TensorFlow, the kept model) is left out of later
    ones until the next long call."""
    gc.unfreeze()
    gc.collect()
    gc.freeze()


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    in_fd, out_fd = int(argv[0]), int(argv[1])
    os.dup2(2, 1)  # stray prints (TF, Keras) must never reach a pipe or the terminal's stdout
    sys.stdout = sys.stderr
    try:   # background work: on a 2-core machine TensorFlow's threads must not starve the
        os.nice(WORKER_NICENESS)   # window's GUI thread (stalls of 100 ms+ while it ran)
    except (OSError, AttributeError):
        pass
    _tell(out_fd, ("hello", 0))    # first word: the app waits HELLO_SECONDS for one
    return serve(in_fd, out_fd)
