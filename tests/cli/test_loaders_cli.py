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


def test_a_keras_file_under_another_name_is_frozen_as_under_its_own(fx, tmp_path):
    """Known by its content (HDF5, a .keras zip) but named model.pb or model.bin, a Keras file
    was shown only as read-only layers: Keras 3 refused the name ('File format not
    supported'). It is frozen now, the same graph as under its own name."""
    import shutil

    for original, renamed in (("tiny.h5", "model.pb"), ("tiny.keras", "model.bin")):
        path = str(tmp_path / renamed)
        shutil.copy(os.path.join(fx, original), path)
        code, out, err = run_cli("summarize", path)
        assert code == 0, err
        code, own, err = run_cli("summarize", os.path.join(fx, original))
        assert code == 0, err
        first = out.splitlines()[0]
        assert first.startswith(f"Model: {path} (keras, frozen, ") and "Keras 3 cannot" not in err
        assert first.split("), ")[1] == own.splitlines()[0].split("), ")[1]   # nodes, functions
        assert out.splitlines()[1:] == [ln.replace(os.path.join(fx, original), path)
                                        for ln in own.splitlines()[1:]]
    assert not [p for p in os.listdir(tmp_path) if p not in ("model.pb", "model.bin")]
