"""One app per desktop session: a second `graphdef-inspector FILE` (a double-click in the file
manager) hands FILE to the running app over a QLocalServer and exits; the running app opens
it in a new window. Off without a screen (offscreen platform: tests, CI, screenshots) and
with INSPECTOR_SINGLE_INSTANCE=0 or --new-instance."""

from __future__ import annotations

import json
import os

from PySide6.QtCore import QObject, Signal

CONNECT_MS = 300      # a missing server answers at once; a busy one gets this long
REPLY_MS = 3000


def server_name() -> str:
    """Per user and display: two X sessions of one user each get their own app."""
    explicit = os.environ.get("INSPECTOR_INSTANCE_NAME")
    if explicit:
        return explicit
    display = os.environ.get("WAYLAND_DISPLAY") or os.environ.get("DISPLAY") or "none"
    safe = "".join(c if c.isalnum() else "_" for c in display)
    return f"graphdef-inspector-{os.getuid()}-{safe}"


def wanted(platform: str) -> bool:
    if os.environ.get("INSPECTOR_SINGLE_INSTANCE", "1") == "0":
        return False
    return platform not in ("offscreen", "minimal") or bool(
        os.environ.get("INSPECTOR_INSTANCE_NAME"))


def socket_path(name: str) -> str:
    """Where QLocalServer puts the socket of `name` (QDir::tempPath() on Unix)."""
    if name.startswith("/"):
        return name
    return os.path.join(os.environ.get("TMPDIR") or "/tmp", name)


def hand_over(path: str | None, name: str | None = None) -> bool:
    """Send `path` (None: just show a new window) to a running app; True if one took it.
    Without the server's socket file nothing is tried (nor QtNetwork imported: the start of
    an app with none running pays nothing for it)."""
    name = name or server_name()
    if not os.path.exists(socket_path(name)):
        return False
    from PySide6.QtNetwork import QLocalSocket

    sock = QLocalSocket()
    sock.connectToServer(name)
    if not sock.waitForConnected(CONNECT_MS):
        return False
    message = {"open": os.path.abspath(path) if path else None}
    sock.write((json.dumps(message) + "\n").encode())
    sock.flush()
    ok = sock.waitForReadyRead(REPLY_MS) and bytes(sock.readAll()).startswith(b"ok")
    sock.disconnectFromServer()
    return ok


class InstanceServer(QObject):
    """Listens for later launches; `open_requested(path or "")` for each."""

    open_requested = Signal(str)

    def __init__(self, parent=None, name: str | None = None):
        from PySide6.QtNetwork import QLocalServer

        super().__init__(parent)
        self.name = name or server_name()
        self.server = QLocalServer(self)
        self.server.setSocketOptions(QLocalServer.UserAccessOption)
        if not self.server.listen(self.name):
            QLocalServer.removeServer(self.name)     # left by an app that crashed
            self.server.listen(self.name)
        self.server.newConnection.connect(self._accept)

    def listening(self) -> bool:
        return self.server.isListening()

    def _accept(self):
        while self.server.hasPendingConnections():
            sock = self.server.nextPendingConnection()
            sock.setParent(self)
            buffer = bytearray()

            def read(sock=sock, buffer=buffer):
                buffer.extend(bytes(sock.readAll()))
                if b"\n" not in buffer:
                    return
                line = bytes(buffer).split(b"\n", 1)[0]
                try:
                    message = json.loads(line)
                    path = message.get("open") or ""
                    if not isinstance(path, str):
                        raise ValueError("not a path")
                except (ValueError, AttributeError):
                    sock.write(b"error: not a request\n")
                    sock.disconnectFromServer()
                    return
                sock.write(b"ok\n")
                sock.flush()
                sock.disconnectFromServer()
                self.open_requested.emit(path)

            sock.readyRead.connect(read)
            sock.disconnected.connect(sock.deleteLater)
            if sock.bytesAvailable():
                read()

    def close(self):
        self.server.close()
