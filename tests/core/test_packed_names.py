"""A compressed file or archive opened as a model says what to run to unpack it
(loaders/packed.py). The command named the file as it is: 'tar xzf my model.tar.gz' and
'gunzip -k $(x).pb.gz' do something else, or nothing, when pasted into a shell; the name
is now quoted as a shell takes it."""

from __future__ import annotations

import gzip
import io
import tarfile

import pytest

from inspector.core.errors import ModelLoadError
from inspector.core.loaders import load


def _hub_tar_gz(path: str) -> str:
    with tarfile.open(path, "w:gz") as tar:
        info = tarfile.TarInfo("mobilenet/saved_model.pb")
        info.size = 3
        tar.addfile(info, io.BytesIO(b"\x0a\x01x"))
    return path


@pytest.mark.parametrize("name, said", [
    ("my model.tar.gz", "tar xzf 'my model.tar.gz'"),
    ("möbilenet (1).tar.gz", "tar xzf 'möbilenet (1).tar.gz'"),
    ("mobilenet.tar.gz", "tar xzf mobilenet.tar.gz"),
])
def test_the_unpack_command_names_the_file_as_a_shell_takes_it(tmp_path, name, said):
    with pytest.raises(ModelLoadError) as got:
        load(_hub_tar_gz(str(tmp_path / name)))
    assert said + ")" in str(got.value), str(got.value)


def test_a_gzipped_graph_s_command_quotes_its_name(tmp_path):
    path = tmp_path / "$(x).pb.gz"
    path.write_bytes(gzip.compress(b"\x0a\x01x"))
    with pytest.raises(ModelLoadError) as got:
        load(str(path))
    assert "(gunzip -k '$(x).pb.gz')" in str(got.value), str(got.value)
