"""app.identical.same_bytes: the same file at once, else both files read a chunk at a time
until they differ, a big file mapped and compared in place by two forked children
(runtime.mapped_compare) or, where forking is not safe, as two halves on two threads (issue 47:
a diff of identical files at any size)."""

import os
import shutil

import pytest

from inspector.core.app import identical
from inspector.core.errors import InspectorError
from inspector.core.runtime import mapped_compare

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEMO = os.path.join(ROOT, "inspector/core/app/demo_model/demo_digits.pb")


@pytest.fixture
def small_chunks(monkeypatch):
    """Chunks of 64 bytes, halves from 1 KB: the demo model (~80 KB) compared in halves, on
    threads (the window's way: a process with threads does not fork)."""
    monkeypatch.setattr(mapped_compare, "usable", lambda: False)
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


@pytest.fixture
def mapped(monkeypatch):
    """Files from 1 KB mapped and compared by forked children (the CLI's way; forced on: the
    test process has Qt loaded, though none of its threads), with the answers of
    mapped_compare.same kept and no range read by os.pread."""
    monkeypatch.setattr(identical, "HALVES_FROM", 1024)
    monkeypatch.setattr(mapped_compare, "usable", lambda: True)
    answers, ranges = [], []
    real, real_range = mapped_compare.same, identical._same_range
    monkeypatch.setattr(mapped_compare, "same", lambda *a: answers.append(real(*a)) or
                        answers[-1])
    monkeypatch.setattr(identical, "_same_range", lambda *a: ranges.append(a[2:4]) or
                        real_range(*a))
    children, real_end = [], mapped_compare._end
    monkeypatch.setattr(mapped_compare, "_end", lambda pids: children.extend(pids) or
                        real_end(pids))
    yield answers
    assert ranges == []
    for pid in children:                           # every child reaped
        with pytest.raises(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)


def test_a_mapped_copy_is_equal_and_a_byte_changed_anywhere_is_seen(tmp_path, mapped):
    a, b = tmp_path / "a.pb", tmp_path / "b.pb"
    data = open(DEMO, "rb").read()
    size = len(data)
    a.write_bytes(data)
    b.write_bytes(data)
    assert identical.same_bytes(str(a), str(b)) == size
    assert mapped == [True]
    assert mapped_compare._ranges(size) == [(0, size // 2 // 4096 * 4096),
                                            (size // 2 // 4096 * 4096, size)]
    middle = mapped_compare._ranges(size)[1][0]
    for at in (0, 70, middle - 1, middle, middle + 4097, size - 1):   # each half, both edges
        changed = bytearray(data)
        changed[at] ^= 0xFF
        b.write_bytes(bytes(changed))
        assert identical.same_bytes(str(a), str(b)) is None, at
    assert mapped[1:] == [False] * 6
    b.write_bytes(data + b"\0")                   # a byte longer: no compare at all
    assert identical.same_bytes(str(a), str(b)) is None and len(mapped) == 7


def _during_compare(monkeypatch, change):
    """`change()` runs once both files are mapped, before the children compare them."""
    real = mapped_compare._in_children

    def changed_then_compared(*args):
        change()
        return real(*args)

    monkeypatch.setattr(mapped_compare, "_in_children", changed_then_compared)


def test_a_file_cut_short_while_mapped_is_a_one_line_error_naming_it(tmp_path, mapped,
                                                                      monkeypatch):
    a, b = tmp_path / "a.pb", tmp_path / "b.pb"
    shutil.copy(DEMO, a)
    shutil.copy(DEMO, b)
    for cut in (0, 100):    # every page past the end (SIGBUS), or the first page left
        shutil.copy(DEMO, b)
        _during_compare(monkeypatch, lambda: os.truncate(b, cut))
        with pytest.raises(InspectorError) as err:
            identical.same_bytes(str(a), str(b))
        text = err.value.one_line()
        assert str(b) in text and "changed while it was compared" in text
        assert len(text.splitlines()) == 1
    assert mapped in ([], [False])     # a child died reading past the end, or saw zeros


def test_a_file_rewritten_while_compared_is_an_error_not_an_answer(tmp_path, mapped,
                                                                   monkeypatch):
    a, b = tmp_path / "a.pb", tmp_path / "b.pb"
    shutil.copy(DEMO, a)
    shutil.copy(DEMO, b)
    _during_compare(monkeypatch, lambda: os.utime(a, ns=(1, 1)))   # same bytes, touched
    with pytest.raises(InspectorError) as err:
        identical.same_bytes(str(a), str(b))
    assert err.value.path == str(a) and mapped == [True]


USABLE = """
import os, sys, threading
from inspector.core.runtime import mapped_compare as mc
fd = os.open(sys.argv[1], os.O_RDONLY)
size = os.path.getsize(sys.argv[1])
seen = [mc.usable(), mc.same(fd, fd, size)]
stop = threading.Event()
other = threading.Thread(target=stop.wait)
other.start()                                  # a second thread: no fork
seen += [mc.usable(), mc.same(fd, fd, size)]
stop.set()
other.join()
seen.append(mc.usable())
os.environ["INSPECTOR_APART"] = "0"            # apart's switch: the one rule turns it off
seen.append(mc.usable())
del os.environ["INSPECTOR_APART"]
sys.modules["PySide6.QtCore"] = sys            # as in the window's process
seen += [mc.usable(), mc.same(fd, fd, size)]
print(seen)
"""


def test_forking_is_used_only_by_a_process_of_one_thread_without_qt_or_tf():
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, "-c", USABLE, DEMO], capture_output=True, text=True,
                          cwd=ROOT, timeout=60,
                          env=dict(os.environ, PYTHONPATH=ROOT, INSPECTOR_APART="1"))
    assert proc.stdout.split() == ["[True,", "True,", "False,", "None,", "True,", "False,",
                                   "False,", "None]"], proc.stderr


def test_the_report_of_the_same_bytes_is_the_documents(tmp_path):
    """identical_report writes without the diff's records what compare.document writes for
    identical_diff's Diff (text and JSON)."""
    from inspector.core.compare.document import dumps, text_report

    d = identical.identical_diff("a dir/a.pb", "b\u00e9.pb", 1_208_906_161)
    assert identical.identical_report("a dir/a.pb", "b\u00e9.pb", 1_208_906_161, False) == \
        text_report(d, 40)
    assert identical.identical_report("a dir/a.pb", "b\u00e9.pb", 1_208_906_161, True) == \
        dumps(d)
