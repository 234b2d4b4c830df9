"""The one job token (Qt-free): cancel, progress and partial results through long functions,
parts of a job, and the thread's current job that the executor reads."""

from __future__ import annotations

import threading

import pytest

from inspector.core.errors import Cancelled
from inspector.core.runtime.job import NO_JOB, Job, current, of, running


def test_check_progress_and_partial():
    seen, rows = [], []
    job = Job(on_progress=lambda *a: seen.append(a), on_partial=rows.append)
    job.check()
    job.progress(1, 4, "one")
    job.partial(["row"])
    assert seen == [(1, 4, "one")] and rows == [["row"]] and job.reports
    job.cancel()
    assert job.cancelled
    with pytest.raises(Cancelled):
        job.check()


def test_every_checks_once_per_block_of_iterations():
    event = threading.Event()
    job = Job(event)
    event.set()
    job.every(1, 15)                      # not a multiple of 16: no look
    with pytest.raises(Cancelled):
        job.every(32, 15)


def test_a_part_maps_its_progress_into_the_whole():
    seen = []
    job = Job(on_progress=lambda *a: seen.append(a))
    job.part("float graph {}", 0, 10).progress(2, 5, "on input 2/5")
    job.part("eight-bit graph {}", 5, 10).progress(1, 5, "on input 1/5")
    job.part("comparing: {}").progress(3, 7, "x")
    assert seen == [(2, 10, "float graph on input 2/5"), (6, 10, "eight-bit graph on input 1/5"),
                    (3, 7, "comparing: x")]
    assert not Job().part().reports       # nobody listens: nothing is relayed


def test_a_part_shares_the_cancel():
    job = Job()
    part = job.part("x {}")
    job.cancel()
    with pytest.raises(Cancelled):
        part.check()


def test_no_job_is_never_cancelled_and_is_the_default_current():
    assert current() is NO_JOB and of(None) is NO_JOB
    NO_JOB.check()
    NO_JOB.progress(1, 2)
    with pytest.raises(RuntimeError):
        NO_JOB.cancel()


def test_running_makes_a_job_current_on_this_thread_only():
    job = Job()
    other = []
    with running(job):
        assert current() is job and of(None) is job
        t = threading.Thread(target=lambda: other.append(current()))
        t.start()
        t.join()
    assert other == [NO_JOB] and current() is NO_JOB
