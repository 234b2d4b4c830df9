"""INSPECTOR_FORBID_NETWORK=1: an audit hook that fails every network call of this Python
process (socket connect, bind, sendto, name lookup, urllib) with a message on stderr, so an
offline test notices an attempt even where the code would swallow the error. It sees Python
calls only; native libraries are checked by running under `unshare -n` and strace (.ci/run)."""

from __future__ import annotations

import os
import sys

EVENTS = frozenset({"socket.connect", "socket.bind", "socket.sendto", "socket.sendmsg",
                    "socket.getaddrinfo", "socket.gethostbyname", "socket.gethostbyaddr",
                    "urllib.Request", "http.client.connect", "ftplib.connect",
                    "smtplib.connect", "webbrowser.open"})


class NetworkForbidden(RuntimeError):
    pass


def forbid_network() -> None:
    def hook(event, args):
        if event in EVENTS:
            if event == "socket.connect" and args and getattr(args[0], "family", None) == 1:
                return        # AF_UNIX: a local socket (pipes, the single-instance server)
            print(f"graphdef-inspector: network attempt blocked: {event} {args!r:.200}",
                  file=sys.stderr, flush=True)
            raise NetworkForbidden(f"network access is forbidden here ({event})")

    sys.addaudithook(hook)


def install_if_asked() -> None:
    if os.environ.get("INSPECTOR_FORBID_NETWORK") == "1":
        forbid_network()
