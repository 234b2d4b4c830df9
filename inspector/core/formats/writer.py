"""Write outputs safely: atomically, never over an existing file or the input unless forced, never
over the files of an input model folder, and with one-line errors for unwritable places."""

from __future__ import annotations

import glob
import os
import re
import tempfile

from inspector.core.errors import InspectorError
from inspector.core.model import protos
from inspector.core.runtime.lazy_import import later

# protobuf's text format, for a .pbtxt written (the window imports this module at its start)
text_format = later("google.protobuf.text_format", globals(), "text_format")

PROTOBUF_LIMIT = 2 ** 31 - 1

_TEMP = re.compile(r"^\..+\.inspector-(\d+)-[^.]+\.tmp$")


def _inside(path: str, directory: str) -> bool:
    directory = os.path.realpath(directory)
    return os.path.realpath(path).startswith(directory.rstrip(os.sep) + os.sep)


class TargetExists(InspectorError):
    """The output file exists, or another writer took its name while it was being written,
    and it was not to be replaced (no --force)."""


def check_target(path: str, force: bool = False, source: str | None = None) -> None:
    """Refuse, before any work, a target that exists (unless forced), is the input file, lies
    inside an input model folder over one of its files, or sits in a missing directory."""
    if not path:
        raise InspectorError("no output file given")
    if os.path.isdir(path):
        raise InspectorError("output path is a directory", path=path)
    if source and os.path.isdir(source) and _inside(path, source) and os.path.lexists(path):
        raise InspectorError("refusing to write inside the input model folder over its own "
                             "files (choose a path outside it)", path=path)
    if source and os.path.exists(path) and os.path.exists(source):
        if os.path.samefile(path, source) and not force:
            raise InspectorError("refusing to write over the input file (use --force)", path=path)
    if os.path.lexists(path) and not force:
        raise TargetExists("output file exists (use --force to overwrite)", path=path)
    directory = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(directory):
        raise InspectorError("output directory does not exist", path=path)


def _remove_stale_temps(directory: str) -> None:
    """Temporary files of writes whose process died (kill -9) are removed on the next write."""
    for tmp in glob.glob(os.path.join(glob.escape(directory), ".*.inspector-*.tmp")):
        m = _TEMP.match(os.path.basename(tmp))
        if m is None or int(m.group(1)) == os.getpid():
            continue
        try:
            os.kill(int(m.group(1)), 0)
        except ProcessLookupError:
            try:
                os.unlink(tmp)
            except OSError:
                pass
        except OSError:
            pass


def atomic_write(path: str, data: bytes | str, force: bool = False,
                 source: str | None = None) -> str:
    """Write via a temporary file in the same directory and rename it into place. Text goes
    as UTF-8; a lone surrogate in it (a name read from a hostile JSON file: "\\ud800") is
    written as its escape, not refused with UnicodeEncodeError."""
    with atomic_stream(path, force, source) as fh:
        fh.write(data.encode("utf-8", "backslashreplace") if isinstance(data, str) else data)
    return path


class atomic_stream:
    """`with atomic_stream(path) as fh:` write to a temporary file beside `path`, renamed
    into place only when the block ends without an error (then the temporary file goes).
    Without `force` it never goes over a file, not even one that another writer put there
    after check_target (_into_place)."""

    def __init__(self, path: str, force: bool = False, source: str | None = None):
        check_target(path, force, source)
        self.path, self.tmp, self.fh, self.force = path, None, None, force

    def __enter__(self):
        directory = os.path.dirname(os.path.abspath(self.path))
        _remove_stale_temps(directory)
        try:
            fd, self.tmp = tempfile.mkstemp(
                prefix=f".{os.path.basename(self.path)[:80]}.inspector-{os.getpid()}-",
                suffix=".tmp", dir=directory)
        except OSError as exc:
            raise InspectorError(f"cannot write: {exc.strerror or exc}",
                                 path=self.path) from None
        self.fh = os.fdopen(fd, "wb")
        return self.fh

    def __exit__(self, kind, exc, tb):
        try:
            if kind is None:
                self.fh.flush()
                os.fsync(self.fh.fileno())
            self.fh.close()
            if kind is None:
                os.chmod(self.tmp, 0o644)
                _into_place(self.tmp, self.path, self.force)
                return False
        except OSError as err:
            exc = err
        except TargetExists:
            _discard(self.tmp)
            raise
        _discard(self.tmp)
        if isinstance(exc, OSError):      # a full disk, a read-only place: one line
            raise InspectorError(f"cannot write: {exc.strerror or exc}",
                                 path=self.path) from None
        return False


