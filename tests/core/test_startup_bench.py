"""bench/startup_bench.py --against: this tree's source install and an earlier commit's, each
started cold once after its files were dropped from the page cache, then their warm starts
interleaved with the order flipping each round (as bench/scale.py does), each in its own
`inspector`. The starts are stubbed here: the figures are the bench's."""

from __future__ import annotations

from bench import startup_bench


def test_the_two_sides_start_cold_once_each_then_take_turns(monkeypatch, capsys):
    starts, evicted = [], []
    times = {"/now": 1.0, "/before": 2.0}

    def start_once(cmd, env):
        starts.append(env["PYTHONPATH"])
        return times[env["PYTHONPATH"]], 0.5 * times[env["PYTHONPATH"]]

    monkeypatch.setattr(startup_bench, "start_once", start_once)
    monkeypatch.setattr(startup_bench, "probe", lambda: 0.1)
    monkeypatch.setattr(startup_bench, "evict", lambda files: evicted.append(files))
    monkeypatch.setattr(startup_bench, "source_files", lambda folder: [folder + "/inspector"])
    rows = startup_bench.measure_sides([("now", "/now"), ("at REV", "/before")], {}, 2)
    assert starts == ["/now", "/before", "/now", "/before", "/before", "/now"]
    assert evicted == [["/now/inspector"], ["/before/inspector"]]
    assert [r["label"] for r in rows] == ["source install (now)", "source install (at REV)"]
    assert rows[0]["first"] == rows[0]["median"] == 1.0 and rows[1]["cpu"] == 1.0
    assert "ratio now / before: cold 0.50, median 0.50, best 0.50, CPU 0.50" in \
        capsys.readouterr().out
