"""Files, sizes and messages: writes are atomic and leave nothing behind, declared sizes are
checked before allocating, every GraphDef field survives saving, TF's errors say what failed.

This file holds the tests that need neither TensorFlow nor Qt; the others are in
tests/tf/test_robustness_tf.py."""

from __future__ import annotations

import errno
import os
import subprocess
import sys

import pytest

from inspector.core.errors import InspectorError
from inspector.core.model import protos, tensors


def test_a_write_killed_midway_leaves_no_temp_file_after_the_next_write(tmp_path):
    from inspector.core.formats.writer import atomic_write

    code = ("import os, sys; from inspector.core.formats import writer; "
            "real = os.fsync\n"
            "def stop(fd): os.kill(os.getpid(), 9)\n"
            "os.fsync = stop; writer.atomic_write(sys.argv[1], b'x' * 5_000_000)")
    target = str(tmp_path / "out.pb")
    subprocess.run([sys.executable, "-c", code, target], check=False)
    left = [f for f in os.listdir(tmp_path) if ".inspector-" in f]
    assert left and not os.path.exists(target)  # the killed write left its temp file ...
    atomic_write(str(tmp_path / "other.pb"), b"ok")
    assert not [f for f in os.listdir(tmp_path) if ".inspector-" in f]  # ... removed now


def test_a_full_disk_gives_one_line_and_no_partial_file(tmp_path, monkeypatch):
    from inspector.core.formats import writer

    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(writer.os, "fsync", full)
    with pytest.raises(InspectorError, match="No space left"):
        writer.atomic_write(str(tmp_path / "out.pb"), b"x" * 1000)
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("links", [True, False], ids=["hard-link", "no-hard-links"])
def test_a_write_without_force_never_goes_over_a_file_written_meanwhile(tmp_path,
                                                                        monkeypatch, links):
    """Regression (note12's review): a name checked free and then renamed onto could have
    been taken in between, and POSIX's rename replaced the other program's file silently.
    Without --force the finished file is hard-linked to its name (or, where there are no
    hard links, the name is reserved with O_EXCL), which fails if the name is taken: the
    other file stays, the write says so in one line and leaves no temporary file."""
    from inspector.core.formats import writer

    real_fsync = os.fsync
    target = tmp_path / "out.pb"

    def another_program_writes(fd):                     # after check_target, before rename
        target.write_bytes(b"theirs")
        real_fsync(fd)

    if not links:
        def no_links(src, dst):
            raise PermissionError(errno.EPERM, "Operation not permitted")

        monkeypatch.setattr(writer.os, "link", no_links)
    assert writer.atomic_write(str(tmp_path / "free.pb"), b"mine") == str(tmp_path / "free.pb")
    assert (tmp_path / "free.pb").read_bytes() == b"mine"
    monkeypatch.setattr(writer.os, "fsync", another_program_writes)
    with pytest.raises(InspectorError, match="another program wrote it meanwhile"):
        writer.atomic_write(str(target), b"mine")
    assert target.read_bytes() == b"theirs"
    assert sorted(os.listdir(tmp_path)) == ["free.pb", "out.pb"]
    writer.atomic_write(str(target), b"mine", force=True)        # --force: replaced
    assert target.read_bytes() == b"mine"


@pytest.mark.parametrize("target", ["/proc/out.pb", "/sys/out.pb"])
def test_an_unwritable_directory_is_one_line(target):
    from inspector.core.formats.writer import atomic_write

    with pytest.raises(InspectorError, match="cannot write"):
        atomic_write(target, b"x")


def test_never_over_the_files_of_an_input_model_folder(tmp_path):
    from inspector.core.formats.writer import check_target

    folder = tmp_path / "saved"
    folder.mkdir()
    (folder / "saved_model.pb").write_bytes(b"x")
    with pytest.raises(InspectorError, match="inside the input model folder"):
        check_target(str(folder / "saved_model.pb"), force=True, source=str(folder))
    check_target(str(folder / "new.pb"), force=False, source=str(folder))  # a new file is fine


def test_serialization_keeps_every_graph_def_field():
    gd = protos.GraphDef()
    gd.node.add(name="a", op="Placeholder").attr["dtype"].type = 1
    gd.library.function.add().signature.name = "f"
    gd.version = -1
    gd.versions.producer, gd.versions.min_consumer = 1087, 12
    gd.versions.bad_consumers.append(3)
    gd.debug_info.files.append("model.py")
    gd.debug_info.traces["a"].file_line_cols.add(file_index=0, line=7, col=3)
    assert protos.serialize_graph_def(gd) == gd.SerializeToString(deterministic=True)
    assert protos.graph_def_size(gd) == gd.ByteSize()


def test_declared_sizes_are_checked_before_allocating():
    t = protos.tensor_pb2.TensorProto(dtype=1)
    for d in (1_000_000, 1_000_000):
        t.tensor_shape.dim.add(size=d)
    t.float_val.append(2.5)
    assert list(tensors.head(t, 4)) == [2.5] * 4  # previews read the first values only
    with pytest.raises(ValueError, match="not expanded"):
        tensors.to_numpy(t)
    small = protos.tensor_pb2.TensorProto(dtype=6)
    small.tensor_shape.dim.add(size=2)
    small.int_val.extend([127, 129])  # int8 from int32 values wraps as TF's cast does
    assert tensors.to_numpy(small).tolist() == [127, -127]


def test_packed_content_of_the_wrong_length_is_refused_by_full_and_head_decoding():
    t = protos.tensor_pb2.TensorProto(dtype=1)  # float32, shape [4], 12 bytes of content
    t.tensor_shape.dim.add(size=4)
    t.tensor_content = bytes(12)
    for decode in (tensors.to_numpy, lambda proto: tensors.head(proto, 2)):
        with pytest.raises(ValueError, match="holds 12 bytes, shape \\[4\\] needs 16"):
            decode(t)
    t.tensor_content = bytes(16)
    assert tensors.to_numpy(t).shape == (4,) and list(tensors.head(t, 9)) == [0.0] * 4


def test_print_structure_of_a_const_claiming_1e12_elements_is_quick():
    from inspector.core.formats.tensor_text import debug_string

    t = protos.tensor_pb2.TensorProto(dtype=7)
    t.tensor_shape.dim.add(size=10 ** 6)
    t.tensor_shape.dim.add(size=10 ** 6)
    t.string_val.append(b"hi")
    assert debug_string(t) == \
        "Tensor<type: string shape: [1000000,1000000] values: [hi hi hi...]...>"


def test_text_with_a_lone_surrogate_is_written_with_its_escape(tmp_path):
    """hostile15: a saved comparison whose label is "\\ud800" (valid JSON) opened, and Save
    report then said "'utf-8' codec can't encode character '\\ud800' ... surrogates not
    allowed" and wrote nothing. atomic_write writes the escape."""
    from inspector.core.formats.writer import atomic_write

    path = tmp_path / "report.html"
    atomic_write(str(path), "<p>a\ud800b</p>")
    assert path.read_bytes() == b"<p>a\\ud800b</p>"
