"""analysis.gzip_cache on its own (the CLI's use: tests/cli/test_diff_gzip_cache_cli.py): an
entry is used where it cannot be marked as recently used (a folder that may be read but not
written), and a key of a long path reads back whole."""

from __future__ import annotations

import os

from inspector.core.analysis import gzip_cache


def test_an_entry_is_used_where_it_cannot_be_marked_recently_used(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    key = [str(tmp_path / "a.pb"), 10, 20, 30, "graphdef", 3]
    gzip_cache.store(key, 1234)
    assert gzip_cache.lookup(key) == 1234

    def refused(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(os, "utime", refused)
    assert gzip_cache.lookup(key) == 1234


def test_a_long_path_s_entry_reads_back(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    key = ["/" + "d" * 250 + "/" + "x" * 4000 + ".pb", 10, 20, 30, "graphdef", 3]
    gzip_cache.store(key, 99)
    assert gzip_cache.lookup(key) == 99
    assert gzip_cache.lookup(key[:-1] + [4]) is None        # another node count: not it


def test_a_fifo_in_place_of_an_entry_is_no_entry_and_does_not_hang(tmp_path, monkeypatch):
    """A named pipe where an entry's file would be (planted in the cache folder): opening it to
    read blocked until a writer came, so `diff` hung; it reads as no entry now."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    key = [str(tmp_path / "a.pb"), 10, 20, 30, "graphdef", 3]
    gzip_cache.store(key, 1234)
    path = gzip_cache._file(key)
    os.unlink(path)
    os.mkfifo(path)
    assert gzip_cache.lookup(key) is None


def test_an_entry_that_is_a_link_is_no_entry_and_its_target_is_left_alone(tmp_path,
                                                                          monkeypatch):
    """An entry replaced by a link to another file holding the same JSON was read through the
    link, and the look-up's utime touched the file the link points at (the hostile run's
    repro). A link is no entry now, and the target's times stay as they were."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    key = [str(tmp_path / "a.pb"), 10, 20, 30, "graphdef", 3]
    gzip_cache.store(key, 1234)
    path = gzip_cache._file(key)
    target = tmp_path / "elsewhere.json"
    with open(path, "rb") as fh:
        target.write_bytes(fh.read())
    os.utime(target, (1_000_000, 1_000_000))
    os.unlink(path)
    os.symlink(target, path)
    assert gzip_cache.lookup(key) is None
    assert os.stat(target).st_mtime == 1_000_000


def test_a_fifo_where_store_writes_its_temporary_file_does_not_hang(tmp_path, monkeypatch):
    """A named pipe (or a link) planted at the name store writes its temporary file under: the
    write blocked (the diff never ended) or went through the link. Only a new file is written
    now; else nothing is stored."""
    import threading

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    key = [str(tmp_path / "a.pb"), 10, 20, 30, "graphdef", 3]
    path = gzip_cache._file(key)
    os.makedirs(os.path.dirname(path))
    done = []

    def store():
        for name in (f"{path}.{os.getpid()}.tmp",
                     f"{path}.{os.getpid()}.{threading.get_ident()}.tmp"):
            os.mkfifo(name)
        gzip_cache.store(key, 1234)
        done.append(True)

    thread = threading.Thread(target=store, daemon=True)
    thread.start()
    thread.join(20)
    assert done == [True]            # (the old code never returned)
    assert gzip_cache.lookup(key) is None
    gzip_cache.store(key, 1234)     # the next store writes
    assert gzip_cache.lookup(key) == 1234
