"""A big binary GraphDef's structure read in a second process and streamed back in pieces.

On a 2-core machine the walk over the file's fields (lazy_graphdef, about 4 us a node) then
runs on one core while this process, on the other, parses the pieces that have arrived and
makes their Node objects; at the app's start the walk also overlaps the Qt start-up
(`prestart`). Nothing changes in what is read: the reader runs the same lazy_graphdef code
and sends each piece of the GraphDef as protobuf bytes, then the weight slots. Any failure
of the process itself (killed, a bug) falls back to reading in this process.

Frames on the pipe: one kind byte, an 8-byte length, the payload. P: the next pieces of the
GraphDef (marshal: a list of file ranges (start, end) and stripped nodes' bytes, the sizes
of the nodes they hold, their Graph columns and NodeDef lengths, or None, None; the node
fields' places, the window's split, a command's constants' facts, or None each); D:
done (marshal: the slots as weights.slot_columns, bytes scanned, file stamp); E: a
ModelLoadError (message, path, node); N: not a GraphDef after all; X: the reader failed."""

from __future__ import annotations

import fcntl
import marshal
import mmap
import os
import queue
import struct
import sys
import threading

from inspector.core.errors import Cancelled, ModelLoadError
from inspector.core.loaders import node_estimate, reader_frames, reader_sink
from inspector.core.loaders.lazy_graphdef import LAZY_FIELD, open_lazily
from inspector.core.model import wire_columns
from inspector.core.model.weights import SlotColumns, slot_columns
from inspector.core.runtime import apart, front_end
from inspector.core.runtime.job import NO_JOB, Job
from inspector.core.runtime.lazy_import import later

subprocess = later("subprocess", globals(), "subprocess")   # not before the first picture

CHUNK_NODES = 16384           # nodes per piece: a few ms of parsing here, ~1.5 MB
STREAM_ABOVE = 32 * 2 ** 20   # files this big are read by a reader process
STORE_FROM = STREAM_ABOVE     # and their nodes kept as bytes in the file (node_store)
EXPECTED_MOST = 1 << 22       # nodes the compiled reader's tables are first sized for, at most
PIPE_BYTES = 1 << 20          # the pipe's buffer (Linux's most without privileges)
_HEADER = struct.Struct("<cQ")
_KINDS = (b"P", b"D", b"E", b"N", b"X")
FRAME_MOST = 2 ** 33          # a frame's length past this is a garbled header
_started: dict = {}           # path -> Stream started before the path was asked for
_lock = threading.Lock()


def enabled() -> bool:
    return hasattr(os, "fork") and os.environ.get("INSPECTOR_READER_PROCESS", "1") != "0"


class Stream:
    """The frames of one reader process, drained from its pipe by a thread as they come."""

    def __init__(self, path: str, stamp: tuple, fd: int, child, idle=None,
                 drain: bool = True):
        self.path, self.stamp, self.pinned = path, stamp, False    # pinned: keep_started
        self.idle = idle      # a byte shared with a forked reader: 1 once we wait for it
        self._fd, self._child = fd, child     # child: wait() and kill(), as a Popen
        self._frames: queue.Queue = queue.Queue()
        self._drain = threading.Thread(target=self._read_all, name="graphdef-reader",
                                       daemon=True)
        if drain:               # (else by drain(): a thread running stops the next fork)
            self.drain()

    def drain(self) -> None:
        if self._drain.ident is None:
            self._drain.start()

    def _read_all(self) -> None:
        try:
            with os.fdopen(self._fd, "rb", buffering=1 << 20) as pipe:
                while True:
                    head = pipe.read(_HEADER.size)
                    if len(head) < _HEADER.size:
                        break
                    kind, length = _HEADER.unpack(head)
                    if kind not in _KINDS or length > FRAME_MOST:
                        break           # not a frame: the stream is garbled
                    payload = pipe.read(length)
                    if len(payload) < length:
                        break
                    self._frames.put((kind, payload))
        except (OSError, ValueError, MemoryError):
            pass
        finally:
            self._frames.put((b"", b""))     # end of stream (complete or not)
            try:
                self._child.wait()
            except (OSError, ChildProcessError):
                pass

    def frames(self, job: Job = NO_JOB, idle=None):
        """(kind, payload) as they arrive; raises Cancelled (and stops the reader) when the
        job is cancelled while waiting. idle(): work done each time no frame is waiting."""
        while True:
            if job.cancelled:
                self.kill()
                raise Cancelled()
            try:
                frame = self._frames.get_nowait()
            except queue.Empty:
                if self.idle is not None:
                    self.idle[0] = 1        # caught up: the reader sends plain pieces now
                if idle is not None:
                    idle()
                try:
                    frame = self._frames.get(timeout=0.05)
                except queue.Empty:
                    continue
            yield frame
            if not frame[0]:
                return

    def kill(self) -> None:
        try:
            self._child.kill()
        except OSError:
            pass


