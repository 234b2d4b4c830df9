"""Make the small models committed in tests/core/data, and their MANIFEST.json.

The tests in tests/core read these files, so they need neither TensorFlow nor Qt. Every file
is made here by this repository's own code (tests/fixtures/build.py and the TFLite converter
over the bundled demo model, inspector/core/app/demo_model/demo_digits.pb); nothing
third-party. Making them needs TensorFlow:

    python -m tests.core.data.make      # rewrites the files and MANIFEST.json

Builds are seeded; a newer TensorFlow may still write other bytes (the manifest records the
version that made them).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
LICENCE = "made by this repo's code"
LIMIT = 2 * 2 ** 20          # the whole folder stays under 2 MB

# name in this folder -> (what it is, how it was made); the builders are build.py's own, run
# in build.py's order so that its seeded random numbers come out as in the fixture cache
FILES = {
    "v1_training.pb": ("TF1 training graph: conv, batch norm with moving averages in "
                       "variables, cond, loss, gradients, optimizer, summaries, a Saver",
                       "tests/fixtures/build.py:v1_training"),
    "v1_training.pbtxt": ("the same GraphDef in the text format",
                          "tests/fixtures/build.py:v1_training"),
    "text_really.pb": ("the same text GraphDef under a binary name (content is sniffed)",
                       "tests/fixtures/build.py:v1_training"),
    "v1_training.meta": ("its MetaGraphDef (VariableV2 variables, a saver)",
                         "tests/fixtures/build.py:v1_training"),
    "v1_training.ckpt.index": ("its checkpoint after three training steps: index",
                               "tests/fixtures/build.py:v1_training"),
    "v1_training.ckpt.data-00000-of-00001": ("its checkpoint: values",
                                             "tests/fixtures/build.py:v1_training"),
    "checkpoint": ("checkpoint state file, rewritten with a relative path",
                   "tests/fixtures/build.py:v1_training, then make.py"),
    "inception_jpeg.pb": ("small Inception-style network behind a DecodeJpeg preprocessing "
                          "chain; FusedBatchNorm v1/v3 not folded, CheckNumerics, Identity",
                          "tests/fixtures/build.py:inception_jpeg"),
    "while_v1.pb": ("while loop in TF1 control flow (Enter/Merge/Switch/NextIteration/Exit)",
                    "tests/fixtures/build.py:while_loops"),
    "while_v2.pb": ("the same while loop as a While op with function bodies",
                    "tests/fixtures/build.py:while_loops"),
    "two_signatures": ("TF2 SavedModel with two signatures (serving_default, embed) and "
                       "resource variables", "tests/fixtures/build.py:saved_model"),
    "tiny.keras": ("Keras 3 model: Conv2D, Flatten, Dense", "tests/fixtures/build.py:keras_files"),
    "tiny.h5": ("the same model as legacy HDF5", "tests/fixtures/build.py:keras_files"),
    "bad/empty.pb": ("empty file", "tests/fixtures/build.py:malformed"),
    "bad/truncated.pb": ("inception_jpeg.pb cut in half", "tests/fixtures/build.py:malformed"),
    "bad/random.pb": ("4096 random bytes", "tests/fixtures/build.py:malformed"),
    "bad/notes.pbtxt": ("plain-text notes with a .pbtxt name", "tests/fixtures/build.py:malformed"),
    "bad/bad_field.pbtxt": ("text GraphDef with an unknown field",
                            "tests/fixtures/build.py:malformed"),
    "bad/dangling.pb": ("GraphDef whose inputs name missing nodes",
                        "tests/fixtures/build.py:malformed"),
    "bad/duplicate.pb": ("GraphDef with two nodes of one name", "tests/fixtures/build.py:malformed"),
    "speech_commands.pb": ("speech-commands-style graph: WAV bytes -> DecodeWav -> "
                           "AudioSpectrogram -> Mfcc -> two convolutions -> 12 scores",
                           "tests/fixtures/build.py:speech_commands"),
    "speech_commands_labels.txt": ("its 12 labels, as the TF tutorial ships them",
                                   "tests/fixtures/build.py:speech_commands"),
    "digits_float.tflite": ("resources/demo_digits.pb converted to float TFLite",
                            "make.py: inspector.core.tf.lite.convert_tflite(variant='float')"),
    "digits_int8.tflite": ("resources/demo_digits.pb converted to full-int8 TFLite (8 seeded "
                           "random representative inputs)",
                           "make.py: inspector.core.tf.lite.convert_tflite(variant='int8')"),
}


def _tflite(out: str) -> None:
    import numpy as np

    from inspector.core.model.protos import GraphDef
    from inspector.core.tf import lite
    from inspector.core.tf.executor import install

    install()
    with open(os.path.join(ROOT, "inspector/core/app/demo_model/demo_digits.pb"), "rb") as fh:
        gd = GraphDef.FromString(fh.read())
    rng = np.random.default_rng(0)
    samples = [{"pixels": rng.uniform(0, 1, (1, 8, 8, 1)).astype(np.float32)}
               for _ in range(8)]
    for variant in ("float", "int8"):
        made = lite.convert_tflite(gd, ["pixels"], ["output"], variant,
                                   representative=samples if variant == "int8" else None)
        with open(os.path.join(out, f"digits_{variant}.tflite"), "wb") as fh:
            fh.write(made["model"])


def _files(folder: str):
    for base, dirs, names in os.walk(folder):
        dirs.sort()
        for name in sorted(names):
            path = os.path.join(base, name)
            yield os.path.relpath(path, folder).replace(os.sep, "/"), path


def manifest(folder: str, tf_version: str) -> dict:
    """file -> what it is, how it was made, licence, bytes, sha256."""
    entries = {}
    for rel, path in _files(folder):
        top = next((k for k in FILES if rel == k or rel.startswith(k + "/")), None)
        if top is None:
            continue
        what, how = FILES[top]
        with open(path, "rb") as fh:
            data = fh.read()
        entries[rel] = {"what": what, "made_by": how, "licence": LICENCE, "bytes": len(data),
                        "sha256": hashlib.sha256(data).hexdigest()}
    return {"made_with": {"tensorflow": tf_version, "script": "tests/core/data/make.py"},
            "files": entries}


def main() -> None:
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    sys.path.insert(0, ROOT)
    import tensorflow as tf

    from tests.fixtures import build

    with tempfile.TemporaryDirectory() as tmp:
        for step in (build.v1_training, build.inception_jpeg, build.while_loops,
                     build.saved_model, build.keras_files, build.malformed,
                     build.speech_commands):
            step(tmp)
        _tflite(tmp)
        with open(os.path.join(tmp, "checkpoint"), "w") as fh:
            fh.write('model_checkpoint_path: "v1_training.ckpt"\n'
                     'all_model_checkpoint_paths: "v1_training.ckpt"\n')
        for name in os.listdir(HERE):
            if name not in ("make.py", "__pycache__"):
                path = os.path.join(HERE, name)
                shutil.rmtree(path) if os.path.isdir(path) else os.remove(path)
        for rel, path in _files(tmp):
            if any(rel == k or rel.startswith(k + "/") for k in FILES):
                os.makedirs(os.path.dirname(os.path.join(HERE, rel)), exist_ok=True)
                shutil.copy(path, os.path.join(HERE, rel))
    doc = manifest(HERE, tf.__version__)
    total = sum(e["bytes"] for e in doc["files"].values())
    if total > LIMIT:
        raise SystemExit(f"tests/core/data would hold {total:,} bytes (limit {LIMIT:,})")
    with open(os.path.join(HERE, "MANIFEST.json"), "w") as fh:
        json.dump(doc, fh, indent=1, sort_keys=True)
        fh.write("\n")
    print(f"{len(doc['files'])} files, {total:,} bytes")


if __name__ == "__main__":
    main()
