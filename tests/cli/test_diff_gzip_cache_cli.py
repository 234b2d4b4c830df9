"""`diff A B` keeps each file's gzip size in the app's cache folder (analysis.gzip_cache), keyed
by the file as it was opened (path, size, modification time, inode, reader, node count): the
next diff of the same file reads it there instead of compressing again; a changed file, or a
damaged cache entry, is computed again (same report, no message); --no-flops keeps nothing.
The CLI as a user runs it, in a subprocess with its own cache folder."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
import gzip

import pytest

from conftest import ROOT
from tests.fixtures import scale_models


def _diff(cache, *args):
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", XDG_CACHE_HOME=str(cache))
    proc = subprocess.run([sys.executable, "-m", "inspector", "diff", *map(str, args)],
                          capture_output=True, text=True, cwd=ROOT, env=env, timeout=300)
    assert proc.returncode == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    return proc.stdout


def _entries(cache) -> dict:
    """{file name's path: entry} of the cache folder."""
    folder = cache / "graphdef-inspector" / "gzip-sizes"
    if not folder.is_dir():
        return {}
    return {path: json.loads(path.read_text()) for path in folder.iterdir()}


def _gzip_line(report: str) -> str:
    return next(line for line in report.splitlines() if line.strip().startswith("gzip bytes"))


@pytest.fixture()
def pair(tmp_path):
    """A and B: two 3k-node GraphDefs with the same structure and other weights (copies)."""
    a, b = tmp_path / "a.pb", tmp_path / "b.pb"
    shutil.copy(scale_models.blocks_graph(3000, 0), a)
    shutil.copy(scale_models.blocks_graph(3000, 1), b)
    return a, b


def _entry_of(cache, path) -> tuple:
    """(file, entry) of `path` as it is now (size, modification time)."""
    st = os.stat(path)
    found = [(p, e) for p, e in _entries(cache).items()
             if e["key"][:3] == [os.path.realpath(path), st.st_size, st.st_mtime_ns]]
    assert len(found) == 1, _entries(cache)
    return found[0]


def test_the_second_diff_takes_each_file_s_gzip_size_from_the_cache(tmp_path, pair):
    a, b = pair
    cache = tmp_path / "cache"
    first = _diff(cache, a, b)
    entries = _entries(cache)
    assert sorted(e["key"][0] for e in entries.values()) == sorted(
        os.path.realpath(p) for p in pair)
    # the figure kept is the one printed: gzip's deflate level 6 of the serialized GraphDef
    # (under 8 MB: exact), as Python's gzip module writes it (its 18-byte frame, no name)
    from inspector.core.loaders import load
    from inspector.core.model import protos

    data = protos.serialize_graph_def(load(str(a)).graph.graph_def)
    assert _entry_of(cache, a)[1]["gzip"] == len(gzip.compress(data, 6))
    assert f"{len(gzip.compress(data, 6)):,}" in _gzip_line(first)
    # A's entry says 12,345: the next diff prints what the cache says (nothing compressed)
    path, entry = _entry_of(cache, a)
    path.write_text(json.dumps(dict(entry, gzip=12345)))
    assert _gzip_line(_diff(cache, a, b)).split()[2] == "12,345"
    assert json.loads(_diff(cache, a, b, "--json"))["totals"]["gzip bytes"][0] == 12345


def test_a_changed_file_is_measured_again(tmp_path, pair):
    a, b = pair
    cache = tmp_path / "cache"
    first = _diff(cache, a, b)
    path, entry = _entry_of(cache, a)
    path.write_text(json.dumps(dict(entry, gzip=12345)))
    st = os.stat(a)
    os.utime(a, ns=(st.st_atime_ns, st.st_mtime_ns + 10 ** 9))    # same bytes, a new time
    assert _diff(cache, a, b) == first
    assert _entry_of(cache, a)[1]["gzip"] == entry["gzip"]     # kept under the new time
    assert len(_entries(cache)) == 3
    # other bytes under A's name (rewritten in place: the same inode and size): measured,
    # not the old figure (B's bytes: B's figure; against A's old bytes, kept in c.pb)
    shutil.copy(a, tmp_path / "c.pb")
    shutil.copy(b, a)
    assert _gzip_line(_diff(cache, a, tmp_path / "c.pb")).split()[2] == \
        _gzip_line(first).split()[4]


def test_other_bytes_under_the_same_size_time_and_inode_are_measured_again(tmp_path, pair):
    """B's bytes written over A in place (same inode, same size) and A's old time put back, as
    `cp -p`, `touch -r`, `rsync -t` or unpacking an archive of fixed times do: the change
    time (which no tool can set back) says the file changed; the old figure is not printed."""
    a, b = pair
    cache = tmp_path / "cache"
    shutil.copy(a, tmp_path / "c.pb")               # A's old bytes, to diff against
    first = _gzip_line(_diff(cache, a, b)).split()
    assert first[2] != first[4]                     # A's figure and B's differ
    st = os.stat(a)
    time.sleep(0.05)           # past the clock's tick: the rewrite gets a change time of its own
    shutil.copyfile(b, a)
    os.utime(a, ns=(st.st_atime_ns, st.st_mtime_ns))
    now = os.stat(a)
    assert (now.st_size, now.st_mtime_ns, now.st_ino) == (st.st_size, st.st_mtime_ns, st.st_ino)
    assert _gzip_line(_diff(cache, a, tmp_path / "c.pb")).split()[2] == first[4]


@pytest.mark.parametrize("damage", [b"", b"\0\xff garbage", b"{}", b"[1, 2]", b'{"key": 3}',
                                    "entry gzip as text", "entry gzip negative",
                                    "entry of another version"])
def test_a_damaged_cache_entry_is_ignored_and_replaced(tmp_path, pair, damage):
    a, b = pair
    cache = tmp_path / "cache"
    first = _diff(cache, a, b)
    path, entry = _entry_of(cache, a)
    if damage == "entry gzip as text":
        damage = json.dumps(dict(entry, gzip=str(entry["gzip"]))).encode()
    elif damage == "entry gzip negative":
        damage = json.dumps(dict(entry, gzip=-5)).encode()
    elif damage == "entry of another version":
        damage = json.dumps(dict(entry, how=[0] + entry["how"][1:], gzip=12345)).encode()
    path.write_bytes(damage)
    assert _diff(cache, a, b) == first
    assert json.loads(path.read_text()) == entry          # written again, whole


def test_a_cache_folder_that_cannot_be_written_changes_nothing(tmp_path, pair):
    a, b = pair
    cache = tmp_path / "cache"
    (cache / "graphdef-inspector").mkdir(parents=True)
    (cache / "graphdef-inspector" / "gzip-sizes").write_text("a file, not a folder")
    assert _diff(cache, a, b) == _diff(tmp_path / "other", a, b)


def test_no_flops_keeps_nothing(tmp_path, pair):
    cache = tmp_path / "cache"
    _diff(cache, *pair, "--no-flops")
    assert _entries(cache) == {}
