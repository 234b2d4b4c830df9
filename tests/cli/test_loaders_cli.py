"""Loaders: content sniffing, every fixture kind, freezing checked by running TensorFlow.

This file holds the tests that drive the command line; the others are in
tests/core/test_loaders.py, tests/tf/test_loaders_tf.py."""

import os

from conftest import run_cli


def test_unknown_signature_lists_the_available_ones(fx):
    code, _, err = run_cli("summarize", "--signature", "nope", os.path.join(fx, "two_signatures"))
    assert code == 2
    assert "no signature 'nope' (available: embed, serving_default)" in err


def test_unreadable_file_is_reported():
    code, _, err = run_cli("summarize", "/proc/self/mem")
    assert code == 2 and "cannot read" in err and len(err.strip().splitlines()) == 1
