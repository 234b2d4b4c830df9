"""The command line's Keras load, in a child process held to a memory and a time limit
(runtime/keras_limits: sized from the file and the machine). Keras builds a layer's variables
from the sizes its config declares before it reads the stored weights; the pure-Python check
(loaders/keras_shapes) cannot model every layer's output shape (channels-first convolutions,
Dot, custom layers), and a file passing it could have Keras allocate gigabytes. Here the child
fails instead and the command says so in one line: the file, the layer being built (Keras's
`add_weight` is watched: watch_layers) and the limit. The app needs no child: its Keras loads
run in its TensorFlow worker, which worker/client stops past the load's memory limit; the
worker tells the client each layer it builds (tell_layers_to), so its line names it too.

The child is a fork of this process when that is safe (TensorFlow not imported yet, one thread:
the usual command, which then never imports TensorFlow for a summary), else a new Python.
Its data segment (RLIMIT_DATA: TF's reserved but unused address space is not counted, as it
would be by RLIMIT_AS) may grow by the budget; past it an allocation fails in the child, which
reports it, or the child dies, and this process names the layer it last heard of.

    python -c "...child_main(argv)" MODEL BUDGET FD   (the new-Python child)
"""

from __future__ import annotations

import os
import pickle
import resource
import select
import signal
import subprocess
import sys
import tempfile
import threading
import time

from inspector.core.errors import InspectorError, ModelLoadError
from inspector.core.model import protos
from inspector.core.runtime import apart, front_end
from inspector.core.runtime import keras_limits as limits
from inspector.core.tf import child_ops
from inspector.core.tf.runtime import tf

HEADER = child_ops.HEADER
LAUNCH = ("import sys; from inspector.core.tf import executor, freeze, keras_child; "
          "executor.InProcess(); keras_child.child_main(sys.argv[1:], freeze.freeze_keras_here)")
PACKAGE_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))
MODE_ENV = "INSPECTOR_KERAS_CHILD"   # 0: load here, as before; spawn: always a new Python


def wanted() -> bool:
    """This process loads Keras files in a child (the command line), and it is not turned off."""
    return front_end.KERAS_IN_CHILD and os.environ.get(MODE_ENV, "1") != "0"


def freeze(path: str, load) -> tuple:
    """(GraphDef, inputs, outputs, how) of load(path, watch) (freeze.freeze_keras_here), run in
    a child held to the file's memory and time budgets; ModelLoadError (one line) when it
    fails."""
    child_ops.stop()                    # the previous Keras file's child: its work is done
    budget, seconds = limits.memory_budget(path), limits.seconds_budget(path)
    for stream in (sys.stdout, sys.stderr):   # nothing buffered here is written twice
        try:
            stream.flush()
        except (OSError, ValueError, AttributeError):
            pass
    log = tempfile.TemporaryFile()
    answer_fd, write_fd = os.pipe()
    request_fd, ask_fd = os.pipe()
    try:
        fork = apart.fork_safe() and os.environ.get(MODE_ENV) != "spawn"
        child = _fork(path, budget, (write_fd, request_fd), log, load) if fork else \
            _spawn(path, budget, (write_fd, request_fd), log)
    except BaseException:
        for fd in (answer_fd, ask_fd):
            os.close(fd)
        log.close()
        raise
    finally:
        os.close(write_fd)
        os.close(request_fd)
    server = child_ops.Server(child, ask_fd, answer_fd, log, _last_line)
    try:
        messages, timed_out = _read(answer_fd, seconds)
    except BaseException:
        server.end()
        raise
    answer = next((m for m in messages if m[0] in ("done", "error")), None)
    if answer is not None and answer[0] == "done" and not timed_out:
        child_ops.serve(server)         # it answers the command's TensorFlow operations
        return protos.GraphDef.FromString(answer[1]), answer[2], answer[3], answer[4]
    last = _last_line(log)
    status = server.end()
    return _outcome(path, budget, seconds, messages, timed_out, status, last)


# -- the child ------------------------------------------------------------------------------
def child_main(argv: list, load) -> None:
    """The new-Python child: MODEL BUDGET ANSWER_FD REQUEST_FD."""
    _leave_with(os.getppid())
    _serve(argv[0], int(argv[1]), (int(argv[2]), int(argv[3])), load)


