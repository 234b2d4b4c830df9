"""Differential fuzz of core/model/const_columns.py: Const NodeDefs of the committed models
and of test_const_columns' encodings, mutated at the wire level (fields twice, dropped,
reordered, other wire types, packed/unpacked, overlong varints, unknown fields and groups,
extreme dtypes and dims, extra `value` entries: tests/fixtures/wire_fuzz.py), and kept when
protobuf parses them: the facts read from the bytes equal tensors.facts of protobuf's parse
of each (the per-constant path they replaced)."""

from __future__ import annotations

import pytest

from tests.core.test_const_columns import CASES, entry, f, tensor
from tests.fixtures import wire_fuzz


@pytest.fixture(scope="module")
def corpus():
    bodies = wire_fuzz.const_bodies(extra=list(CASES.values()))
    return bodies, wire_fuzz.donors_of(bodies)


def _const(name: str, attrs: bytes) -> bytes:
    return f(1, 2, name.encode()) + f(2, 2, b"Const") + entry(b"dtype", f(6, 0, 1)) + attrs


def test_an_entry_with_two_values_is_read_as_protobuf_merges_them():
    # one map entry "value" holding two AttrValues: protobuf merges them (dims 3 then 4)
    two = f(5, 2, f(1, 2, b"value") + f(2, 2, f(8, 2, tensor(dims=(3,))))
            + f(2, 2, f(8, 2, tensor(dims=(4,)))))
    assert wire_fuzz.differences([_const("merged", two)]) == []


@pytest.mark.parametrize("unknown", [f(3, 0, 1), f(9, 2, b"x"), f(1000, 5, b"\0" * 4),
                                     b"\x1b\x08\x01\x1c"], ids=["varint", "bytes", "fixed",
                                                                "group"])
def test_an_entry_holding_an_unknown_field_is_left_out_as_protobuf_does(unknown):
    # upb keeps such an entry out of the map (an unknown field of the NodeDef): no value
    body = _const("unknown", f(5, 2, unknown + f(1, 2, b"value")
                                   + f(2, 2, f(8, 2, tensor(dims=(3,))))))
    assert wire_fuzz.differences([body]) == []


@pytest.mark.parametrize("seed", range(4))
def test_mutated_constants_read_from_bytes_equal_protobufs_parse(seed, corpus):
    bodies, donors = corpus
    cases = wire_fuzz.cases(seed, 200, bodies, donors)
    assert wire_fuzz.differences(cases) == []
