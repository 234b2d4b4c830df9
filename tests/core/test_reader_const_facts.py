"""A command's graph whose pieces come with the reader process's columns (`diff A B`'s B, read
while A opens) gets its constants' facts read from their bytes by the reader, as when it reads
the pieces itself: they were marked to be read from their NodeDefs one by one later (the
diff's summary of the 100k-node renamed, shuffled B spent ~0.4 s there at normal speed)."""

from __future__ import annotations

import os

from inspector.core.loaders import reader_process, reader_sink
from inspector.core.loaders.readers import _receive
from inspector.core.runtime import front_end
from tests.fixtures.scale_models import blocks_graph


def _streamed(path: str):
    stream = reader_process.start(path, os.stat(path))
    stream._drain.join(60)          # not waited for while it read
    graph = _receive(stream, path)
    assert graph is not None
    return graph


def test_a_commands_graph_taken_from_the_readers_columns_has_its_constants_facts(monkeypatch):
    monkeypatch.setattr(front_end, "WINDOW", False)
    monkeypatch.setattr(reader_process, "CHUNK_NODES", 4096)
    monkeypatch.setattr(reader_process, "_can_fork", lambda: True)
    path = blocks_graph(6000, 1)
    graph = _streamed(path)         # every piece with the reader's columns
    parts = graph.const_parts()
    assert parts and all(not part.odd.all() for part in parts)   # read from the bytes
    monkeypatch.setattr(reader_sink.SendingSink, "_columns",      # plain pieces: read here
                        lambda self, pieces, count, *_: (None, None, None, None))
    here = _streamed(path)
    assert graph.const_facts() == here.const_facts() and len(here.const_facts()) > 1000
    assert graph.const_parts()[0].odd.sum() == here.const_parts()[0].odd.sum()
