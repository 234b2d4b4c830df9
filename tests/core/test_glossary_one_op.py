"""An op's registry facts are read from its own entry of op_facts.json.gz: the first layout of
every model asks them for its edges' dtypes (port_types), and decoding the whole table (1.5k
ops) cost ~7 ms of it here, ~25 ms on the slow class, before the first picture."""

from __future__ import annotations

import gzip
import json
import os

import pytest

from inspector.core.analysis import glossary, port_types


def _whole_table() -> dict:
    path = os.path.join(os.path.dirname(glossary.__file__), "op_facts.json.gz")
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        return json.load(fh)


def test_every_op_reads_the_facts_the_whole_table_holds():
    table = _whole_table()
    assert len(table["ops"]) > 1000
    for op, facts in table["ops"].items():
        assert glossary.op_facts(op) == facts, op
    assert glossary.facts_version() == table["tensorflow"]


@pytest.mark.parametrize("name", ["NoSuchOp", "ops", "tensorflow", "attrs", "outputs",
                                  "type_defaults", "T", "Tidx", "dtype", "", 'Con"v'])
def test_a_name_that_is_no_op_has_no_facts(name):
    # keys inside the table (the top level's, an entry's, a type default's) are no ops
    assert name not in _whole_table()["ops"]
    assert glossary.op_facts(name) is None


def test_an_op_is_looked_up_without_decoding_the_whole_table(monkeypatch):
    def whole(*args, **kwargs):
        raise AssertionError("the whole op_facts table decoded")

    monkeypatch.setattr(json, "load", whole)
    monkeypatch.setattr(json, "loads", whole)
    _forget()
    try:
        assert glossary.op_facts("Conv2D")["outputs"] == ["output: T"]
        assert port_types._spec("MatMul") is not None
        assert glossary.facts_version()
    finally:
        _forget()


def _forget() -> None:
    for cached in (glossary.op_facts, port_types._spec, getattr(glossary, "_facts", None)):
        if hasattr(cached, "cache_clear"):
            cached.cache_clear()
