"""The benches' A/B harness (bench/ab.py) runs an earlier commit's `inspector` beside this
tree's, and the scale bench's settle figure is the longest gap after the first picture."""

from __future__ import annotations

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)


def test_a_child_run_against_an_earlier_commit_imports_that_commits_inspector():
    from bench import ab

    folder = ab.tree("HEAD~1")
    assert folder != ROOT and os.path.isfile(os.path.join(folder, "inspector", "__init__.py"))
    code = "import inspector, bench.ab; print(inspector.__file__); print(bench.ab.__file__)"
    out = subprocess.run([sys.executable, "-c", code], cwd=folder, env=ab.env(folder),
                         capture_output=True, text=True, check=True).stdout.split()
    assert out[0].startswith(folder)                   # the earlier commit's package
    assert out[1] == os.path.join(ROOT, "bench", "ab.py")   # the bench's own code is ours
    assert [label for label, _ in ab.sides("HEAD~1")] == ["now", "at HEAD~1"]


def test_the_settle_stall_is_the_longest_gap_within_ten_seconds_after_the_first_picture():
    from bench.scale_app import settled

    beats = [0.0, 0.5, 1.0, 1.01, 1.3, 5.0, 5.01, 11.0, 11.9, 12.0]
    # painted at 1.0: 1.01->1.3 (0.29), 1.3->5.0 (3.7), 5.01->11.0 (5.99, starts before 11.0)
    assert abs(settled(beats, 1.0) - 5.99) < 1e-9
    assert abs(settled(beats, 11.5) - 0.9) < 1e-9     # 11.0->11.9 ends after it
    assert settled([0.0, 0.01], 5.0) == 0.0


def test_the_parse_options_bench_reads_every_node_each_way():
    from bench.parse_options import measure
    from inspector.core.loaders import load
    from tests.fixtures.scale_models import blocks_graph

    path = blocks_graph(3000)
    rows = measure(path, None, 1)
    assert set(rows) == {"full", "skeleton", "wire", "today"}
    assert {r["nodes"] for r in rows.values()} == {len(load(path).graph)}


def test_the_sides_take_turns_in_flipped_order_every_round():
    from bench.scale import order

    assert order(2, 1) == [0, 1]
    assert order(2, 3) == [0, 1, 1, 0, 0, 1]
    assert order(1, 2) == [0, 0]


def test_a_child_runs_compiled_code_as_an_install_does(monkeypatch, tmp_path):
    """A shell's PYTHONDONTWRITEBYTECODE=1 is not the child's: its modules compile once and
    are read from .pyc files after, as an installed app's (a compile at import holds the
    GIL: it was counted as the window's stall)."""
    from bench import ab

    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    folder = tmp_path / "tree"
    (folder / "inspector").mkdir(parents=True)
    (folder / "inspector" / "__init__.py").write_text("X = 1\n")
    env = ab.env(str(folder))
    assert "PYTHONDONTWRITEBYTECODE" not in env
    cached = os.listdir(folder / "inspector" / "__pycache__")
    assert any(name.startswith("__init__.") and name.endswith(".pyc") for name in cached)


def test_cached_trees_unused_for_a_week_are_removed_and_used_ones_kept(tmp_path):
    import time

    from bench import ab

    for name, days in (("old", 8), ("recent", 2), ("now", 0)):
        (tmp_path / name / "inspector").mkdir(parents=True)
        when = time.time() - days * 86400
        os.utime(tmp_path / name, (when, when))
    assert ab.prune(str(tmp_path)) == ["old"]
    assert sorted(os.listdir(tmp_path)) == ["now", "recent"]


def test_the_compare_bench_times_diff_cold_unless_asked_for_warm(tmp_path, monkeypatch):
    """Its CLI runs start with no gzip size kept by an earlier diff (analysis.gzip_cache), so
    this tree (which keeps them) and an earlier commit (which does not) compress alike;
    --warm keeps them, and times each diff after an untimed run of it."""
    import shutil

    sys.path.insert(0, os.path.join(ROOT, "bench"))
    from bench import compare_bench
    from tests.fixtures.scale_models import blocks_graph

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    a, b = tmp_path / "a.pb", tmp_path / "b.pb"
    shutil.copy(blocks_graph(3000, 0), a)
    shutil.copy(blocks_graph(3000, 1), b)
    folder = compare_bench.gzip_cache_folder()
    assert folder == os.path.join(str(tmp_path), "graphdef-inspector", "gzip-sizes")
    for warm in (False, True):
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, "earlier.json"), "w") as fh:
            fh.write("{}")
        _, code, _, _ = compare_bench.cli_diff(ROOT, str(a), str(b), warm=warm)
        assert code == 1
        assert os.path.exists(os.path.join(folder, "earlier.json")) == warm
        assert len(os.listdir(folder)) == 2 + warm       # this diff's A and B, kept
    timed = []
    monkeypatch.setattr(compare_bench, "cli_diff", lambda *args, warm: timed.append(warm) or
                        (1.0, 1, 1.0, 1.0))
    monkeypatch.setattr(compare_bench, "python_speed", lambda: 0.5)
    monkeypatch.setattr(compare_bench, "blocks_graph", lambda nodes, seed: str(a))
    monkeypatch.setattr(compare_bench, "shuffled_copy", lambda path: str(b))
    for warm in (False, True):
        timed.clear()
        compare_bench.cli([3000], None, "A renamed+shuffled --no-flops", warm=warm)
        assert timed == ([True, True] if warm else [False])   # untimed first, then timed


def test_a_bench_moves_a_session_file_aside_and_puts_it_back_and_removes_its_own(tmp_path):
    from bench.start_floor import aside

    kept, bare = tmp_path / "a.pb", tmp_path / "b.pb"
    (tmp_path / "a.pb.inspector.json").write_text("user's")
    restore = aside([str(kept), str(bare)])
    assert [p.name for p in tmp_path.iterdir()] == [f"a.pb.inspector.json.bench-{os.getpid()}"]
    (tmp_path / "a.pb.inspector.json").write_text("the run's")   # the app saved
    (tmp_path / "b.pb.inspector.json").write_text("the run's")
    restore()
    restore()                                                     # and again at exit: nothing
    assert [(p.name, p.read_text()) for p in tmp_path.iterdir()] == \
        [("a.pb.inspector.json", "user's")]