def _into_place(tmp: str, path: str, replace: bool) -> None:
    """The finished temporary file renamed to `path`, atomically. Unless `replace`, never
    over a file: a name checked free and then renamed onto could be taken in between (and
    POSIX's rename replaces silently), so the file is hard-linked to its name, which fails
    if the name is taken, and the temporary name goes. Where hard links are not possible
    (FAT, some network shares) the name is reserved (O_EXCL) and then replaced."""
    if replace:
        os.replace(tmp, path)
        return
    taken = TargetExists("output file exists (another program wrote it meanwhile; use "
                         "--force to overwrite)", path=path)
    try:
        os.link(tmp, path)
    except FileExistsError:
        raise taken from None
    except OSError:
        try:
            os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644))
        except FileExistsError:
            raise taken from None
        try:
            os.replace(tmp, path)          # over the empty file reserved just now
        except OSError:
            _discard(path)
            raise
        return
    _discard(tmp)


def _discard(tmp: str | None) -> None:
    if tmp and os.path.exists(tmp):
        try:
            os.unlink(tmp)
        except OSError:
            pass


def write_graph(graph_def, path: str, as_text: bool = False, force: bool = False,
                source: str | None = None, size: int | None = None,
                node_sizes: dict | None = None, left_in_file=None) -> str:
    """`size`: the graph's serialized size when the caller knows it (else measured here).
    A binary graph is written node by node as it is serialized: a 100 MB graph is never held
    twice in memory. `node_sizes` gets {id(node): bytes it took in the file} (the caller
    keeps the nodes alive); the 2 GB limit is then checked as the bytes are written.
    `left_in_file`: the graph's large values are still in its model file
    (whole_graphdef.read_structure): they are copied from there (formats/spliced)."""
    if left_in_file is not None:
        return _write_spliced(graph_def, path, force, source, node_sizes, left_in_file)
    check_target(path, force, source)  # before serializing a big graph
    as_it_goes = node_sizes is not None and size is None and not as_text
    if size is None and not as_it_goes:
        size = 0 if as_text else protos.graph_def_size(graph_def)  # not ByteSize(): 20x slower
    if not as_text and size is not None and size >= PROTOBUF_LIMIT:
        raise _too_big(size, path)
    if as_text:
        return atomic_write(path, text_format.MessageToString(graph_def), force=force,
                            source=source)
    with atomic_stream(path, force, source) as fh:
        total, disk = 0, _Writeback(fh.fileno())
        for node, head, data in protos.node_pieces(graph_def):
            total += len(head) + len(data)
            if as_it_goes and total >= PROTOBUF_LIMIT:
                raise _too_big(protos.graph_def_size(graph_def), path)
            if node_sizes is not None and node is not None:
                node_sizes[id(node)] = len(head) + len(data)
            fh.write(head)
            fh.write(data)
            disk.written(total)
    return path


class _Writeback:
    """Starts the disk writes of what a big write has put in the page cache so far, while
    it goes on: the fsync that closes it then waits for the last part only."""

    EVERY = 16 * 2 ** 20

    def __init__(self, fd: int):
        self.fd, self.started = fd, 0

    def written(self, offset: int) -> None:
        if offset - self.started >= self.EVERY and hasattr(os, "posix_fadvise"):
            try:        # DONTNEED writes the dirty pages out (not waiting), then drops them
                os.posix_fadvise(self.fd, self.started, offset - self.started,
                                 os.POSIX_FADV_DONTNEED)
            except OSError:
                pass
            self.started = offset


def _write_spliced(graph_def, path: str, force: bool, source: str | None,
                   node_sizes: dict | None, left) -> str:
    """write_graph of a graph whose large values are in `left`'s file: the same bytes."""
    from inspector.core.formats import spliced

    with atomic_stream(path, force, source) as fh:
        fh.flush()
        fd, pending, total = fh.fileno(), [], 0
        disk = _Writeback(fd)
        for node, head, data in _pieces_left_in_file(graph_def, left):
            size = len(head) + spliced.size_of(data)
            total += size
            if total >= PROTOBUF_LIMIT:
                raise _too_big(graph_sizes(graph_def, left), path)
            if node_sizes is not None and node is not None:
                node_sizes[id(node)] = size
            pending.append(head)
            for piece in data:
                if isinstance(piece, spliced.FilePart):
                    spliced.write_pieces(fd, left.fd, [b"".join(pending), piece])
                    pending = []
                    disk.written(total)
                else:
                    pending.append(piece)
            if len(pending) > 256:
                spliced.write_pieces(fd, left.fd, [b"".join(pending)])
                pending = []
        spliced.write_pieces(fd, left.fd, [b"".join(pending)])
        if not left.unchanged():
            raise InspectorError("the model file changed on disk while it was read; run "
                                 "again", path=left.path)
    return path


