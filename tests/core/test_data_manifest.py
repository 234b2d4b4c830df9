"""tests/core/data: every file is listed in MANIFEST.json with what it is, how it was made and
its licence (all made by this repository's code), its size and hash; the folder stays small and
the tests leave nothing behind in it."""

import hashlib
import json
import os

from conftest import DATA

LIMIT = 2 * 2 ** 20


def _files():
    for base, _dirs, names in os.walk(DATA):
        for name in names:
            rel = os.path.relpath(os.path.join(base, name), DATA).replace(os.sep, "/")
            if rel not in ("MANIFEST.json", "make.py") and "__pycache__" not in rel:
                yield rel


def test_every_file_is_in_the_manifest_as_it_was_made():
    with open(os.path.join(DATA, "MANIFEST.json")) as fh:
        manifest = json.load(fh)
    files = manifest["files"]
    assert set(_files()) == set(files)
    for rel, entry in files.items():
        with open(os.path.join(DATA, rel), "rb") as fh:
            content = fh.read()
        assert (len(content), hashlib.sha256(content).hexdigest()) == \
            (entry["bytes"], entry["sha256"]), rel
        assert entry["licence"] == "made by this repo's code" and entry["what"], rel
        assert entry["made_by"].startswith(("tests/fixtures/build.py", "make.py")), rel
    assert sum(e["bytes"] for e in files.values()) < LIMIT
