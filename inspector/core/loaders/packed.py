"""Compressed files and tar archives opened as models (a TensorFlow Hub download is a .tar.gz;
a model is often kept gzip'd): one line saying what the file is and what to do, from its first
bytes. Nothing is unpacked: at most 4 KB of a gzip stream is inflated to look for a tar
header, so a compression bomb costs nothing."""

from __future__ import annotations

import os
import shlex
import zlib

from inspector.core.errors import ModelLoadError

def _bzip2(head: bytes) -> bool:
    return head[:3] == b"BZh" and head[3:4] in b"123456789" and len(head) >= 10 and \
        head[4:10] in (b"1AY&SY", b"\x17rE8P\x90")


def _xz(head: bytes) -> bool:
    """The stream header: magic, flags and the flags' CRC32 (a GraphDef cannot fake all 12)."""
    return head[:6] == b"\xfd7zXZ\x00" and len(head) >= 12 and \
        zlib.crc32(head[6:8]).to_bytes(4, "little") == head[8:12]


# a gzip stream (0x1f: wire type 7) and 7-Zip ('7': wire type 7) can never start a protobuf;
# the others are checked past their magic
_FORMATS = ((_bzip2, "a bzip2-compressed file", "bunzip2 -k"),
            (_xz, "an xz-compressed file", "unxz -k"),
            (lambda h: h.startswith(b"7z\xbc\xaf\x27\x1c"), "a 7-Zip archive", "7z x"))


def _tar_member(block: bytes) -> str | None:
    """The first member's name when `block` starts with a tar header (ustar, GNU or POSIX)
    whose checksum holds."""
    if len(block) < 512 or block[257:262] != b"ustar":
        return None
    try:
        stored = int(block[148:156].split(b"\0", 1)[0].strip() or b"x", 8)
    except ValueError:
        return None
    if stored != sum(block[:148]) + 8 * 32 + sum(block[156:512]):
        return None
    return block[:100].split(b"\0", 1)[0].decode("utf-8", "replace")


def refuse_packed(path: str, head: bytes) -> None:
    """Raise ModelLoadError for a gzip stream (a tar inside named as such), a tar archive, or
    a bzip2, xz or 7-Zip file; anything else passes."""
    name = shlex.quote(os.path.basename(path))   # the command as it is pasted into a shell
    if head[:2] == b"\x1f\x8b":
        try:
            inside = zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(head, 4096)
        except zlib.error:
            inside = b""
        member = _tar_member(inside)
        if member is not None:
            raise ModelLoadError(
                f"this is a gzip'd tar archive (as TensorFlow Hub downloads are), not a model: "
                f"unpack it (tar xzf {name}) and open the SavedModel folder or model file in "
                f"it (its first entry is {member[:200]!r})", path=path)
        raise ModelLoadError("this is a gzip-compressed file, not a model: decompress it "
                             f"(gunzip -k {name}) and open the result", path=path)
    member = _tar_member(head[:512])
    if member is not None:
        raise ModelLoadError(f"this is a tar archive, not a model: unpack it (tar xf {name}) "
                             "and open the SavedModel folder or model file in it (its first "
                             f"entry is {member[:200]!r})", path=path)
    for looks, what, tool in _FORMATS:
        if looks(head):
            raise ModelLoadError(f"this is {what}, not a model: unpack it ({tool} "
                                 f"{name}) and open the model in it", path=path)
