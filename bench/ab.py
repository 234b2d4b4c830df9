"""A/B in one run: the benches time the code of this tree and, with --against REV, the
`inspector` package of an earlier commit in the same run, interleaved (a shared machine's
speed changes from minute to minute; ratios measured side by side hold, absolute figures do
not). The bench's own code (bench/, tests/fixtures) is this tree's for both sides."""

from __future__ import annotations

import os
import subprocess
import tarfile
import io

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def tree(rev: str) -> str:
    """A folder holding the `inspector` package as it was at `rev` (git archive, cached by
    the commit's hash; no change to the repository's worktrees)."""
    sha = subprocess.run(["git", "rev-parse", rev], cwd=ROOT, capture_output=True, text=True,
                         check=True).stdout.strip()
    folder = os.path.join(ROOT, "bench", ".cache", "ab", sha[:12])
    if not os.path.isdir(os.path.join(folder, "inspector")):
        data = subprocess.run(["git", "archive", "--format=tar", sha, "inspector"], cwd=ROOT,
                              capture_output=True, check=True).stdout
        os.makedirs(folder, exist_ok=True)
        with tarfile.open(fileobj=io.BytesIO(data)) as tar:
            tar.extractall(folder)
    os.utime(folder)                    # used now: kept by prune()
    prune(os.path.dirname(folder))
    return folder


def prune(cache: str, keep_days: float = 7.0) -> list:
    """Remove the cached trees not used for `keep_days` (each is ~10 MB, one per commit ever
    compared against; they piled up to 100 MB in two days). A tree in use was touched by
    tree() at its run's start, so a running bench keeps its own. The removed folders."""
    import shutil
    import time

    gone = []
    for name in os.listdir(cache):
        folder = os.path.join(cache, name)
        try:
            idle = time.time() - os.stat(folder).st_mtime
        except OSError:
            continue
        if os.path.isdir(folder) and idle > keep_days * 86400:
            shutil.rmtree(folder, ignore_errors=True)
            gone.append(name)
    return gone


def sides(against: str | None, now: str | None = None) -> list:
    """[(label, folder whose `inspector` runs)]: this tree (or commit `now`: one change
    measured alone while others' work lands), then the earlier commit's."""
    out = [("now", ROOT) if not now else (f"at {now}", tree(now))]
    if against:
        out.append((f"at {against}", tree(against)))
    return out


def env(folder: str) -> dict:
    """The environment of a child run from `folder` (its cwd): `inspector` from there, the
    bench's modules from this tree, compiled as an install's are. (A shell with
    PYTHONDONTWRITEBYTECODE=1 made every run compile each module it imported: on the window's
    threads, the compile of a module imported after the first picture held the GIL up to
    ~30 ms at normal speed, counted as the app's stall.)"""
    compiled(folder)
    out = dict(os.environ, PYTHONPATH=os.pathsep.join(
        p for p in (folder, ROOT, os.environ.get("PYTHONPATH", "")) if p))
    out.pop("PYTHONDONTWRITEBYTECODE", None)
    return out


_compiled: set = set()


def compiled(folder: str) -> None:
    """folder's `inspector` and this tree's bench code compiled to .pyc files (once a run)."""
    import compileall

    for tree in (os.path.join(folder, "inspector"), os.path.join(ROOT, "bench"),
                 os.path.join(ROOT, "tests", "fixtures")):
        if tree not in _compiled:
            _compiled.add(tree)
            compileall.compile_dir(tree, quiet=2)
