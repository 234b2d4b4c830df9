"""Issue 47, a dense model (few nodes, most of the file in weights): the app started with it
draws its first picture from the nodes' headers, not their values. Until then neither the
window nor its reader process reads a weight's values (every read of the model file at most
64 KB, all of them together a few % of the file), and the window imports no numpy (0.3 s of a
slow machine's first picture: a graph of ~80 nodes is small). No timing here: the figures are
bench/scale.py's "dense 1.2 GB" (run it under bench/slow_class.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid

from conftest import ROOT

# the app started with the model as a user starts it, stopped at its first picture; every
# read of the model file (os.pread, os.read, open().read) by the window and by the reader it
# forks is written to READ_LOG as "pid offset length"
DENSE_FIRST_PICTURE = r"""
import builtins, json, os, sys
MODEL, LOG = os.path.realpath(sys.argv[1]), os.environ["READ_LOG"]
real_pread, real_read, real_open = os.pread, os.read, builtins.open
model_fds = set()

def note(offset, data):
    fd = os.open(LOG, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
    os.write(fd, f"{os.getpid()} {offset} {len(data)}\n".encode())
    os.close(fd)

def is_model(fd):
    try:
        return os.path.realpath(f"/proc/self/fd/{fd}") == MODEL
    except OSError:
        return False

def pread(fd, n, offset):
    data = real_pread(fd, n, offset)
    if is_model(fd):
        note(offset, data)
    return data

def read(fd, n):
    offset = os.lseek(fd, 0, os.SEEK_CUR) if is_model(fd) else None
    data = real_read(fd, n)
    if offset is not None:
        note(offset, data)
    return data

class Counted:
    def __init__(self, fh):
        self.fh = fh
    def read(self, *args):
        offset = self.fh.tell()
        data = self.fh.read(*args)
        note(offset, data)
        return data
    def __enter__(self):
        return self
    def __exit__(self, *exc):
        return self.fh.__exit__(*exc)
    def __iter__(self):
        return iter(self.fh)
    def __getattr__(self, name):
        return getattr(self.fh, name)

def open_(file, mode="r", *args, **kwargs):
    fh = real_open(file, mode, *args, **kwargs)
    if isinstance(file, (str, bytes, os.PathLike)) and "r" in mode and \
            os.path.realpath(file) == MODEL:
        return Counted(fh)
    return fh

os.pread, os.read, builtins.open = pread, read, open_
import inspector.gui.app as app

def report(window, qapp):
    def done():
        print(json.dumps({"pid": os.getpid(), "numpy": "numpy" in sys.modules,
                          "not needed": [m for m in ("google.protobuf.descriptor_pb2",
                                                     "subprocess", "concurrent.futures")
                                         if m in sys.modules],
                          "items": len(window.canvas.items_by_id),
                          "scenes": window.scenes_drawn,
                          "model": os.path.basename(window.state.model.path)}), flush=True)
        qapp.exit(0)
    app.on_first_picture(window, done)

app.exit_after_first_frame = report
sys.exit(app.main([sys.argv[1]]))
"""


def test_a_dense_models_first_picture_reads_no_weights_and_imports_no_numpy(tmp_path):
    from tests.fixtures import scale_models

    model = scale_models.dense_model(3, 512)       # 38 MB: streamed, its nodes kept in the file
    size = os.path.getsize(model)
    session = model + ".inspector.json"
    if os.path.exists(session):
        os.remove(session)
    log = tmp_path / "reads.txt"
    env = {k: v for k, v in os.environ.items() if k != "INSPECTOR_SINGLE_INSTANCE"}
    env.update(PYTHONPATH=ROOT, QT_QPA_PLATFORM="offscreen", INSPECTOR_EXIT_AFTER_FIRST_FRAME="1",
               INSPECTOR_INSTANCE_NAME=f"gi-dense-{uuid.uuid4().hex[:8]}",
               INSPECTOR_SETTINGS=str(tmp_path / "settings.ini"), READ_LOG=str(log))
    proc = subprocess.run([sys.executable, "-c", DENSE_FIRST_PICTURE, model], cwd=str(tmp_path),
                          env=env, capture_output=True, text=True, timeout=180)
    assert proc.returncode == 0, proc.stderr[-3000:]
    seen = json.loads(proc.stdout.strip().splitlines()[-1])
    assert seen["model"] == os.path.basename(model) and seen["scenes"] >= 1 and seen["items"] >= 3
    assert seen["numpy"] is False
    assert seen["not needed"] == []     # the columns' messages as bytes; no worker launch yet
    reads: dict = {}
    for line in log.read_text().splitlines():
        pid, _, length = map(int, line.split())
        reads.setdefault(pid, []).append(length)
    assert seen["pid"] in reads and len(reads) == 2, reads.keys()     # the window, its reader
    for pid, lengths in reads.items():
        assert max(lengths) <= 64 * 1024, (pid == seen["pid"], max(lengths))
        assert sum(lengths) < size // 20, (pid == seen["pid"], sum(lengths), size)
