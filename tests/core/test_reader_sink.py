"""The reader process's frames when its compiled passes scan each frame in a second thread
(reader_sink: WireReader.scan there, finish here) while the walk goes on: the same frames,
in the same order, as one thread reading each frame when it is cut; a frame the kernels
refuse and every later one go plain exactly as before; a failure of the walk or of the
scanning thread comes after the frames cut before it and ends the stream."""

from __future__ import annotations

import marshal
import os
import struct
import threading
import types
from concurrent.futures import Future

import pytest

from inspector.core.errors import ModelLoadError
from inspector.core.loaders import reader_process, reader_sink
from inspector.core.loaders.lazy_graphdef import open_lazily
from inspector.core.loaders.readers import _receive
from inspector.core.model import protos, wire_columns
from inspector.core.model.graph import Graph
from tests.fixtures.walker_graphs import hostile_graph_def

pytestmark = pytest.mark.skipif(wire_columns.kernels() is None, reason="numba missing")
REFUSED_AT = 2120          # the one nameless node: the kernels refuse its frame


class _OneThread:
    """reader_sink's ThreadPoolExecutor without its thread: each frame scanned when it is
    cut (and, with AHEAD 0, finished and sent then)."""

    def __init__(self, *args):
        pass

    @staticmethod
    def submit(fn, *args):
        done = Future()
        done.set_result(fn(*args))
        return done

    def shutdown(self):
        pass


@pytest.fixture
def hostile(tmp_path, monkeypatch):
    """The hostile graph (forward references, duplicates, odd names, malformed inputs,
    constants) with one nameless node, in frames of 700 nodes, read by the kernels."""
    monkeypatch.setenv("INSPECTOR_WIRE_KERNELS", "1")
    monkeypatch.setattr(reader_process, "CHUNK_NODES", 700)
    gd = hostile_graph_def(3000)
    for i, node in enumerate(gd.node):
        if not node.name and i != REFUSED_AT:
            node.name = f"named{i}"
    assert gd.node[REFUSED_AT].name == ""
    path = str(tmp_path / "hostile.pb")
    with open(path, "wb") as fh:
        fh.write(gd.SerializeToString())
    return path


def _frames(path: str) -> list:
    """(kind, payload unmarshalled) of every frame reader_process.serve sends, in order."""
    read_fd, write_fd = os.pipe()
    frames: list = []

    def drain():
        with os.fdopen(read_fd, "rb") as pipe:
            while len(head := pipe.read(9)) == 9:
                kind, length = struct.unpack("<cQ", head)
                payload = pipe.read(length)
                frames.append((kind, payload if kind == b"X" else marshal.loads(payload)))

    reading = threading.Thread(target=drain)
    reading.start()
    reader_process.serve(path, write_fd, bytearray(1))
    reading.join(30)
    return frames


def test_frames_read_in_a_second_thread_equal_one_threads(hostile, monkeypatch):
    threaded = _frames(hostile)
    monkeypatch.setattr(reader_sink, "futures",   # (imported when a reader first scans)
                        types.SimpleNamespace(ThreadPoolExecutor=_OneThread))
    monkeypatch.setattr(reader_sink, "AHEAD", 0)
    assert _frames(hostile) == threaded
    kinds = [kind for kind, _ in threaded]
    assert kinds == [b"P"] * 5 + [b"D"]
    places = [payload[4] for _, payload in threaded[:-1]]   # compiled until the refusal
    assert [p is not None for p in places] == [True, True, True, False, False]
    assert REFUSED_AT // 700 == 3


def test_a_refused_frame_in_the_second_thread_falls_back_to_the_same_graph(hostile):
    here = Graph(protos.GraphDef.FromString(open(hostile, "rb").read()))
    stream = reader_process.start(hostile, os.stat(hostile))
    graph = _receive(stream, hostile)
    assert graph.structure == here.structure
    assert graph.name_list == here.name_list and graph.op_names == here.op_names
    assert bytes(graph._src) == bytes(here._src) and bytes(graph._port) == bytes(here._port)
    assert graph.scope_ids() == here.scope_ids()
    assert graph.malformed_inputs == here.malformed_inputs and graph.duplicate_names


def test_a_failure_of_the_walk_comes_after_the_frames_cut_before_it(hostile, tmp_path):
    path = str(tmp_path / "cut.pb")
    with open(hostile, "rb") as src, open(path, "wb") as dst:
        dst.write(src.read()[: os.path.getsize(hostile) * 3 // 4])
    with pytest.raises(ModelLoadError) as here:
        open_lazily(path, os.stat(path))
    frames = _frames(path)
    assert [kind for kind, _ in frames] == [b"P"] * (len(frames) - 1) + [b"E"]
    assert len(frames) > 2 and frames[-1][1][0] == here.value.message


def test_a_failure_in_the_second_thread_ends_the_stream_after_the_frames_before(
        hostile, monkeypatch):
    real, calls = wire_columns.WireReader.scan_split, []

    def scan(self, split):
        calls.append(threading.current_thread().name)
        if len(calls) == 3:
            raise RuntimeError("a bug in a frame's read")
        return real(self, split)

    monkeypatch.setattr(wire_columns.WireReader, "scan_split", scan)
    frames = _frames(hostile)
    assert [kind for kind, _ in frames] == [b"P", b"P", b"X"]
    assert b"a bug in a frame's read" in frames[-1][1]
    assert calls[0].startswith("reader-scan")               # (scanned in the second thread)
    calls.clear()                                      # (the forked reader's count)
    monkeypatch.setattr(reader_process, "_can_fork", lambda: True)
    stream = reader_process.start(hostile, os.stat(hostile))
    assert _receive(stream, hostile) is None           # (the window reads it itself then)
