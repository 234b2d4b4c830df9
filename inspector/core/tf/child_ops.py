"""The command's TensorFlow operations, answered by the child that loaded its Keras file
(tf/keras_child): the child has imported TensorFlow already, so a command that goes on to
use TensorFlow (`flops`, `explain` of a Keras file: shape inference) asks it instead of
importing TensorFlow a second time in its own process (1.6 s of CPU on the slow class: flops
of tiny.keras took 1.7x as long). An operation whose arguments cannot cross a pipe (a
callback) runs here as before. Once its file is loaded the child's memory limit is lifted:
what follows is what the command's own process would have done. A child that dies in an
operation is one line naming it (TensorFlow aborting on a hostile graph would have ended the
command itself).

Frames on the pipes: 8-byte length, then a pickle (the child is this program's own code)."""

from __future__ import annotations

import functools
import os
import pickle
import struct
import threading

from inspector.core.errors import InspectorError
from inspector.core.runtime import front_end

HEADER = struct.Struct("<Q")
_functions: dict = {}      # operation name -> the function that runs it in this process
_server = None             # the child answering this command's operations, or None


def forwarding(name: str, function):
    """The executor's method for operation `name`: `function` here, or the Keras child's
    answer while one serves the command (tf/executor.InProcess makes each through this)."""
    _functions[name] = function
    if name == "freeze_keras":          # each Keras file gets a child of its own
        return function

    @functools.wraps(function)
    def operation(*args, **kwargs):
        server = _server
        if server is None or not front_end.KERAS_IN_CHILD or server.owner != os.getpid():
            return function(*args, **kwargs)    # (a forked copy, runtime/apart: its own TF)
        try:
            request = pickle.dumps((name, args, kwargs), protocol=5)
        except Exception:  # noqa: BLE001 - a callback, a lock: this process runs it
            return function(*args, **kwargs)
        return server.call(name, request)

    return operation


class Server:
    """This process's side of a child that answers operations: one request at a time."""

    def __init__(self, child, request_fd: int, answer_fd: int, log, last_line_of):
        self.child, self.request_fd, self.answer_fd, self.log = child, request_fd, answer_fd, log
        self.last_line_of = last_line_of        # log -> the last line the child printed
        self.owner = os.getpid()                # a fork of this process must not use its pipes
        self.lock = threading.Lock()

    def call(self, name: str, request: bytes):
        with self.lock:
            try:
                write_frame(self.request_fd, request)
                reply = read_frame(self.answer_fd)
            except OSError:
                reply = None
            if reply is None:
                last = self.last_line_of(self.log)
                status = stop()
                how = f"was ended by signal {-status}" if status is not None and status < 0 \
                    else f"exited with status {status}"
                raise InspectorError(f"TensorFlow (in the process that loaded the Keras file) "
                                     f"{how} while running {name}" + (f": {last}" if last else ""))
        kind, value = reply
        if kind == "error":
            raise value
        return value

    def end(self) -> int | None:
        for fd in (self.request_fd, self.answer_fd):
            try:
                os.close(fd)
            except OSError:
                pass
        try:
            self.log.close()
        except OSError:
            pass
        return self.child.end()


def serve(server: Server) -> None:
    """`server` answers this command's operations from now on (the previous one is ended)."""
    global _server
    stop()
    _server = server
    if stop not in front_end.AT_COMMAND_END:
        front_end.AT_COMMAND_END.append(stop)


def stop() -> int | None:
    """End the serving child (at the command's end, or before the next Keras file's)."""
    global _server
    server, _server = _server, None
    return server.end() if server is not None else None


def answer(request_fd: int, answer_fd: int) -> None:
    """The child: answer requests until the command closes the pipe, then leave."""
    global _server
    _server = None                      # (a fork: the parent's was copied)
    while True:
        request = read_frame(request_fd)
        if request is None:
            os._exit(0)
        name, args, kwargs = request
        try:
            reply = ("result", _functions[name](*args, **kwargs))
        except BaseException as exc:  # noqa: BLE001 - every failure is an answer
            reply = ("error", exc)
        try:
            data = pickle.dumps(reply, protocol=5)
        except Exception as exc:  # noqa: BLE001 - (TF's OpError holds an Operation)
            original = reply[1] if reply[0] == "error" else exc
            said = (str(original).splitlines() or [""])[0][:300]
            data = pickle.dumps(("error", InspectorError(f"{type(original).__name__}: {said}")))
        write_frame(answer_fd, data)


def write_frame(fd: int, data: bytes) -> None:
    view = memoryview(HEADER.pack(len(data)) + data)
    while view:
        view = view[os.write(fd, view):]


def read_frame(fd: int):
    """The next message on fd, or None when it is closed."""
    head = _exactly(fd, HEADER.size)
    if head is None:
        return None
    body = _exactly(fd, HEADER.unpack(head)[0])
    return None if body is None else pickle.loads(body)


def _exactly(fd: int, size: int) -> bytes | None:
    parts, left = [], size
    while left:
        part = os.read(fd, min(left, 1 << 20))
        if not part:
            return None
        parts.append(part)
        left -= len(part)
    return b"".join(parts)
