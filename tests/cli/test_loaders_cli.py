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
        frozen = [(f"{os.path.splitext(n)[0]}_frozen.pb") for n in (original, renamed)]
        assert out.splitlines()[1:] == [ln.replace(os.path.join(fx, original), path)
                                        .replace(*frozen) for ln in own.splitlines()[1:]]
    assert not [p for p in os.listdir(tmp_path) if p not in ("model.pb", "model.bin")]


def test_a_file_both_zip_and_hdf5_is_checked_as_both(tmp_path):
    """An HDF5 file with a Lambda layer in its model_config and a zip with a harmless
    config.json appended: the check for layers that run Python code read only the zip's
    config, while Keras reads the HDF5 one by an .h5 name (and freeze_keras's link for a
    file whose first bytes are HDF5's). Both configs are checked now: refused, one line."""
    import io
    import json
    import zipfile

    import h5py

    lam = {"class_name": "Lambda", "config": {"name": "evil", "function": ["4wEAAAAA", None,
                                                                           None]}}
    for name in ("model.h5", "model.pb"):
        path = tmp_path / name
        with h5py.File(path, "w") as h5:
            h5.attrs["model_config"] = json.dumps(
                {"class_name": "Sequential", "config": {"name": "s", "layers": [lam]}})
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w") as zf:
            zf.writestr("config.json", json.dumps(
                {"class_name": "Sequential", "config": {"name": "s", "layers": []}}))
        with open(path, "ab") as fh:
            fh.write(buf.getvalue())
        assert zipfile.is_zipfile(path)
        code, _, err = run_cli("summarize", str(path), "--no-freeze")
        assert code == 2 and "Lambda layer 'evil'" in err, err
        assert len(err.strip().splitlines()) == 1, err
