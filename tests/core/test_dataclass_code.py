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
import dataclasses, inspect, json, sys, typing
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
    # the methods' annotations, as inspect and typing read them
    out["signatures"] = [str(inspect.signature(c)) for c in (Plain, Frozen, Slotted, Hashed)]
    out["hints"] = repr(typing.get_type_hints(Plain.__init__))
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
        assert len(dataclass_code._entries(fh.read())) == made["compiled"]  # what the run used


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


def _stored(tmp_path) -> dict:
    _run(str(tmp_path))
    with open(dataclass_code.cache_file(str(tmp_path)), "rb") as fh:
        return dataclass_code._entries(fh.read())


def test_methods_keep_their_annotations_as_the_module_compiles_them(tmp_path):
    """The texts are compiled without this package's `from __future__ import annotations`:
    with it, Plain's signature read '(a: '_type_a', ...)' and get_type_hints raised."""
    plain, = _run("plain")
    first, _ = _run(str(tmp_path))
    again, made = _run(str(tmp_path))
    assert plain["signatures"][0] == "(a: int, b: str = 'x', c: list = <factory>) -> None"
    assert first["signatures"] == again["signatures"] == plain["signatures"]
    assert first["hints"] == again["hints"] == plain["hints"] and made["compiled"] == 0


def test_stale_foreign_or_damaged_files_are_not_used(tmp_path):
    """A file of the first format (a bare dict, written by c429774 with wrongly compiled
    code), of another bytecode version, or with a byte changed: compiled over."""
    import __future__
    import zlib

    plain, = _run("plain")
    texts = _stored(tmp_path)
    stale = {t: compile(t, "<string>", "exec", __future__.annotations.compiler_flag,
                        dont_inherit=True) for t in texts}
    payload = marshal.dumps(stale)
    good = marshal.dumps(texts)
    header = dataclass_code._HEADER
    crc = zlib.crc32(good).to_bytes(4, "little")
    damaged = bytearray(header + crc + good)
    damaged[len(damaged) // 2] ^= 0x01
    for data in (payload, b"\x00\x00\r\n" + header[4:] + crc + good, bytes(damaged)):
        with open(dataclass_code.cache_file(str(tmp_path)), "wb") as fh:
            fh.write(data)
        seen, made = _run(str(tmp_path))
        assert seen == plain and made["compiled"] > 10 and made["saved"] is True


def _raising_system_error() -> bytes:
    """Marshal data whose loading raises SystemError: a code object's counts changed (its
    posonlyargcount past its argcount, the bytes after the dict's one short key)."""
    base = marshal.dumps({"x": compile("def f(a):\n return a\n", "<s>", "exec")})
    for at in range(5, 24):
        data = base[:at] + b"\x84" + base[at + 1:]
        try:
            marshal.loads(data)
        except SystemError:
            return data
        except Exception:
            pass
    raise AssertionError("no damaged code object raises SystemError here")


def test_a_file_whose_loading_raises_system_error_is_compiled_over(tmp_path):
    """marshal raises SystemError (not only ValueError/EOFError/TypeError) on some damaged
    code objects: the start crashed with it."""
    import zlib

    plain, = _run("plain")
    bad = _raising_system_error()
    for framed in (False, True):     # the first format's bare data, then this one's frame
        data = dataclass_code._HEADER + zlib.crc32(bad).to_bytes(4, "little") + bad \
            if framed else bad
        with open(dataclass_code.cache_file(str(tmp_path)), "wb") as fh:
            fh.write(data)
        seen, made = _run(str(tmp_path))
        assert seen == plain and made["compiled"] > 10 and made["saved"] is True


def test_a_save_removes_what_a_killed_run_left_half_written(tmp_path):
    """A run killed between writing its temporary file and renaming it left a 0-byte
    `...marshal.PID.tmp` in the cache folder for good; the next save deletes such files once
    they are a minute old (a file another run is writing now stays)."""
    path = dataclass_code.cache_file(str(tmp_path))
    old, fresh = f"{path}.11280.tmp", f"{path}.11281.tmp"
    for name in (old, fresh):
        open(name, "wb").close()
    os.utime(old, (os.stat(old).st_atime - 3600,) * 2)
    _, made = _run(str(tmp_path))
    assert made["saved"] is True
    assert sorted(os.listdir(tmp_path)) == sorted(os.path.basename(p) for p in (path, fresh))


def test_a_fifo_in_place_of_the_file_does_not_hang_the_start(tmp_path):
    """A named pipe planted where the file is (the hostile run): install's open blocked until a
    writer came, so every start of the app or a command hung; it is no file now (compiled as
    usual, then saved over it)."""
    os.mkfifo(dataclass_code.cache_file(str(tmp_path)))
    env = dict(os.environ, PYTHONPATH=ROOT)
    proc = subprocess.run([sys.executable, "-c", KINDS, str(tmp_path)], env=env,
                          capture_output=True, text=True, timeout=30)   # hung on the old code
    assert proc.returncode == 0, proc.stderr[-3000:]
    made = json.loads(proc.stdout.splitlines()[-1])
    assert made["compiled"] > 10 and made["saved"] is True
    assert os.path.isfile(dataclass_code.cache_file(str(tmp_path)))


def test_a_fifo_where_save_writes_its_temporary_file_does_not_hang(tmp_path, monkeypatch):
    """save wrote its `.PID.tmp` through whatever was there: a FIFO blocked the run's exit, a
    symbolic link was written through. It makes a new file only (else saves nothing)."""
    import threading

    path = dataclass_code.cache_file(str(tmp_path))
    monkeypatch.setattr(dataclass_code, "_path", [path])
    monkeypatch.setattr(dataclass_code, "_compiled", [1])
    target = tmp_path / "elsewhere"
    target.write_bytes(b"mine")
    os.mkfifo(f"{path}.{os.getpid()}.tmp")
    done = []
    thread = threading.Thread(target=lambda: done.append(dataclass_code.save()), daemon=True)
    thread.start()
    thread.join(20)
    assert done == [False]          # (the old code never returned)
    assert not os.path.exists(f"{path}.{os.getpid()}.tmp")   # the next save can write
    os.symlink(target, f"{path}.{os.getpid()}.tmp")
    monkeypatch.setattr(dataclass_code, "_compiled", [1])
    assert dataclass_code.save() is False
    assert target.read_bytes() == b"mine"
