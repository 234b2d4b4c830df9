"""CLI: `graphdef-inspector sizes MODEL [--by scope|op|dtype] [--depth N] [--json]`: where
the bytes of the file go, the framing remainder, and constants stored twice."""

from __future__ import annotations

import json
import sys

from inspector.cli.loading import _load, of_one_model
from inspector.core.errors import InspectorError


def _mb(n: int) -> str:
    # the unit chosen after rounding: 1,048,575 bytes are "1.00 MB", not "1,024.0 KB";
    # under 1000 bytes, bytes (1000-1023 read "1.0 KB" as before)
    if n < 1000:                      # 42 bytes read "0.0 KB"
        return f"{n:,} B"
    return f"{n / 2 ** 20:,.2f} MB" if round(n / 1024, 1) >= 1024 else f"{n / 1024:,.1f} KB"


@of_one_model
def cmd_sizes(args) -> int:
    from inspector.core.app import sizing

    for flag, value in (("--depth", args.depth), ("--top", args.top)):
        if value < 1:       # (a negative --top sliced the rows from the end, silently)
            raise InspectorError(f"{flag} must be at least 1 (got {value})")
    model = _load(args)
    measured = sizing.measure(model.graph, args.by,     # the rows only: from the columns
                              sizing.file_size_for(model), depth=args.depth)
    s = measured.sizes
    by = measured.by              # op type for "scope" when no name has a scope (its note)
    rows = sizing.biggest_groups(measured, args.depth if by == "scope" else 1)
    dup = None if args.no_duplicates else sizing.duplicates(model.graph)
    if args.json:
        json.dump({"model": args.model, "by": by, "note": measured.note,
                   "file_size": model.file_size,
                   "nodes_total": s.total, "graph_fields": s.other, "remainder": s.remainder,
                   "groups": [{"name": n.rstrip("\0"), "bytes": b, "nodes": k}
                              for n, b, k in rows],
                   "duplicates": [{"bytes_each": size, "nodes": names}
                                  for size, names in (dup.groups if dup else [])],
                   "duplicate_bytes_saved_by_sharing": dup.wasted if dup else 0},
                  sys.stdout, indent=1)
        print()
        return 0
    total = s.total or 1
    print(f"Where the bytes of {args.model} go ({measured.note or 'by ' + by}):")
    for name, size, count in rows[:args.top]:
        nodes = "nodes" if count != 1 else "node "       # the names' column stays put
        print(f"  {_mb(size):>12}  {100 * size / total:5.1f}%  {count:7,d} {nodes}  "
              f"{name.rstrip(chr(0)) or '(top level)'}")
    if len(rows) > args.top:
        rest = sum(r[1] for r in rows[args.top:])
        print(f"  {_mb(rest):>12}  {100 * rest / total:5.1f}%  ... {len(rows) - args.top} "
              "more (--top)")
    print(f"Nodes: {s.total:,} bytes; graph-level fields (library, versions): {s.other:,}")
    if s.file_size:
        print(f"File: {s.file_size:,} bytes; not in any node or field: {s.remainder:,} bytes "
              + (f"({sizing.rest_of_file(model)})" if model.kind == "tflite"
                 else "(protobuf framing)"))
    if dup is not None and dup.groups:
        print(f"Duplicated constants: {_mb(dup.wasted)} in {dup.tensors} tensors "
              f"({len(dup.groups)} sets of equal bytes); sharing one copy of each saves it:")
        for size, names in dup.groups[:5]:
            print(f"  {len(names)} x {_mb(size)}: {', '.join(names[:4])}"
                  + (" ..." if len(names) > 4 else ""))
    elif not args.no_duplicates:
        print("Duplicated constants: none")
    return 0


def add_parsers(sub, add_load_args) -> None:
    p = sub.add_parser("sizes", help="where the bytes go: by scope, op type or dtype, and "
                                     "constants stored twice")
    add_load_args(p)
    p.add_argument("--by", choices=("scope", "op", "dtype"), default="scope")
    p.add_argument("--depth", type=int, default=1, help="scope levels (default 1)")
    p.add_argument("--top", type=int, default=20, help="rows shown (default 20)")
    p.add_argument("--no-duplicates", action="store_true",
                   help="skip the duplicate search (it reads constants of equal length)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_sizes)