def _leave_with(parent: int) -> None:
    """End this child when the command that made it is gone (killed, or ended by `timeout`'s
    SIGTERM): in a group of its own, nothing else stops it, and its time limit is kept by the
    command. Checked every half second on a thread; the whole group goes (legacy Keras's
    process too)."""
    def watch():
        while os.getppid() == parent:
            time.sleep(0.5)
        try:
            os.killpg(0, signal.SIGKILL)
        finally:
            os._exit(1)
    threading.Thread(target=watch, daemon=True, name="keras-child-parent").start()


def _serve(path: str, budget: int, fds: tuple, load) -> None:
    """Load, send the answer (or the error) on fds[0]; loaded, answer the command's
    operations (child_ops.answer) until it closes fds[1]. Leaves without any cleanup."""
    fd, loading = fds[0], [True]
    try:
        before = _hold_to(budget)
        tf()        # (TensorFlowUnavailable when missing: sent back as the answer)
        graph_def, inputs, outputs, how = load(path, lambda keras: watch_layers(
            keras, lambda name: loading[0] and _send(fd, ("layer", name))))
        data = graph_def.SerializeToString()
        resource.setrlimit(resource.RLIMIT_DATA, before)  # loaded: as the command's own process
        loading[0] = False
        _send(fd, ("done", data, inputs, outputs, how))
    except InspectorError as exc:
        _send(fd, ("error", exc))
        os._exit(0)
    except BaseException as exc:  # noqa: BLE001 - said in one line by the parent
        _send(fd, ("error", ModelLoadError(f"Keras cannot load it: {type(exc).__name__}: "
                                           f"{_first_line(str(exc))}", path=path)))
        os._exit(0)
    try:
        child_ops.answer(fds[1], fd)
    finally:
        os._exit(0)


def _hold_to(budget: int) -> tuple:
    """Let this process's data segment grow by `budget` bytes from what it holds now; the
    limits it had."""
    before = resource.getrlimit(resource.RLIMIT_DATA)
    soft, hard = _data_bytes() + budget, before[1]
    if hard != resource.RLIM_INFINITY:
        soft = min(soft, hard)
    resource.setrlimit(resource.RLIMIT_DATA, (soft, hard))
    return before


def _data_bytes() -> int:
    try:
        with open("/proc/self/status") as fh:
            return next(int(ln.split()[1]) << 10 for ln in fh if ln.startswith("VmData:"))
    except (OSError, StopIteration, ValueError, IndexError):
        return 0


_TELL: dict = {"tell": None, "last": None}   # watch_layers' listener, the layer last told


def watch_layers(keras, tell) -> None:
    """Have `tell(name)` called with the name of each layer Keras makes variables for
    (Layer.add_weight, wrapped once a process; `tell` replaces the one given before)."""
    Layer = getattr(getattr(keras, "layers", None), "Layer", None)
    if not hasattr(Layer, "add_weight"):
        return
    _TELL.update(tell=tell, last=None)
    if getattr(Layer.add_weight, "watched", False):
        return
    original = Layer.add_weight

    def add_weight(self, *args, **kwargs):
        name = getattr(self, "name", None)
        if name != _TELL["last"]:
            _TELL["last"] = name
            _TELL["tell"](str(name))
        return original(self, *args, **kwargs)

    add_weight.watched = True
    Layer.add_weight = add_weight


_HERE: list = [None]     # tell_layers_to's listener of this process's own Keras loads


def tell_layers_to(tell) -> None:
    """Keras loads in this process (not in a child: the app's TensorFlow worker) call
    `tell(name)` with each layer they build (the worker sends it to the app, which names it
    when it stops a load past its memory limit)."""
    _HERE[0] = tell


def layer_watch():
    """freeze_keras_here's `watch` for a load in this process: tell_layers_to's listener
    (None: nobody listens)."""
    tell = _HERE[0]
    return None if tell is None else lambda keras: watch_layers(keras, tell)


def _send(fd: int, message) -> None:
    try:
        data = pickle.dumps(message, protocol=5)
        view = memoryview(HEADER.pack(len(data)) + data)
        while view:
            view = view[os.write(fd, view):]
    except Exception:  # noqa: BLE001 - (out of memory): the parent says how the child ended
        pass