class _Forked:
    """A forked reader, with the two calls of a Popen that Stream uses."""

    def __init__(self, pid: int):
        self.pid = pid

    def wait(self) -> None:
        os.waitpid(self.pid, 0)

    def kill(self) -> None:
        os.kill(self.pid, 9)


def _can_fork() -> bool:
    """apart.fork_safe (the one rule): the CLI and the app's start fork (INSPECTOR_APART is
    the forked costs' switch; INSPECTOR_READER_PROCESS is the reader's)."""
    return apart.fork_safe()


def start(path: str, st, window: bool = False, drain: bool = True,
          full: bool = False) -> Stream | None:
    """A reader process for the file at path (None when this platform has none); window:
    the graph is opened for the window (it reads no constants while opening), to which a
    forked reader may send a piece's bodies split (reader_sink); full: with every piece's
    columns (reader_sink); drain False: the Stream's thread started by Stream.drain()."""
    if not enabled():
        return None
    stamp = (st.st_size, st.st_mtime_ns)
    read_fd, write_fd = os.pipe()
    try:     # a frame in one write: a 64 KB pipe took a turn of the window's GIL per 64 KB
        fcntl.fcntl(write_fd, fcntl.F_SETPIPE_SZ, PIPE_BYTES)    # while the reader waited
    except (AttributeError, OSError):
        pass
    try:
        if _can_fork():      # a fork starts at once, with our modules already loaded
            idle = mmap.mmap(-1, reader_sink.IDLE_BYTES)     # shared with the child
            pid = os.fork()
            if pid == 0:           # the child: read, send, leave without running any cleanup
                code = 0
                try:
                    os.close(read_fd)
                    serve(path, write_fd, idle, window, full)
                except BaseException:  # noqa: BLE001
                    code = 1
                os._exit(code)
            os.close(write_fd)
            return Stream(path, stamp, read_fd, _Forked(pid), idle, drain)
        proc = subprocess.Popen(     # (its own session: Ctrl+C at a terminal stops us, not
            [sys.executable, "-m", "inspector.core.loaders.reader_process", path,  # it)
             str(write_fd)], pass_fds=(write_fd,), stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, close_fds=True, start_new_session=True)
        os.close(write_fd)
        return Stream(path, stamp, read_fd, proc)
    except OSError:
        for fd in (read_fd, write_fd):
            try:
                os.close(fd)
            except OSError:
                pass
        return None


def keep_started(path: str, stream: Stream, pinned: bool = False) -> None:
    """Keep a reader started before the window exists for the open that follows (take);
    pinned: not stopped by the open of another path (a command's models, opened at once)."""
    stream.pinned = pinned
    with _lock:
        _started[os.path.abspath(path)] = stream


def take(path: str, st) -> Stream | None:
    """The reader started for path if the file is unchanged since; other readers still
    waiting are stopped (the user went on to another model), unless pinned."""
    key = os.path.abspath(path)
    with _lock:
        stream = _started.pop(key, None)
        others = [k for k, s in _started.items() if not getattr(s, "pinned", False)]
        others = [_started.pop(k) for k in others]
    for other in others:
        other.kill()
    if stream is not None and stream.stamp != (st.st_size, st.st_mtime_ns):
        stream.kill()
        return None
    return stream


