"""A reader process started by a process that has threads (spawned, not forked: `diff A B`
opens A while B's reader drains on a thread) says nothing on the terminal when the command
stops: it runs in its own session, so Ctrl+C reaches only the command, and once the command
is gone its write's EPIPE ends it quietly. Before, Ctrl+C during a big diff printed the
reader's KeyboardInterrupt traceback (or a BrokenPipeError one) after 'interrupted'."""

from __future__ import annotations

import os
import subprocess
import sys
import threading

from inspector.core.loaders import reader_process
from tests.fixtures.scale_models import blocks_graph


def test_a_reader_whose_reader_is_gone_ends_without_a_traceback():
    path = blocks_graph(3000, 0)
    read_fd, write_fd = os.pipe()
    os.close(read_fd)                   # the command has gone: the first write fails
    try:
        done = subprocess.run([sys.executable, "-m", "inspector.core.loaders.reader_process",
                               path, str(write_fd)], pass_fds=(write_fd,),
                              capture_output=True, text=True, timeout=60)
    finally:
        os.close(write_fd)
    assert done.returncode != 0 and done.stderr == "", done.stderr


def test_a_spawned_reader_is_out_of_reach_of_the_terminals_ctrl_c():
    path = blocks_graph(3000, 0)
    release = threading.Event()
    other = threading.Thread(target=release.wait)      # (a thread: no fork, a spawn)
    other.start()
    try:
        stream = reader_process.start(path, os.stat(path))
        assert stream is not None and not isinstance(stream._child, reader_process._Forked)
        try:
            assert os.getsid(stream._child.pid) != os.getsid(0)
        finally:
            stream.kill()
            stream._child.wait()
    finally:
        release.set()
        other.join()
