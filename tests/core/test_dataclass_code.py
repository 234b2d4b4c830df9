"""core.runtime.dataclass_code: dataclasses made with the methods an earlier run compiled are
the same classes as made by the dataclasses module alone (the app's start made 34, ~19 ms of
compiling before its first picture), and a file that does not load changes nothing."""

from __future__ import annotations

import json
import marshal
import os
import subprocess
import sys

from conftest import ROOT

from inspector.core.runtime import dataclass_code

# dataclasses of every kind the module writes methods for, and what they do
KINDS = r"""
import dataclasses, json, sys
from dataclasses import InitVar, dataclass, field
from typing import ClassVar

if sys.argv[1] != "plain":
    from inspector.core.runtime import dataclass_code
    assert dataclass_code.install(sys.argv[1], *sys.argv[2:])

@dataclass
class Plain:
    a: int
    b: str = "x"
    c: list = field(default_factory=list)
    k: ClassVar[int] = 3

@dataclass(frozen=True, order=True)
class Frozen:
    a: int
    b: tuple = (1, 2)

@dataclass(slots=True, kw_only=True)
class Slotted:
    a: int = 1
    b: float = 2.0

@dataclass(unsafe_hash=True, repr=False)
class Hashed:
    a: int
    scale: InitVar[int] = 2
    def __post_init__(self, scale):
        self.a *= scale

def seen():
    out = {}
    p = Plain(1)
    out["plain"] = [repr(p), p == Plain(1, "x", []), p == Plain(2), Plain.k,
                    [f.name for f in dataclasses.fields(p)], dataclasses.asdict(p),
                    repr(dataclasses.replace(p, b="y")), Plain(1).c is not Plain(1).c]
    f = Frozen(1)
    try:
        f.a = 2
        out["frozen set"] = "allowed"
    except dataclasses.FrozenInstanceError:
        out["frozen set"] = "refused"
    out["frozen"] = [repr(f), hash(f) == hash(Frozen(1)), Frozen(1) < Frozen(2),
                     sorted([Frozen(3), Frozen(1)]) == [Frozen(1), Frozen(3)]]
    s = Slotted(b=3.5)
    out["slotted"] = [repr(s), hasattr(s, "__dict__"), Slotted.__slots__]
    try:
        Slotted(1)
        out["kw only"] = "positional taken"
    except TypeError:
        out["kw only"] = "refused"
    h = Hashed(2, scale=5)
    out["hashed"] = [h.a, hash(h) == hash(Hashed(10, scale=1)), "Hashed(" not in repr(h)]
    return out

print(json.dumps(seen()))
if sys.argv[1] != "plain":
    print(json.dumps({"compiled": dataclass_code._compiled[0], "saved": dataclass_code.save()}))
"""


def _run(*args: str) -> list:
    env = dict(os.environ, PYTHONPATH=ROOT)
    proc = subprocess.run([sys.executable, "-c", KINDS, *args], env=env, capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return [json.loads(line) for line in proc.stdout.splitlines()]


def test_dataclasses_made_from_stored_code_are_the_classes_the_module_makes(tmp_path):
    plain, = _run("plain")
    first, made = _run(str(tmp_path))            # compiled, then written
    again, reused = _run(str(tmp_path))          # taken from the file
    assert first == plain and again == plain
    assert plain["frozen set"] == "refused" and plain["kw only"] == "refused"
    assert made["compiled"] > 10 and made["saved"] is True
    assert reused == {"compiled": 0, "saved": False}      # nothing compiled: nothing written
    with open(dataclass_code.cache_file(str(tmp_path)), "rb") as fh:
        assert len(marshal.loads(fh.read())) == made["compiled"]    # what the run used


def test_each_program_has_its_own_file_of_what_its_last_run_used(tmp_path):
    first, made = _run(str(tmp_path), "diff")
    assert made["compiled"] > 10
    assert os.listdir(tmp_path) == [os.path.basename(dataclass_code.cache_file(
        str(tmp_path), "diff"))]
    _, window = _run(str(tmp_path))              # the window's file: its own
    assert window["compiled"] == made["compiled"] and len(os.listdir(tmp_path)) == 2


def test_a_file_that_does_not_load_is_compiled_over(tmp_path):
    plain, = _run("plain")
    for junk in (b"", b"not marshal", b"\x00" * 64, b"\xe3garbage"):
        with open(dataclass_code.cache_file(str(tmp_path)), "wb") as fh:
            fh.write(junk)
        seen, made = _run(str(tmp_path))
        assert seen == plain and made["compiled"] > 10 and made["saved"] is True


def test_the_file_is_in_the_apps_cache_folder(monkeypatch, tmp_path):
    from inspector import diagnostics

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert os.path.dirname(dataclass_code.cache_file()) == diagnostics.cache_dir()
