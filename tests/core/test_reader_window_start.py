"""The reader the app's start forks for the model on its command line (start.prestart, before
Qt is imported and before front_end.WINDOW is set) reads no constants' facts: the window's
graph reads none while it opens and dropped the reader's. Reading them cost that reader
numpy's import and ~10 ms a piece at normal speed (its first piece 80 against 27 ms), on the
300k first picture's path."""

from __future__ import annotations

import marshal
import os

from inspector.core.app import start
from inspector.core.loaders import reader_process, readers
from inspector.core.loaders.readers import _receive
from inspector.core.runtime import front_end
from tests.fixtures.scale_models import blocks_graph


def _frames(path: str) -> list:
    """The P frames' payloads of the reader the app's start left for path."""
    stream = reader_process.take(path, os.stat(path))
    assert stream is not None
    stream._drain.join(60)      # all sent before we look: the window was busy all along
    return [marshal.loads(payload) for kind, payload in stream.frames() if kind == b"P"]


def test_the_apps_start_reader_reads_no_constants_facts_for_the_window(monkeypatch):
    path = blocks_graph(6000, 1)
    monkeypatch.setattr(front_end, "WINDOW", False)      # as when the app's start forks it
    monkeypatch.setattr(reader_process, "CHUNK_NODES", 1024)
    monkeypatch.setattr(reader_process, "_can_fork", lambda: True)
    start.prestart(path)
    frames = _frames(path)
    split = [f for f in frames if f[5] is not None]
    assert len(split) >= 5             # the reader read these pieces' columns
    assert all(f[6] is None for f in frames)  # and no constants' facts with them


def test_a_commands_reader_still_reads_them(monkeypatch):
    """(`diff A B`'s B, read while A opens: its graph takes them)."""
    path = blocks_graph(6000, 1)
    monkeypatch.setattr(front_end, "WINDOW", False)
    monkeypatch.setattr(reader_process, "CHUNK_NODES", 1024)
    monkeypatch.setattr(reader_process, "_can_fork", lambda: True)
    monkeypatch.setattr(reader_process, "STREAM_ABOVE", 0)     # (6 MB: read here else)
    readers.prestart(path, window=False)(True)       # (diffing.read_ahead)
    assert any(f[6] is not None for f in _frames(path))


def test_the_window_opens_the_same_graph_from_that_reader(monkeypatch):
    path = blocks_graph(6000, 1)
    monkeypatch.setattr(front_end, "WINDOW", False)
    monkeypatch.setattr(reader_process, "CHUNK_NODES", 1024)
    monkeypatch.setattr(reader_process, "_can_fork", lambda: True)
    start.prestart(path)
    monkeypatch.setattr(front_end, "WINDOW", True)       # tune_runtime, after Qt's import
    stream = reader_process.take(path, os.stat(path))
    graph = _receive(stream, path)
    here = _receive(reader_process.start(path, os.stat(path), window=True), path)
    assert graph is not None and here is not None and len(graph) > 5000
    assert graph.name_list == here.name_list
    assert [n.inputs for n in graph.nodes] == [n.inputs for n in here.nodes]
    assert graph.scope_ids()[0] == here.scope_ids()[0]
    assert list(graph.scope_ids()[1]) == list(here.scope_ids()[1])
    assert graph.weights.slots == here.weights.slots
