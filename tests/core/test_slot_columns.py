"""A reader process sends the weight slots as columns and the window makes their Slot
objects only when first asked (weights.SlotColumns): the same slots, the same lazy bytes and
the same values as reading here, none made while opening; garbled columns fall back to
reading here."""

from __future__ import annotations

import marshal
import os

import pytest

from inspector.core.loaders import reader_process
from inspector.core.loaders.lazy_graphdef import open_lazily
from inspector.core.loaders.readers import _receive
from inspector.core.model import weights as weights_module
from inspector.core.model.graph import Graph
from inspector.core.model.weights import (
    TENSOR_CONTENT, Slot, SlotColumns, WeightStore, slot_columns)
from tests.fixtures import scale_models


@pytest.fixture(scope="module")
def blocks():
    return scale_models.blocks_graph(10_000)     # 10 MB, 10k nodes, 1k lazy constants


def _streamed(path, monkeypatch, fork=True):
    monkeypatch.setattr(reader_process, "CHUNK_NODES", 1000)
    monkeypatch.setattr(reader_process, "_can_fork", lambda: fork)
    stream = reader_process.start(path, os.stat(path), window=True)
    return _receive(stream, path)


@pytest.mark.parametrize("fork", [True, False], ids=["fork", "spawned"])
def test_streamed_slots_are_made_when_first_asked_and_equal_reading_here(blocks, monkeypatch,
                                                                          fork):
    made = []
    real = SlotColumns.slots
    monkeypatch.setattr(SlotColumns, "slots", lambda self: made.append(1) or real(self))
    graph_def, store = open_lazily(blocks, os.stat(blocks))
    here = Graph(graph_def, weights=store)
    streamed = _streamed(blocks, monkeypatch, fork)
    assert not made                         # opening made no Slot object
    assert streamed.weights.lazy_bytes == here.weights.lazy_bytes > 0
    assert streamed.weights.slots == here.weights.slots and len(here.weights.slots) > 900
    assert list(streamed.weights.slots) == list(here.weights.slots)      # the same order
    assert made == [1]
    name = next(n.name for n in here if here.weights.slot(n.index) is not None)
    assert (streamed.tensor_value(name) == here.tensor_value(name)).all()


def test_slot_list_keeps_the_last_slot_of_a_node_and_attribute_as_the_dict_did(tmp_path):
    path = tmp_path / "f"
    path.write_bytes(b"x" * 64)
    one, two, other = (Slot(3, "value", TENSOR_CONTENT, 0, 4, 0),
                       Slot(3, "value", TENSOR_CONTENT, 8, 2, 0),
                       Slot(5, "value", TENSOR_CONTENT, 16, 8, 0))
    store = WeightStore(str(path), os.open(path, os.O_RDONLY), (64, 0), [one, two, other])
    assert store.slot_list() == [two, other] == list(store.slots.values())
    unique = WeightStore(str(path), os.open(path, os.O_RDONLY), (64, 0), [one, other])
    assert unique.slot_list() == [one, other] and unique._slots is None    # no dict made
    sent = SlotColumns(marshal.loads(marshal.dumps(slot_columns(store.slot_list()))))
    assert sent.slots() == [two, other] and sent.total() == 10 and len(sent) == 2
    for store_ in (store, unique):
        store_.close()


@pytest.mark.parametrize("garble", ["short", "attr", "count"])
def test_garbled_slot_columns_are_refused(garble):
    good = list(slot_columns([Slot(1, "value", TENSOR_CONTENT, 0, 4, 0)]))
    if garble == "short":
        good[3] = b""
    elif garble == "attr":
        good[1] = [7]
    else:
        good = good[:5]
    with pytest.raises((ValueError, TypeError)):
        SlotColumns(good)


def test_a_garbled_done_frame_reads_the_file_here(blocks, monkeypatch):
    real = weights_module.slot_columns
    monkeypatch.setattr(reader_process, "slot_columns",
                        lambda slots: real(slots)[:4] + (b"\x01",) + real(slots)[5:])
    assert _streamed(blocks, monkeypatch) is None    # refused: _load_lazily reads it here