# -- this process ---------------------------------------------------------------------------
class _Child:
    def __init__(self, pid: int, process: subprocess.Popen | None = None):
        self.pid, self.process = pid, process

    def end(self) -> int:
        """Its exit code (-N: ended by signal N), stopping it (and its children) if it runs."""
        try:
            os.killpg(self.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        if self.process is not None:
            return self.process.wait()
        _, status = os.waitpid(self.pid, 0)
        return os.waitstatus_to_exitcode(status)


def _fork(path: str, budget: int, fds: tuple, log, load) -> _Child:
    parent = os.getpid()
    pid = os.fork()
    if pid == 0:                   # the child: its own group (stopped whole), output to the log
        try:
            os.setpgid(0, 0)
            _leave_with(parent)
            os.dup2(log.fileno(), 1)
            os.dup2(log.fileno(), 2)
            _serve(path, budget, fds, load)
        finally:
            os._exit(1)
    try:
        os.setpgid(pid, pid)       # (also here: killpg must not miss it in the race)
    except OSError:
        pass
    return _Child(pid)


def _spawn(path: str, budget: int, fds: tuple, log) -> _Child:
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL=os.environ.get("TF_CPP_MIN_LOG_LEVEL", "2"),
               PYTHONPATH=os.pathsep.join([PACKAGE_ROOT] + [p for p in os.environ.get(
                   "PYTHONPATH", "").split(os.pathsep) if p]))
    safe_path = ["-P"] if sys.version_info >= (3, 11) else []   # nothing beside cwd imported
    process = subprocess.Popen(
        [sys.executable, *safe_path, "-c", LAUNCH, os.path.abspath(path), str(budget),
         *map(str, fds)], pass_fds=fds, stdin=subprocess.DEVNULL, stdout=log,
        stderr=log, env=env, start_new_session=True, cwd=tempfile.gettempdir())
    return _Child(process.pid, process)


def _read(fd: int, seconds: float) -> tuple:
    """The child's messages until its answer (or until it closes the pipe), and whether the
    time ran out first."""
    deadline = time.monotonic() + seconds
    buffer, messages = bytearray(), []
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return messages, True
        ready, _, _ = select.select([fd], [], [], min(left, 1.0))
        if not ready:
            continue
        chunk = os.read(fd, 1 << 20)
        if not chunk:
            return messages, False
        buffer += chunk
        while len(buffer) >= HEADER.size:
            size = HEADER.unpack_from(buffer)[0]
            if len(buffer) < HEADER.size + size:
                break
            messages.append(pickle.loads(bytes(buffer[HEADER.size:HEADER.size + size])))
            del buffer[:HEADER.size + size]
            if messages[-1][0] in ("done", "error"):
                return messages, False


def _outcome(path, budget, seconds, messages, timed_out, status, last_line):
    """Raise the one line that says why the load failed."""
    layers = [m[1] for m in messages if m[0] == "layer"]
    layer = layers[-1] if layers else None
    where = f" building layer '{layer}'" if layer else ""
    answer = next((m for m in messages if m[0] in ("done", "error")), None)
    if timed_out:
        raise ModelLoadError(f"Keras did not load it within {seconds:.3g} s{where} and was "
                             f"stopped ({limits.SECONDS_ENV} sets the limit)", path=path)
    said = answer[1].message if answer is not None else last_line
    if limits.says_memory(said) or (answer is None and status == -signal.SIGKILL):
        raise ModelLoadError(limits.too_much(budget, layer, _allocation(said) or "killed"),
                             path=path)
    if answer is not None:
        raise answer[1]
    how = f"was ended by {_signal_name(-status)}" if status < 0 else f"exited with status {status}"
    raise ModelLoadError(f"Keras {how} while loading it{where}" +
                         (f": {_first_line(last_line)}" if last_line else ""), path=path)


def _allocation(said: str) -> str:
    """What failed to allocate, without who said so and where ('OOM when allocating tensor
    with shape[67108864,10] and type float on /job:localhost/...' up to ' on /job')."""
    line = _first_line(said).removeprefix("Keras cannot load it: ")
    return line.split(" on /job:", 1)[0].split(" by allocator ", 1)[0]


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def _first_line(text: str, limit: int = 200) -> str:
    line = next((ln.strip() for ln in str(text).splitlines() if ln.strip()), "")
    return line if len(line) <= limit else line[:limit - 1] + "…"


def _last_line(log) -> str:
    """The last line the child printed (a C++ abort's message, say)."""
    try:
        log.seek(max(0, log.seek(0, 2) - 4096))
        lines = [ln.strip() for ln in log.read().decode("utf-8", "replace").splitlines()
                 if ln.strip()]
    except (OSError, ValueError):
        return ""
    return lines[-1][:300] if lines else ""
