"""A bounded, seeded fuzz run in the suite (bench/fuzz.py runs 100,000+ cases): mutated real
inputs never raise anything but the project's own error, and never take over 5 s."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.fixtures import fuzz

MODELS = fuzz.model_corpus()
TEXTS = fuzz.text_corpus()
FUZZ = settings(max_examples=600, deadline=None, derandomize=True, database=None,
                suppress_health_check=list(HealthCheck))


class Hang(Exception):
    pass


@pytest.fixture
def time_limit():
    def alarm(*_):
        raise Hang("a single case took over 5 s")

    old = signal.signal(signal.SIGALRM, alarm)
    yield lambda: signal.alarm(5)
    signal.alarm(0)
    signal.signal(signal.SIGALRM, old)


@FUZZ
@given(name=st.sampled_from(sorted(MODELS)), seed=st.integers(0, 2 ** 32),
       rounds=st.integers(1, 12))
def test_mutated_models_load_or_fail_cleanly(name, seed, rounds, tmp_path_factory, time_limit):
    data = fuzz.mutate(MODELS[name], random.Random(seed), rounds)
    folder = tmp_path_factory.mktemp("case")
    time_limit()
    fuzz.run_model_case(str(folder), name, data)
    signal.alarm(0)


@FUZZ
@given(seed=st.integers(0, 2 ** 32), rounds=st.integers(1, 20))
def test_structurally_hostile_graphs_load_or_fail_cleanly(seed, rounds, tmp_path_factory,
                                                          time_limit):
    data = fuzz.mutate_graph(MODELS["graph.pb"], random.Random(seed), rounds)
    folder = tmp_path_factory.mktemp("case")
    time_limit()
    fuzz.run_model_case(str(folder), "graph.pb", data)
    signal.alarm(0)


@FUZZ
@given(kind=st.sampled_from(sorted(TEXTS)), seed=st.integers(0, 2 ** 32),
       rounds=st.integers(1, 8))
def test_mutated_texts_parse_or_fail_cleanly(kind, seed, rounds, time_limit):
    text = fuzz.mutate_text(TEXTS[kind], random.Random(seed), rounds)
    time_limit()
    fuzz.run_text_case(kind, text)
    signal.alarm(0)


@settings(max_examples=300, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
@given(kind=st.sampled_from(sorted(TEXTS)), text=st.text(max_size=400))
def test_arbitrary_text_never_escapes_as_a_foreign_exception(kind, text, time_limit):
    time_limit()
    fuzz.run_text_case(kind, text)
    signal.alarm(0)


def test_the_bench_fuzzers_help_is_its_usage_not_a_traceback():
    """`python bench/fuzz.py --help` (and a word where a count goes) print the usage; they
    raised ValueError from int('--help')."""
    script = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__)))), "bench", "fuzz.py")
    for args, code in ((["--help"], 0), (["wire", "-h"], 0), (["wire", "many"], 2)):
        done = subprocess.run([sys.executable, script, *args], capture_output=True, text=True,
                              timeout=60)
        assert done.returncode == code, (args, done.stderr)
        assert "Traceback" not in done.stderr and "bench/fuzz.py wire" in done.stdout