def serve(path: str, out_fd: int, idle=None, window: bool = False, full: bool = False) -> None:
    """The reader: the lazy walk over the file, each piece sent as it is read (with its
    columns while `idle`, bytes shared with the window, say it is busy: reader_sink)."""
    sink = None

    def send(kind: bytes, payload: bytes) -> None:
        # every byte, however many writes it takes: one write(2) to a pipe may write part
        # of a frame (a signal, a tracer's stop), and the window would read the rest of it
        # as the next frame's header
        view = memoryview(_HEADER.pack(kind, len(payload)) + payload)
        while view:
            view = view[os.write(out_fd, view):]

    try:
        st = os.stat(path)
        nodes = node_estimate.compiled_nodes(path, st.st_size)
        # its name table sized for the estimate (and a margin) at once: growing it past
        # 500k names rehashed them all, ~0.4 s at 1M nodes (tables still grow past it)
        wire = wire_columns.reader(min(nodes * 9 // 8, EXPECTED_MOST)) if nodes else None
        # a command's graph reads its constants' facts while it opens: read here, beside it
        # (not for the window's: the app's start forks this before front_end.WINDOW is set)
        sink = reader_sink.SendingSink(send, idle, wire, idle is not None and not window
                                       and not front_end.WINDOW, window, full)
        sink.fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))

        def sink_of(reader):
            sink.r = reader
            return sink

        opened = open_lazily(path, st, sink=sink_of, every=CHUNK_NODES, sizes=sink.sizes,
                             small=wire and wire_columns.small_nodes(LAZY_FIELD))
        if opened is not None:
            sink.cut()
        sink.close()
        if opened is None:
            send(b"N", b"")
        else:
            store = opened[1]
            if store is None:
                done = (slot_columns([]), 0, (st.st_size, st.st_mtime_ns))
            else:
                done = (slot_columns(store.slot_list()), store.scanned, store.stamp)
                store.close()
            send(b"D", marshal.dumps(done))
    except ModelLoadError as exc:
        _flushed(sink)
        send(b"E", marshal.dumps((exc.message, exc.path, exc.node)))
    except Exception as exc:  # noqa: BLE001  (the window reads the file itself then)
        _flushed(sink)
        send(b"X", repr(exc).encode("utf-8", "replace"))
    finally:
        try:
            os.close(out_fd)
            if sink is not None and sink.fd is not None:
                os.close(sink.fd)
        except OSError:
            pass


def _flushed(sink) -> None:
    """The frames cut before a failure sent before its own frame (by the sink's thread)."""
    try:
        if sink is not None:
            sink.close()
    except Exception:  # noqa: BLE001  (the failure is sent next)
        pass


def receive(stream: Stream, graph, job: Job = NO_JOB) -> tuple | None:
    """Fill graph (Graph(GraphDef(), complete=False), or Graph(StoredGraphDef(store), ...):
    then the nodes stay bytes in the file, see node_store) from the stream: returns (slots,
    bytes scanned, our descriptor of the file, for its weights; the caller closes it), or
    None when the reader did not finish, a piece did not parse or the file changed (read
    here instead then). Raises the reader's ModelLoadError."""
    try:
        fd = os.open(stream.path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        stream.kill()
        return None
    keep = False
    try:
        st = os.fstat(fd)
        if (st.st_size, st.st_mtime_ns) != stream.stamp:
            stream.kill()
            return None
        store = getattr(graph.structure, "store", None)
        if store is not None:
            store.open(os.dup(fd), stream.stamp)
            store.names = graph.name_list
        pread, took = os.pread, 0
        for kind, payload in stream.frames(job, graph.read_scopes_ahead):
            if kind == b"P":
                try:
                    pieces, sizes, read, lengths, places, batch, *consts = \
                        reader_frames.loaded(payload)
                    fetch = lambda: b"".join(   # noqa: E731  (pieces' bytes: from the file)
                        pread(fd, p[1] - p[0], p[0]) if p.__class__ is tuple else p
                        for p in pieces)
                    # a store's nodes placed by the reader's lengths need no byte read here
                    data = None if store is not None and (
                        places is not None and places[4] or
                        places is None and lengths is not None) else fetch()
                    if not took:      # its nodes: the first piece's share of the file
                        graph.expect(len(sizes) * stream.stamp[0] // max(1, sum(sizes)))
                    added = reader_frames.add(graph, store, pieces, data, len(sizes), read,
                                              lengths, places, batch, fetch, *consts)
                    graph.stored_sizes.extend(sizes)
                except Exception:  # noqa: BLE001  (a garbled frame: read here instead)
                    added = False
                if not added:
                    stream.kill()
                    return None
                took += 1
                if stream.idle is not None:
                    reader_sink.took(stream.idle, took)
                graph.read_scopes_ahead()    # this piece grouped by scope now (not after all)
            elif kind == b"D":
                columns, scanned, stamp = marshal.loads(payload)
                st = os.fstat(fd)
                if tuple(stamp) != stream.stamp or (st.st_size, st.st_mtime_ns) != stamp:
                    return None
                try:    # (the Slot objects are made when first asked for, after the picture)
                    slots = SlotColumns(columns)
                except (ValueError, TypeError):
                    return None
                keep = True
                return slots, scanned, fd
            elif kind == b"E":
                message, path, node = marshal.loads(payload)
                raise ModelLoadError(message, path=path, node=node)
            else:        # N, X or the end of the stream without D
                return None
        return None
    finally:
        if not keep:
            os.close(fd)


if __name__ == "__main__":       # the reader started by a process that has threads
    try:
        serve(sys.argv[1], int(sys.argv[2]))
    except OSError:         # the process reading us is gone (EPIPE): no one to tell
        os._exit(1)
