"""The crash log: `$XDG_CACHE_HOME/graphdef-inspector/crash.log`. Uncaught exceptions (main
thread and other threads) are appended with the time, version and traceback; a hard crash
(SIGSEGV, abort in a native library) leaves its Python stacks there through faulthandler.
Nothing leaves the machine. The log is kept below MAX_BYTES (the older half is dropped)."""

from __future__ import annotations

import datetime
import faulthandler
import os
import sys
import threading
import traceback

MAX_BYTES = 1 << 20
_state = {"file": None, "path": None}


def log_path() -> str:
    from inspector.diagnostics import cache_dir

    return os.path.join(cache_dir(), "crash.log")


def _trim(path: str) -> None:
    try:
        if os.path.getsize(path) > MAX_BYTES:
            with open(path, "rb") as fh:
                fh.seek(-MAX_BYTES // 2, os.SEEK_END)
                tail = fh.read()
            with open(path, "wb") as fh:
                fh.write(b"[older entries dropped]\n" + tail)
    except OSError:
        pass


def write(kind: str, exc_type, exc, tb) -> str | None:
    """Append one entry; returns the log's path (None if it cannot be written)."""
    from inspector.diagnostics import VERSION, flavour

    path = _state["path"] or log_path()
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        stamp = datetime.datetime.now().isoformat(timespec="seconds")
        text = "".join(traceback.format_exception(exc_type, exc, tb))
        with open(path, "a", encoding="utf-8") as fh:
            fh.write(f"=== {stamp} {kind}: graphdef-inspector {VERSION} ({flavour()}), "
                     f"Python {sys.version.split()[0]}, pid {os.getpid()}\n{text}\n")
    except OSError:
        return None
    return path


def install(path: str | None = None) -> str:
    """Log uncaught exceptions and hard crashes of this process; returns the log's path."""
    path = path or log_path()
    _state["path"] = path
    previous_hook = sys.excepthook

    def hook(exc_type, exc, tb):
        written = write("uncaught exception", exc_type, exc, tb)
        if written:
            print(f"graphdef-inspector: unexpected error, details in {written}",
                  file=sys.stderr)
        previous_hook(exc_type, exc, tb)

    def thread_hook(args):
        if args.exc_type is SystemExit:
            return
        write(f"uncaught exception in thread {args.thread.name if args.thread else '?'}",
              args.exc_type, args.exc_value, args.exc_traceback)
        threading.__excepthook__(args)

    sys.excepthook = hook
    threading.excepthook = thread_hook
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        _trim(path)
        if _state["file"] is None:
            _state["file"] = open(path, "a", encoding="utf-8")  # noqa: SIM115  (kept open)
        faulthandler.enable(_state["file"], all_threads=True)
    except OSError:
        pass
    return path
