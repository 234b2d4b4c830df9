"""`diff A B` of two big GraphDefs forks A's and B's reader processes before A is opened (both
forked: A's was a started interpreter, B's reader thread running), each sending every piece
with its columns, and opens B on a thread while A opens; each open takes its own reader. The
report is the one of opening B after A (A's costs counted apart while B loads), and a broken A
stops B's reader and reports in one line (exit 2). Run in this process (the readers forked) with the
streaming threshold lowered to 10k-node models."""

from __future__ import annotations

import pytest

from inspector.cli import compare, main as cli
from inspector.core.loaders import reader_process
from tests.core.test_compare_scale import renamed_shuffled
from tests.fixtures import scale_models


@pytest.fixture()
def streamed(monkeypatch):
    """[(event, path)]: each reader started and each taken by an open, in order."""
    monkeypatch.setattr(reader_process, "STREAM_ABOVE", 1)
    monkeypatch.setattr(reader_process, "CHUNK_NODES", 3000)
    monkeypatch.setattr(reader_process, "_can_fork", lambda: True)
    events, start, take = [], reader_process.start, reader_process.take

    def started(path, st, window=False, drain=True, full=False):
        stream = start(path, st, window, drain, full)
        events.append(("start", path) + (("full",) if full else ()))
        return stream

    def taken(path, st):
        stream = take(path, st)
        events.append(("take", path, stream is not None))
        return stream

    monkeypatch.setattr(reader_process, "start", started)
    monkeypatch.setattr(reader_process, "take", taken)
    return events


def _pair(tmp_path) -> tuple:
    from inspector.core.loaders import load

    a = scale_models.blocks_graph(10_000)
    b = tmp_path / "b.pb"
    b.write_bytes(renamed_shuffled(load(a).graph)[0].graph_def.SerializeToString())
    return a, str(b)


def test_b_is_read_while_a_loads_and_the_report_is_the_same(monkeypatch, capsys, tmp_path,
                                                            streamed):
    a, b = _pair(tmp_path)
    real_costs = compare.start_a_costs
    monkeypatch.setattr(compare, "start_a_costs", lambda graph, path, key: streamed.append(
        ("a costs", path)) or real_costs(graph, path, key))
    reports = []
    for ahead in (True, False):
        if not ahead:
            monkeypatch.setattr(compare, "read_ahead", lambda a_path, b_path: (None, None))
            monkeypatch.setattr(compare, "start_a_costs", lambda graph, path, key: None)
        streamed.clear()
        assert cli.main(["diff", a, b]) == 1
        reports.append(capsys.readouterr().out)
        if ahead:     # both readers forked first, each open (A's here, B's on a thread)
            #           takes its own; both sides' costs counted in one copy while they
            #           match (no copy of A's alone)
            assert streamed == [("start", a, "full"), ("start", b, "full"),
                                ("take", a, True), ("take", b, True)] or \
                streamed == [("start", a, "full"), ("start", b, "full"),
                             ("take", b, True), ("take", a, True)]
        else:
            assert streamed == [("take", a, False), ("start", a), ("take", b, False),
                                ("start", b)]
    assert reports[0] == reports[1] and "renamed" in reports[0] and "FLOPs" in reports[0]


def test_a_broken_a_stops_b_s_reader_and_reports_in_one_line(monkeypatch, capsys, tmp_path,
                                                              streamed):
    _, b = _pair(tmp_path)
    streamed.clear()
    a = tmp_path / "a.pb"
    a.write_bytes(b"\x0a\xff\xff\xff\xff\x0f" + b"\0" * (5 << 20))    # a node running past
    killed, kill = [], reader_process.Stream.kill                       # the end of the file
    monkeypatch.setattr(reader_process.Stream, "kill",
                        lambda self: killed.append(self.path) or kill(self))
    assert cli.main(["diff", str(a), b]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "a.pb" in err
    assert ("start", b, "full") in streamed and b in killed


def test_both_readers_send_every_piece_with_its_columns_and_b_opens_on_a_thread(
        monkeypatch, capsys, tmp_path, streamed):
    """Each reader reads its pieces' columns (and a command's constants' facts) even once its
    open waits for it, so this process reads no piece's columns itself; B's open runs on a
    thread of its own beside A's."""
    import threading

    from inspector.core.loaders import reader_frames

    a, b = _pair(tmp_path)
    added, add = [], reader_frames.add

    def counted(graph, store, pieces, data, count, read, *rest, **kw):
        added.append((threading.current_thread().name, read is not None))
        return add(graph, store, pieces, data, count, read, *rest, **kw)

    monkeypatch.setattr(reader_frames, "add", counted)
    assert cli.main(["diff", a, b]) == 1
    threads = {name for name, _ in added}
    assert len(threads) == 2 and "diff-open-b" in threads
    assert len(added) >= 4 and all(read for _, read in added)
