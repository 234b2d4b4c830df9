"""The reader process: a big GraphDef's structure read in a second process and streamed back
gives exactly the graph and weight slots of reading it here, and any failure of the process
falls back to reading here (or reports the file's own error).

This file holds the tests that need neither TensorFlow nor Qt; the others are in
tests/tf/test_reader_process_tf.py."""

from __future__ import annotations

import os
import shutil
import threading

import pytest

from inspector.core.errors import Cancelled, ModelLoadError
from inspector.core.loaders import load, reader_process, readers
from inspector.core.loaders.lazy_graphdef import open_lazily
from inspector.core.loaders.readers import _receive
from inspector.core.model.graph import Graph
from inspector.core.runtime.job import Job
from tests.fixtures import scale_models


@pytest.fixture(scope="module")
def blocks():
    return scale_models.blocks_graph(10_000)     # 10 MB, 10k nodes, 1k lazy constants


def _here(path):
    graph_def, store = open_lazily(path, os.stat(path))
    return Graph(graph_def, weights=store)


def _streamed(path, monkeypatch, fork=True):
    monkeypatch.setattr(reader_process, "CHUNK_NODES", 1000)      # several frames
    monkeypatch.setattr(reader_process, "_can_fork", lambda: fork)
    stream = reader_process.start(path, os.stat(path))
    assert stream is not None
    graph = _receive(stream, path)
    assert graph is not None
    return graph


@pytest.mark.parametrize("fork", [True, False], ids=["fork", "spawned"])
def test_a_streamed_graph_equals_the_one_read_here(blocks, monkeypatch, fork):
    here, streamed = _here(blocks), _streamed(blocks, monkeypatch, fork)
    assert streamed.structure == here.structure
    assert [n.name for n in streamed] == [n.name for n in here]
    assert [n.inputs for n in streamed] == [n.inputs for n in here]
    assert streamed.weights.slots == here.weights.slots and len(here.weights.slots) > 900
    assert streamed.weights.scanned == here.weights.scanned
    name = next(n.name for n in here if here.weights.slot(n.index) is not None)
    assert (streamed.tensor_value(name) == here.tensor_value(name)).all()
    assert streamed.problems() == here.problems() == []
    assert streamed.consumer_names("input") == here.consumer_names("input")


def test_big_files_are_loaded_through_the_reader(monkeypatch, blocks):
    started = []
    real = reader_process.start
    monkeypatch.setattr(reader_process, "STREAM_ABOVE", 1)
    monkeypatch.setattr(reader_process, "start",
                        lambda *a: started.append(a) or real(*a))
    model = load(blocks)
    assert started and len(model.graph) == len(_here(blocks))


