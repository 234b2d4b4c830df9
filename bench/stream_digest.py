"""Digests of the Graph the window ends with when it opens a big GraphDef through a reader
process, one line per aspect: names, op codes, inputs, problems, scope ids, weight slots,
node sizes and every node's NodeDef (parsed, written deterministically). Run it with two
trees on the path in turn and compare the lines: the reader's frames (full columns, split
bodies, plain pieces) must not change any of them.

  PYTHONPATH=TREE python bench/stream_digest.py [--busy SECONDS] MODEL...
  --busy  the window takes its first frame this long after the reader starts (every frame
          then waits: full columns); default 0 (the window waits for the reader)"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
import time


def digests(path: str, busy: float) -> dict:
    from inspector.core.loaders import reader_process
    from inspector.core.loaders.readers import _receive
    from inspector.core.runtime import front_end

    front_end.WINDOW = True
    stream = reader_process.start(path, os.stat(path), window=True)
    time.sleep(busy)
    graph = _receive(stream, path)
    if graph is None:
        raise SystemExit(f"{path}: the reader's stream was refused")
    out = {}

    def put(key, *parts):
        h = hashlib.sha256()
        for part in parts:
            h.update(part if isinstance(part, bytes) else repr(part).encode())
        out[key] = h.hexdigest()[:16]

    put("names", "\n".join(graph.name_list).encode())
    put("ops", [graph.op_names[c] for c in graph._ops])
    put("inputs", graph._in_off.tobytes(), graph._src.tobytes(), graph._port.tobytes(),
        sorted(graph._loose.items()), sorted(graph._big_ports.items()))
    put("problems", graph.problems(), sorted(graph.devices.items()))
    paths, ids = graph.scope_ids()
    put("scopes", paths, ids.tobytes())
    weights = graph.weights
    put("slots", [] if weights is None else sorted(
        (k, (s.node, s.attr, s.field, s.offset, s.length, s.version))
        for k, s in weights.slots.items()), 0 if weights is None else weights.lazy_bytes)
    put("sizes", list(graph.stored_sizes))
    h = hashlib.sha256()
    for k in range(0, len(graph), 4096):
        for node in graph.structure.node[k:k + 4096]:
            h.update(node.SerializeToString(deterministic=True))
    out["nodes"] = h.hexdigest()[:16]
    out["count"] = str(len(graph))
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--busy", type=float, default=0.0)
    parser.add_argument("models", nargs="+")
    args = parser.parse_args()
    for path in args.models:
        for key, value in digests(path, args.busy).items():
            print(f"{os.path.basename(path)} busy={args.busy:g} {key} {value}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
