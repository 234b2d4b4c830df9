"""Ways to read a big GraphDef into columns (issue 47: node names in one buffer with offsets,
op codes as small ints, inputs as CSR index arrays), each timed in a fresh process on the
same file, with the python_speed it ran at and its peak RSS.

    .venv/bin/python bench/parse_options.py [MODEL.pb] [--only NAME] [--repeat N]
                                                                    (default: blocks 1M)
The options run in turn, N rounds (default 2), each figure the best of its rounds: a shared
machine's speed changes within seconds.

  full      protobuf's own GraphDef parse (upb), then the columns from its NodeDefs
  skeleton  upb parse with a GraphDef whose NodeDef declares name, op, input, device only
            (attributes stay unknown bytes), then the columns
  wire      one Python pass over the file's top-level fields (node offsets) then, for all
            nodes at once with numpy, their name / op / input fields (vectorised varints)
  today     the app's own loader (inspector.core.loaders.load), for reference
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

COLUMNS = r'''
def columns(names, ops, inputs_of):
    """names: list of str; ops: list of str; inputs_of: list of lists of input strings."""
    import numpy as np
    index = {n: i for i, n in enumerate(names)}
    codes, op_ids = {}, np.empty(len(ops), np.int16)
    for i, op in enumerate(ops):
        op_ids[i] = codes.setdefault(op, len(codes))
    offsets = np.zeros(len(names) + 1, np.int64)
    flat, control = [], []
    for i, ins in enumerate(inputs_of):
        for text in ins:
            c = text.startswith('^')
            name = text[1:] if c else text.partition(':')[0]
            flat.append(index.get(name, -1))
            control.append(c)
        offsets[i + 1] = len(flat)
    blob = '\0'.join(names).encode()
    return len(codes), np.asarray(flat, np.int32), offsets, len(blob)
'''

FULL = COLUMNS + r'''
import sys, time, json
from tensorboard.compat.proto import graph_pb2
t = time.perf_counter()
g = graph_pb2.GraphDef(); g.ParseFromString(open(sys.argv[1], 'rb').read())
parse = time.perf_counter() - t
names, ops, inputs_of = [], [], []
for n in g.node:                     # one pass: each message wrapper made once
    names.append(n.name); ops.append(n.op); inputs_of.append(n.input)
nodes = names
out = columns(names, ops, inputs_of)
print(json.dumps({"parse": parse, "total": time.perf_counter() - t, "nodes": len(nodes)}))
'''

SKELETON = COLUMNS + r'''
import sys, time, json
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
f = descriptor_pb2.FileDescriptorProto(name='skeleton.proto', package='skeleton')
node = f.message_type.add(name='Node')
for number, name, label in ((1, 'name', 1), (2, 'op', 1), (3, 'input', 3), (4, 'device', 1)):
    node.field.add(name=name, number=number, label=label, type=9)
graph = f.message_type.add(name='Graph')
graph.field.add(name='node', number=1, label=3, type=11, type_name='.skeleton.Node')
pool = descriptor_pool.DescriptorPool(); pool.Add(f)
Graph = message_factory.GetMessageClass(pool.FindMessageTypeByName('skeleton.Graph'))
t = time.perf_counter()
g = Graph(); g.ParseFromString(open(sys.argv[1], 'rb').read())
parse = time.perf_counter() - t
names, ops, inputs_of = [], [], []
for n in g.node:                     # one pass: each message wrapper made once
    names.append(n.name); ops.append(n.op); inputs_of.append(n.input)
nodes = names
out = columns(names, ops, inputs_of)
print(json.dumps({"parse": parse, "total": time.perf_counter() - t, "nodes": len(nodes)}))
'''

WIRE = COLUMNS + r'''
import sys, time, json
import numpy as np
t = time.perf_counter()
data = open(sys.argv[1], 'rb').read()
buf = np.frombuffer(data, np.uint8)
starts, ends, pos, n = [], [], 0, len(data)
while pos < n:                       # top level: field 1 (node) records, length-delimited
    key = data[pos]; pos += 1
    length = shift = 0
    while True:
        b = data[pos]; pos += 1
        length |= (b & 0x7F) << shift; shift += 7
        if b < 0x80:
            break
    if key == 0x0A:
        starts.append(pos); ends.append(pos + length)
    pos += length
scan = time.perf_counter() - t
S, E = np.asarray(starts, np.int64), np.asarray(ends, np.int64)


def varints(at):
    """Values and next positions of the varints at positions `at` (up to 5 bytes)."""
    value = np.zeros(len(at), np.int64); nxt = at.copy(); live = np.ones(len(at), bool)
    for k in range(5):
        b = buf[np.minimum(at + k, len(buf) - 1)].astype(np.int64)
        value[live] |= (b[live] & 0x7F) << (7 * k)
        nxt[live] = at[live] + k + 1
        live &= b >= 0x80
        if not live.any():
            break
    return value, nxt


names = [None] * len(S); ops = [None] * len(S); inputs_of = [[] for _ in S]
pos, alive = S.copy(), np.ones(len(S), bool)
for _ in range(64):                  # one field of every node per round
    idx = np.nonzero(alive & (pos < E))[0]
    if not len(idx):
        break
    key, at = varints(pos[idx])
    wire, field = key & 7, key >> 3
    ln, body = varints(at)
    size = np.where(wire == 2, ln, 0)
    nxt = np.where(wire == 2, body + size, np.where(wire == 0, body, at + 8))
    for f_no, sink in ((1, 'name'), (2, 'op'), (3, 'input')):
        m = (field == f_no) & (wire == 2)
        for i, b0, b1 in zip(idx[m].tolist(), body[m].tolist(), (body[m] + size[m]).tolist()):
            text = data[b0:b1].decode()
            if sink == 'name': names[i] = text
            elif sink == 'op': ops[i] = text
            else: inputs_of[i].append(text)
    pos[idx] = nxt
out = columns(names, ops, inputs_of)
print(json.dumps({"parse": scan, "total": time.perf_counter() - t, "nodes": len(S)}))
'''

TODAY = r'''
import sys, time, json
from inspector.core.loaders import load
t = time.perf_counter()
g = load(sys.argv[1]).graph
print(json.dumps({"parse": time.perf_counter() - t, "total": time.perf_counter() - t,
                  "nodes": len(g)}))
'''

OPTIONS = {"full": FULL, "skeleton": SKELETON, "wire": WIRE, "today": TODAY}


def measure(path: str, only: str | None, repeat: int) -> dict:
    """option -> its best figures over `repeat` rounds (the options interleaved)."""
    from bench.scale import child, python_speed

    best: dict = {}
    for _ in range(repeat):
        for name, code in OPTIONS.items():
            if only and name != only:
                continue
            speed = python_speed()
            out, wall, rss = child(code, path)
            row = dict(out, wall=wall, rss=rss, speed=speed)
            old = best.setdefault(name, row)
            for key, value in row.items():
                old[key] = min(old[key], value)
    return best


def main() -> None:
    args = sys.argv[1:]
    only = args[args.index("--only") + 1] if "--only" in args else None
    repeat = int(args[args.index("--repeat") + 1]) if "--repeat" in args else 2
    paths = [a for a in args if a.endswith(".pb")]
    if not paths:
        from tests.fixtures.scale_models import blocks_graph

        paths = [blocks_graph(1_000_000, kernel=1)]
    for path in paths:
        print(f"{path}: {os.path.getsize(path) / 2 ** 20:.0f} MB")
        for name, r in measure(path, only, repeat).items():
            print(f"  {name:9s} parse/scan {r['parse']:6.2f} s, with the columns "
                  f"{r['total']:6.2f} s, process {r['wall']:6.2f} s, peak {r['rss']:5.0f} MB, "
                  f"{r['nodes']:,} nodes (best python_speed {r['speed']:.2f} s)")


if __name__ == "__main__":
    main()