def _pieces_left_in_file(graph_def, left):
    """(node, key and length, [pieces]) for each node, then (None, b"", [the other fields])."""
    from inspector.core.formats import spliced
    from inspector.core.loaders.whole_graphdef import lazy_attrs

    for node, head, data in protos.node_pieces(graph_def, lambda n: n.name not in left.by_name):
        if data is not None:
            yield node, head, [data]
            continue
        lazy = lazy_attrs(node, left.by_name[node.name])
        if lazy is None:
            raise InspectorError("a tensor left in the model file cannot be written back "
                                 "(please report this model)", path=left.path, node=node.name)
        pieces = spliced.node_pieces(node, lazy) if lazy else \
            [node.SerializeToString(deterministic=True)]
        yield node, protos.node_head(spliced.size_of(pieces)), pieces


def node_size(node, left=None) -> int:
    """Bytes the node takes in its GraphDef, values left in `left`'s file included."""
    from inspector.core.formats import spliced
    from inspector.core.loaders.whole_graphdef import lazy_attrs

    lazy = lazy_attrs(node, left.by_name.get(node.name, {})) if left else None
    n = spliced.size_of(spliced.node_pieces(node, lazy)) if lazy else node.ByteSize()
    return protos.node_field_size(n)


def graph_sizes(graph_def, left=None) -> int:
    """The graph's serialized size, values left in `left`'s file included."""
    if left is None:
        return protos.graph_def_size(graph_def)
    return protos.other_fields_size(graph_def) + sum(node_size(n, left) for n in graph_def.node)


def _too_big(size: int, path: str) -> InspectorError:
    return InspectorError(
        f"the graph would be {size / 2 ** 30:.1f} GB, over protobuf's 2 GB "
        "limit for one GraphDef: keep the weights as variables (a SavedModel), convert it "
        "to TensorFlow Lite, or split the model", path=path)


def beside(model_path: str | None, suffix: str, fallback: str = "graph") -> str:
    """Where an export is offered by default: beside the model, named after it
    (/models/net.pb -> /models/net_timings.txt), not in whatever the working folder is; the
    home folder for a model among the app's own files (the demo) or in a read-only folder."""
    if not model_path:
        return fallback + suffix
    base = os.path.splitext(model_path.rstrip("/"))[0]
    return os.path.join(save_folder(model_path), os.path.basename(base) + suffix)


_APP_FILES = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def save_folder(model_path: str) -> str:
    """The folder a file made from `model_path` is proposed in: the model's own, else (the
    bundled demo model inside the installed app, a frozen build's temporary folder, a
    read-only folder) the home folder."""
    folder = os.path.dirname(model_path.rstrip("/\\"))
    return os.path.expanduser("~") if not_for_writing(model_path) else folder


def among_app_files(path: str) -> str | None:
    """`path` relative to the app's own files when it lies among them (the bundled demo model
    in a source tree, an install's site-packages or a frozen build's temporary folder), else
    None."""
    full = os.path.abspath(path)
    if full == _APP_FILES or full.startswith(_APP_FILES + os.sep):
        return os.path.relpath(full, _APP_FILES)
    return None


def not_for_writing(model_path: str) -> bool:
    """Whether files made from `model_path` must not go beside it: it lies among the app's
    own files (the demo) or in a folder the user cannot write."""
    full = os.path.abspath(os.path.dirname(model_path.rstrip("/\\")) or ".")
    return among_app_files(full) is not None or \
        (os.path.isdir(full) and not os.access(full, os.W_OK))


def proposed_name(a_label: str, b_label: str, a_path: str, extension: str) -> str:
    """"A_vs_B.<extension>" beside model A (the home folder for the demo model, which lives
    among the app's own files, or a read-only folder); the files' extensions kept when the
    names alone are the same (net_pb_vs_net_tflite, not net_vs_net)."""

    def stem(label: str, keep_extension: bool = False) -> str:
        base = os.path.basename(label.rstrip("/\\")) or label
        if not keep_extension and "." in base[1:]:
            base = os.path.splitext(base)[0]
        return re.sub(r"[^\w+-]+" if keep_extension else r"[^\w.+-]+", "_",
                      base).strip("_") or "model"

    a, b = stem(a_label), stem(b_label)
    if a == b:
        a, b = stem(a_label, True), stem(b_label, True)
    where = save_folder(a_path) if a_path else ""
    name = f"{a}_vs_{b}.{extension}"
    return os.path.join(where, name) if where else name
