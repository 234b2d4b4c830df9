"""CLI: `graphdef-inspector memmapped MODEL -o OUT` writes a frozen graph as a memory-mapped
package (weights mapped on the phone, not copied); `memmapped --check FILE` lists a package's
regions and checks them (exit 2 and one line when anything is wrong)."""

from __future__ import annotations

import sys

from inspector.cli.loading import _load, of_one_model
from inspector.core.errors import InspectorError


@of_one_model
def cmd_memmapped(args) -> int:
    if args.check:
        return _check(args.check)
    if not args.output:
        raise InspectorError("give -o OUT to write a package, or --check FILE to check one")
    from inspector.core.app.exports import check_target, write_memmapped

    check_target(args.output, args.force, source=args.model)
    model = _load(args)
    written = write_memmapped(model.graph, args.output, args.min_bytes, args.force,
                              source=args.model)
    print(f"Wrote {args.output}: {len(written.regions)} constant regions "
          f"({written.mapped_bytes / 2 ** 20:.2f} MB mapped on the phone instead of copied "
          f"to the heap; estimate), file {written.file_size:,} bytes.")
    return 0


def _check(path: str) -> int:
    from inspector.core.app.exports import check_memmapped, memmapped_regions

    package, problems = check_memmapped(path)
    print(f"{path}: {len(package.regions)} regions, directory at byte "
          f"{package.directory_offset:,} of {package.size:,}")
    print(f"  {'offset':>12}  {'bytes':>12}  {'dtype':<8} {'shape':<18} region <- node")
    for name, offset, length, node, dtype, dims in memmapped_regions(path):
        shape = "" if dtype == "graph" else str(list(dims))
        reader = f" <- {node}" if node else ""
        print(f"  {offset:>12,}  {length:>12,}  {dtype:<8} {shape:<18} {name}{reader}")
    print(f"Mapped constants: {package.tensor_bytes / 2 ** 20:.2f} MB (RAM the mapping "
          "saves, an estimate: these bytes stay in the page cache instead of being copied "
          "to the heap)")
    for line in problems:
        print(f"PROBLEM: {line}")
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise InspectorError(f"{problems[0]}{more}", path=path)
    print("OK: regions aligned, in order, inside the file, uniquely named and as long as "
          "their nodes need.")
    sys.stdout.flush()
    return 0


def add_parsers(sub, add_load_args) -> None:
    p = sub.add_parser("memmapped", help="write a frozen graph as a memory-mapped package, "
                                         "or --check one")
    add_load_args(p)
    p.add_argument("-o", "--output", help="the package to write")
    p.add_argument("--check", metavar="FILE", help="check a package instead")
    p.add_argument("--min-bytes", type=int, default=10000,
                   help="constants this big are mapped (default 10000, as TF's tool)")
    p.add_argument("--force", action="store_true", help="overwrite an existing output file")
    p.set_defaults(func=cmd_memmapped)