def test_a_truncated_file_gives_the_same_message_as_reading_here(blocks, tmp_path,
                                                                  monkeypatch):
    path = str(tmp_path / "cut.pb")
    with open(blocks, "rb") as src, open(path, "wb") as dst:
        dst.write(src.read()[: os.path.getsize(blocks) // 2])
    with pytest.raises(ModelLoadError) as here:
        open_lazily(path, os.stat(path))
    stream = reader_process.start(path, os.stat(path))
    with pytest.raises(ModelLoadError) as streamed:
        _receive(stream, path)
    assert str(streamed.value) == str(here.value) and "truncated" in str(here.value)


def test_a_killed_reader_falls_back_to_reading_here(blocks, monkeypatch):
    real = reader_process.start

    def killed(*args):
        stream = real(*args)
        stream.kill()
        return stream

    monkeypatch.setattr(reader_process, "STREAM_ABOVE", 1)
    monkeypatch.setattr(reader_process, "start", killed)
    model = load(blocks)
    assert model.graph.structure == _here(blocks).structure


@pytest.mark.parametrize("garble", ["a name short", "an input short", "other names"])
def test_a_garbled_split_falls_back_to_reading_here(blocks, monkeypatch, garble):
    """A piece's split bodies that do not fit its nodes (fewer names or inputs than the
    piece holds, or another file's names) are refused: the window reads the file itself."""
    from inspector.core.loaders import reader_sink
    from inspector.core.runtime import front_end

    real = reader_sink.SendingSink._columns

    def garbled(self, pieces, count, *rest):
        if self.idle is not None:   # the window waits from the start (on a loaded machine
            self.idle[0] = 1        # it asked after frame 3 once: full columns, no split)
        read, lengths, batch, consts = real(self, pieces, count, *rest)
        if batch is not None and self.frames == 3:
            names, ops, inputs, counts, devices = batch
            if garble == "a name short":
                names = names[1:]
            elif garble == "an input short":
                inputs = inputs[1:]
            else:
                names = [name + "x" for name in names]
            batch = names, ops, inputs, counts, devices
        return read, lengths, batch, consts

    monkeypatch.setattr(reader_sink.SendingSink, "_columns", garbled)
    monkeypatch.setattr(reader_sink, "taken", lambda idle: 0)      # always split there
    monkeypatch.setattr(front_end, "WINDOW", True)
    monkeypatch.setattr(reader_process, "CHUNK_NODES", 1000)
    monkeypatch.setattr(reader_process, "_can_fork", lambda: True)
    stream = reader_process.start(blocks, os.stat(blocks), window=True)
    assert _receive(stream, blocks) is None         # (the loader reads the file then)


def test_a_file_changed_after_the_reader_started_is_read_again(blocks, tmp_path):
    path = str(tmp_path / "m.pb")
    shutil.copy(blocks, path)
    stream = reader_process.start(path, os.stat(path))
    with open(path, "ab") as fh:
        fh.write(b"\0" * 8)
    assert _receive(stream, path) is None      # the loader reads the file itself then


def test_the_app_start_reader_is_taken_once_and_others_are_stopped(blocks, tmp_path):
    other = str(tmp_path / "other.pb")
    shutil.copy(blocks, other)
    readers.prestart(blocks)
    readers.prestart(other)
    stream = reader_process.take(blocks, os.stat(blocks))
    assert stream is not None and reader_process.take(blocks, os.stat(blocks)) is None
    assert _receive(stream, blocks) is not None
    readers.prestart(str(tmp_path / "missing.pb"))     # nothing to read: no reader
    assert reader_process._started == {}


def test_cancel_stops_the_reader(blocks):
    stream = reader_process.start(blocks, os.stat(blocks))
    cancel = threading.Event()
    cancel.set()
    graph = Graph(type(_here(blocks).structure)(), complete=False)
    with pytest.raises(Cancelled):
        reader_process.receive(stream, graph, Job(cancel))
    stream._drain.join(5)
    assert not stream._drain.is_alive()     # the process was killed and reaped


def test_the_reader_can_be_switched_off(monkeypatch, blocks):
    monkeypatch.setenv("INSPECTOR_READER_PROCESS", "0")
    assert reader_process.start(blocks, os.stat(blocks)) is None


def _columns(graph):
    return (graph._names, graph.op_names, list(graph._ops), list(graph._in_off),
            list(graph._src), list(graph._port), graph._loose, graph._big_ports,
            graph.malformed_inputs, graph.devices, graph.duplicate_names,
            graph.dangling_inputs, graph.problems(), graph._read, graph._loose_names)


def _compiled_or_not(monkeypatch, compiled: bool) -> None:
    """The reader with numba's compiled passes (forced: a test graph is small) or without."""
    from inspector.core.model import wire_columns

    if compiled and wire_columns.kernels() is None:
        pytest.skip("numba is not installed")
    monkeypatch.setenv("INSPECTOR_WIRE_KERNELS", "1" if compiled else "0")
    if not compiled:
        monkeypatch.setattr(wire_columns, "_state", [None])


@pytest.mark.parametrize("compiled", [True, False], ids=["numba", "no numba"])
@pytest.mark.parametrize("nameless", [False, True], ids=["named", "a nameless node"])
@pytest.mark.parametrize("window", ["busy", "waiting", "behind", "spawned reader"])
def test_the_window_takes_the_readers_columns_and_parses_no_node(tmp_path, monkeypatch,
                                                                 window, nameless, compiled):
    """While the window is busy (starting Qt) or BEHIND pieces behind, a forked reader sends
    each piece's bodies split (names, ops, the inputs naming a node of the piece resolved
    there, the other input texts: the window only resolves those; before, its first pieces
    went as Graph columns): the window parses none of those nodes a second time, and gets the
    columns parsing them here gives, hostile names and inputs included (forward references,
    duplicates, odd names, dangling, malformed and huge ports, devices). Once the window
    keeps up with the frames, or from a piece the reader cannot read from its wire bytes
    (a node without a name), the window reads that piece and the later ones itself; a
    spawned reader sends no columns. With numba (wire_columns) the reader, forked or
    spawned, sends every piece's columns, read by compiled passes, busy window or not.
    Same graph every way."""
    from inspector.core.loaders import reader_frames, reader_sink
    from inspector.core.model import columns, protos
    from inspector.core.runtime import front_end

    _compiled_or_not(monkeypatch, compiled)
    monkeypatch.setattr(front_end, "WINDOW", True)     # (its graph reads no constants)
    if window == "behind":          # the window waits for frames, yet is always behind
        monkeypatch.setattr(reader_sink, "taken", lambda idle: 0)
        monkeypatch.setattr(reader_sink, "FULL_FRAMES", 0)
    kinds = []
    real_add = reader_frames.add
    monkeypatch.setattr(reader_frames, "add", lambda *a: kinds.append(
        "places" if a[7] is not None else "columns" if a[5] is not None else
        "split" if a[8] is not None else "plain") or real_add(*a))

    gd = protos.GraphDef()
    for i in range(3000):
        node = gd.node.add(name=f"s{i % 7}/b{i % 5}/n{i}", op=("Const", "Add", "Relu")[i % 3])
        if i % 3:
            node.input.extend([f"s{(i + 40) % 7}/b{(i + 40) % 5}/n{i + 40}",   # forward
                               f"s{(i - 1) % 7}/b{(i - 1) % 5}/n{i - 1}:1", "^n0"])
        if i % 500 == 7:
            node.device = "/device:CPU:0"
    for name, op, inputs in [("x:odd", "Add", ["x:odd", "missing", "a:b:c", "^gone"]),
                             ("big", "Add", ["s0/b0/n0:99999999999"]),
                             ("s1/b1/n1", "Const", []), ("late", "Add", ["x:odd:0"])] + \
            [("", "Relu", []), ("after", "Add", ["late"])] * nameless:
        gd.node.add(name=name, op=op).input.extend(inputs)
    path = str(tmp_path / "hostile.pb")
    with open(path, "wb") as fh:
        fh.write(gd.SerializeToString())
    here = Graph(protos.GraphDef.FromString(gd.SerializeToString()))
    parsed = []
    real = columns.read_wire
    monkeypatch.setattr(columns, "read_wire", lambda *a: parsed.append(1) or real(*a))
    monkeypatch.setattr(reader_process, "CHUNK_NODES", 700)
    monkeypatch.setattr(reader_process, "_can_fork", lambda: window != "spawned reader")
    stream = reader_process.start(path, os.stat(path), window=True)
    if window == "busy":
        stream._drain.join(30)       # every frame has come before the window asks
    graph = _receive(stream, path)
    if window == "busy" or compiled:  # (the forked reader's own calls count there)
        assert bool(parsed) == nameless
    elif window == "spawned reader":
        assert parsed
    if compiled:
        assert set(kinds) <= {"places", "plain"} and (window == "spawned reader" or
                                                       kinds[0] == "places")
    elif window == "busy":
        assert kinds[:3] == ["split"] * 3
    elif window == "behind":    # (BEHIND frames sent before it can be that far behind: split
        behind = reader_sink.BEHIND     # if it had not waited yet, else plain)
        assert set(kinds[:behind]) <= {"plain", "split"} and kinds[behind] == "split"
        assert len(parsed) >= kinds[:behind].count("plain")
    if nameless:            # the piece the reader cannot read, and every later one
        assert kinds[-1] == "plain"
    elif window in ("busy", "behind") and not compiled:
        assert kinds.count("split") == len(kinds) - (0 if window == "busy" else
                                                     kinds[:reader_sink.BEHIND].count("plain"))
    assert graph.structure == here.structure
    assert _columns(graph) == _columns(here)
    assert here.duplicate_names and here.dangling_inputs and here.malformed_inputs
    assert here._big_ports and here.devices and ("" in here._odd) == nameless


def no_frame_waiting(monkeypatch) -> None:
    """The window finds no frame waiting each time it asks (so it does its idle work)."""
    import queue

    def empty():
        raise queue.Empty

    real = reader_process.start

    def waiting(*args):
        stream = real(*args)
        stream._frames.get_nowait = empty
        return stream

    monkeypatch.setattr(reader_process, "start", waiting)


@pytest.mark.parametrize("compiled", [True, False], ids=["numba", "no numba"])
def test_a_streamed_graph_groups_its_scopes_while_it_waits(blocks, monkeypatch, compiled):
    """While the window waits for the reader's next piece it groups the nodes it has by
    scope: the picture's hierarchy then finds the scope ids made, equal to one pass's.
    With numba the reader sends them with each piece (wire_columns) instead."""
    from inspector.core.model import scope_grouping

    _compiled_or_not(monkeypatch, compiled)
    no_frame_waiting(monkeypatch)
    graph = _streamed(blocks, monkeypatch)
    if compiled:
        assert graph._scoping.__class__ is scope_grouping.TakenScopes and graph._scoping.whole
    else:
        assert graph._scoping is not None and graph._scoping.done >= len(graph) - 1000
    expected = scope_grouping.scope_groups(graph.name_list)
    monkeypatch.setattr(scope_grouping, "scope_groups", None)     # not called again
    assert graph.scope_ids() == expected


class _PartialWrites:
    """The os module as the reader sees it when every write(2) to its pipe writes at most
    999 bytes (a signal, or a tracer such as py-spy stopping the process mid-write)."""

    def __getattr__(self, name):
        return getattr(os, name)

    @staticmethod
    def write(fd, data):
        return os.write(fd, bytes(data[:999]))

    @staticmethod
    def fdopen(fd, mode="r", *args, **kwargs):
        real = os.fdopen(fd, mode, *args, **kwargs)
        if "w" not in mode:
            return real

        class Partial:
            def write(self, data):
                return real.write(bytes(data[:999]))

            def __getattr__(self, name):
                return getattr(real, name)

        return Partial()


def test_a_frame_written_in_parts_is_read_whole(blocks, monkeypatch):
    """A write to the pipe that writes part of a frame is followed by the rest: the window
    reads every frame (before, the rest was lost, the window read a payload's bytes as the
    next frame's header, a huge length raised MemoryError in its reading thread, and the
    file was read again in the window)."""
    monkeypatch.setattr(reader_process, "os", _PartialWrites())
    monkeypatch.setattr(reader_process, "_can_fork", lambda: True)
    stream = reader_process.start(blocks, os.stat(blocks))
    graph = _receive(stream, blocks)
    assert graph is not None and graph.name_list == _here(blocks).name_list


def test_the_compiled_passes_are_used_where_they_pay(tmp_path, monkeypatch):
    """The reader estimates the node count from the file's first bytes: a graph of many
    small nodes is read by the compiled passes, one of a few big tensors or of few nodes
    the plain way (numba's import and cache load would cost more than they save); the
    switch forces either way."""
    from inspector.core.loaders import node_estimate
    from inspector.core.model import protos

    monkeypatch.delenv("INSPECTOR_WIRE_KERNELS", raising=False)
    many = protos.GraphDef()
    for i in range(20000):
        many.node.add(name=f"s{i % 9}/n{i}", op="Add", input=[f"s{i % 9}/n{i - 1}"])
    dense = protos.GraphDef()
    for i in range(3):
        node = dense.node.add(name=f"w{i}", op="Const")
        node.attr["value"].tensor.tensor_content = bytes(3 << 20)
    paths = {}
    for name, gd in (("many", many), ("dense", dense)):
        paths[name] = str(tmp_path / f"{name}.pb")
        with open(paths[name], "wb") as fh:
            fh.write(gd.SerializeToString())
    size = os.path.getsize
    assert abs(node_estimate.estimated_nodes(paths["many"], size(paths["many"])) - 20000) \
        < 1000
    assert node_estimate.estimated_nodes(paths["dense"], size(paths["dense"])) <= 3
    monkeypatch.setattr(node_estimate, "COMPILED_FROM", 10000)
    assert node_estimate.compiled_pays(paths["many"], size(paths["many"]))
    assert not node_estimate.compiled_pays(paths["dense"], size(paths["dense"]))
    monkeypatch.setattr(node_estimate, "COMPILED_FROM", 600_000)
    assert not node_estimate.compiled_pays(paths["many"], size(paths["many"]))
    monkeypatch.setenv("INSPECTOR_WIRE_KERNELS", "1")
    assert node_estimate.compiled_pays(paths["dense"], size(paths["dense"]))
    monkeypatch.setenv("INSPECTOR_WIRE_KERNELS", "0")
    assert not node_estimate.compiled_pays(paths["many"], size(paths["many"]))


def test_the_compiled_readers_name_table_is_sized_for_the_estimate(tmp_path, monkeypatch):
    """The compiled reader's tables are made for the estimated node count (and a margin)
    at once: before, they were sized for a node per 400 bytes and at most 512k, and grew
    (every name rehashed) twice on the way to 1M nodes."""
    from inspector.core.model import protos, wire_columns

    _compiled_or_not(monkeypatch, True)
    gd = protos.GraphDef()
    for i in range(20000):
        gd.node.add(name=f"n{i}", op="Add", input=[f"n{i - 1}"])
    path = str(tmp_path / "many.pb")
    with open(path, "wb") as fh:
        fh.write(gd.SerializeToString())
    asked, real = [], wire_columns.reader
    monkeypatch.setattr(wire_columns, "reader", lambda n=0: asked.append(n) or real(n))
    read_fd, write_fd = os.pipe()
    drain = threading.Thread(target=lambda: os.fdopen(read_fd, "rb").read())
    drain.start()
    reader_process.serve(path, write_fd)
    drain.join(30)
    assert 20000 <= asked[0] <= 25000 and os.path.getsize(path) // 400 < 2000


def test_a_streamed_graphs_name_index_is_made_for_its_nodes_at_once(blocks, monkeypatch):
    """The window's graph is told its node count from the first piece's share of the file
    (Graph.expect) and makes its name index at that size (runtime.presized): the same index,
    in the same order, as the graph read here."""
    from inspector.core.model import graph as graph_module

    told = []
    real = Graph.expect
    monkeypatch.setattr(graph_module, "PRESIZE_FROM", 1000)
    monkeypatch.setattr(Graph, "expect", lambda self, n: (told.append(n), real(self, n)))
    here, streamed = _here(blocks), _streamed(blocks, monkeypatch)
    assert len(told) == 1 and len(here) // 2 <= told[0] <= 2 * len(here)
    assert list(streamed._index.items()) == list(here._index.items())
    assert streamed.names() == here.names()


def test_a_presized_dict_holds_many_keys_without_growing():
    import sys

    from inspector.core.runtime import presized as presized_module
    from inspector.core.runtime.presized import presized

    made = presized(80_000)
    assert made == {} and type(made) is dict
    if presized_module._make is not None:      # (CPython exporting _PyDict_NewPresized)
        size = sys.getsizeof(made)
        made.update(zip(map(str, range(80_000)), range(80_000)))
        assert sys.getsizeof(made) == size
    assert presized(0) == {} and presized(-1) == {}
