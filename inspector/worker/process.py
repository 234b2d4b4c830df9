"""The TensorFlow worker as an operating-system process, for client.py: its start (the launch
line, the path it imports `inspector` from, the two pipes), its end (its process group
killed), how it ended (the signal or exit status, the last line it printed) and its
resident memory (psutil; the limit past which the client stops it)."""

from __future__ import annotations

import os
import sys
import tempfile
import time

from inspector.core.runtime.lazy_import import later

subprocess = later("subprocess", globals(), "subprocess")   # not before the first picture
signal = later("signal", globals(), "signal")

# the worker's entry, without the launch directory on sys.path (a numpy.py or a tensorflow/
# checkout there must not shadow the real ones)
LAUNCH = ("import sys; del sys.path[0]; from inspector.worker.server import main; "
          "sys.exit(main(sys.argv[1:]))")
PACKAGE_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def package_path(python: str) -> str:
    """What the worker's Python needs on its path to import `inspector`: nothing more (for a
    TF Python of its own, never this environment's site-packages with its numpy)."""
    if os.path.realpath(python) == os.path.realpath(sys.executable):
        return PACKAGE_ROOT
    folder = os.path.join(tempfile.gettempdir(), f"graphdef-inspector-path-{os.getuid()}")
    link = os.path.join(folder, "inspector")
    target = os.path.join(PACKAGE_ROOT, "inspector")
    try:
        os.makedirs(folder, exist_ok=True)
        if os.path.realpath(link) != os.path.realpath(target):
            if os.path.lexists(link):
                os.remove(link)
            os.symlink(target, link)
    except OSError:
        return PACKAGE_ROOT
    return folder


def python_path(python: str, env: dict) -> str:
    """The PYTHONPATH of a worker run by `python`: package_path before env's own."""
    return os.pathsep.join(p for p in (package_path(python), env.get("PYTHONPATH", "")) if p)


def spawn(python: str, env: dict, log) -> tuple:
    """(process, fd to it, fd from it): a worker in a session of its own (so that its
    group can be killed), printing to `log`. OSError where it cannot start."""
    to_worker_r, to_worker_w = os.pipe()
    from_worker_r, from_worker_w = os.pipe()
    try:
        process = subprocess.Popen(
            [python, "-c", LAUNCH, str(to_worker_r), str(from_worker_w)],
            pass_fds=(to_worker_r, from_worker_w), stdin=subprocess.DEVNULL,
            stdout=log, stderr=log, env=env, start_new_session=True)
    except OSError:
        for fd in (to_worker_r, to_worker_w, from_worker_r, from_worker_w):
            os.close(fd)
        raise
    os.close(to_worker_r)
    os.close(from_worker_w)
    return process, to_worker_w, from_worker_r


def kill(process, fds) -> None:
    """End the worker, TF's own threads and children too, and close its pipes."""
    if process.poll() is None:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        process.wait()
    for fd in fds:
        try:
            os.close(fd)
        except OSError:
            pass


def how_it_ended(code: int | None) -> str:
    """A worker's exit status in words ("was ended by SIGSEGV", "exited with status 1")."""
    if code is not None and code < 0:
        try:
            return f"was ended by {signal.Signals(-code).name}"
        except ValueError:
            return f"was ended by signal {-code}"
    if code is not None:
        return f"exited with status {code}"
    return "stopped"


def last_line(log) -> str:
    """The last meaningful line the worker printed to `log` (TF's CHECK message, say)."""
    if log is None:
        return ""
    try:
        log.seek(max(0, log.seek(0, 2) - 4096))
        lines = [line.strip() for line in log.read().decode("utf-8", "replace")
                 .splitlines() if line.strip()]
    except OSError:
        return ""
    lines = [line for line in lines if "Fatal Python error" not in line] or lines
    return lines[-1][:300] if lines else ""


def default_memory_limit() -> int:
    """Half of the machine's RAM (INSPECTOR_WORKER_MEMORY_GB overrides)."""
    if os.environ.get("INSPECTOR_WORKER_MEMORY_GB"):
        return int(float(os.environ["INSPECTOR_WORKER_MEMORY_GB"]) * (1 << 30))
    try:
        import psutil
    except ImportError:  # no guard without psutil (installed with the app's gui extra)
        return 1 << 62
    return psutil.virtual_memory().total // 2


class ResidentMemory:
    """The worker's resident memory, sampled at most every 0.1 s (0 without psutil); `limit`
    and `said` (the error past it, None: the worker's own) are the request's."""

    def __init__(self, pid: int):
        try:
            import psutil

            self.process = psutil.Process(pid)
        except Exception:  # noqa: BLE001 - no psutil, or the worker is already gone
            self.process = None
        self.last, self.value = 0.0, 0
        self.limit, self.said = 1 << 62, None

    def sample(self) -> int:
        now = time.monotonic()
        if self.process is not None and now - self.last > 0.1:
            self.last = now
            try:
                self.value = self.process.memory_info().rss
            except Exception:  # noqa: BLE001 - gone: the caller sees it is not running
                self.value = 0
        return self.value
