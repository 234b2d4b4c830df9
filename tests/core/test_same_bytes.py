"""app.identical.same_bytes: the same file at once, else both files read a chunk at a time
until they differ, a big file as two halves on two threads (issue 47: a diff of identical
files at any size)."""

import os
import shutil

import pytest

from inspector.core.app import identical

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEMO = os.path.join(ROOT, "inspector/core/app/demo_model/demo_digits.pb")


@pytest.fixture
def small_chunks(monkeypatch):
    """Chunks of 64 bytes, halves from 1 KB: the demo model (~80 KB) compared in halves."""
    monkeypatch.setattr(identical, "CHUNK", 64)
    monkeypatch.setattr(identical, "HALVES_FROM", 1024)
    ranges = []
    real = identical._same_range
    monkeypatch.setattr(identical, "_same_range",
                        lambda *a: ranges.append(a[2:4]) or real(*a))
    return ranges


def test_a_copy_is_compared_in_two_halves_and_any_byte_that_differs_is_seen(tmp_path,
                                                                           small_chunks):
    a, b = tmp_path / "a.pb", tmp_path / "b.pb"
    shutil.copy(DEMO, a)
    data = open(DEMO, "rb").read()
    size = len(data)
    b.write_bytes(data)
    assert identical.same_bytes(str(a), str(b)) == size
    middle = size // 2 // 64 * 64
    assert sorted(small_chunks) == [(0, middle), (middle, size)]
    for at in (70, middle - 1, middle, middle + 65, size - 1):   # each half, both edges
        changed = bytearray(data)
        changed[at] ^= 0xFF
        b.write_bytes(bytes(changed))
        assert identical.same_bytes(str(a), str(b)) is None, at


def test_the_same_file_answers_without_reading_it_again(tmp_path, small_chunks):
    a = tmp_path / "a.pb"
    shutil.copy(DEMO, a)
    link = tmp_path / "link.pb"
    os.link(a, link)                                   # one inode, two names
    assert identical.same_bytes(str(a), str(link)) == os.path.getsize(DEMO)
    assert identical.same_bytes(str(a), str(a)) == os.path.getsize(DEMO)
    assert small_chunks == []                          # no range compared


def test_a_small_file_is_compared_on_one_thread_and_garbage_is_not_a_model(tmp_path,
                                                                          monkeypatch):
    ranges = []
    real = identical._same_range
    monkeypatch.setattr(identical, "_same_range", lambda *a: ranges.append(a[2:4]) or real(*a))
    a, b = tmp_path / "a.pb", tmp_path / "b.pb"
    shutil.copy(DEMO, a)
    shutil.copy(DEMO, b)
    assert identical.same_bytes(str(a), str(b)) == os.path.getsize(DEMO)
    assert ranges == [(0, os.path.getsize(DEMO))]
    bad = tmp_path / "bad.pb"
    bad.write_bytes(b"\x0a\xff\xff\xff\xff garbage")
    shutil.copy(bad, tmp_path / "bad2.pb")
    assert identical.same_bytes(str(bad), str(tmp_path / "bad2.pb")) is None
