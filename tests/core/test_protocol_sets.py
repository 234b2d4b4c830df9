"""A strip preview's big sets cross the worker's pipe in slices (each its own short
unpickling, so the window's GUI thread gets the GIL between them) and arrive equal."""

from __future__ import annotations

import os
import threading

from inspector.core.analysis.marks import StripPreview
from inspector.worker import protocol


def test_big_sets_and_frozensets_travel_in_slices_and_arrive_equal():
    kept = {f"s{i % 9}/n{i}" for i in range(3 * protocol.SLICE + 7)}
    dropped = {f"d{i}" for i in range(protocol.SLICE + 1)}
    preview = StripPreview(kept, dropped, 123, ["in"], {"d1": "optimizer"},
                           frozenset(f"s{i}" for i in range(protocol.SLICE + 2)))
    reply = ("result", 3, preview)
    slim = protocol.sliced(reply)[2]
    assert isinstance(slim.kept, protocol._Sliced) and len(slim.kept.parts) == 4
    assert isinstance(slim.kept_scopes, protocol._Sliced) and preview.kept is kept
    read, write = os.pipe()
    got: list = []
    reader = threading.Thread(target=lambda: got.append(protocol.receive(read)))
    reader.start()
    protocol.send(write, protocol.sliced(reply))
    reader.join(30)
    os.close(read), os.close(write)
    back = got[0][2]
    assert back == preview
    assert type(back.kept) is set and type(back.kept_scopes) is frozenset
    assert protocol.sliced(("result", 1, {"a", "b"}))[2] == {"a", "b"}     # small: as is
