"""Checks on a built artifact's outputs, for packaging/test-artifact.sh (stdlib + Pillow):
  png FILE              a PNG with a drawing on it (not one colour)
  svg FILE              parses as SVG with drawing elements
  strace LOG            no connect()/sendto() to an IP address (AF_INET/AF_INET6)
  ldd APP_DIR           every bundled ELF finds every library it needs
  size APP_DIR BUDGET   apparent size within 10 % of the recorded size (MB) in BUDGET
Each prints one line and exits 1 on failure."""

import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET


def fail(text: str) -> None:
    print(f"FAILED: {text}")
    sys.exit(1)


def check_png(path: str) -> None:
    from PIL import Image

    image = Image.open(path).convert("RGB")
    colours = image.resize((64, 64)).getcolors(64 * 64)
    if image.width < 100 or image.height < 100 or len(colours) < 10:
        fail(f"{path}: {image.size}, {len(colours)} colours: blank or tiny")
    print(f"png ok: {path} {image.size[0]}x{image.size[1]}, {len(colours)} colours")


def check_svg(path: str) -> None:
    root = ET.parse(path).getroot()
    drawn = sum(1 for el in root.iter() if el.tag.rsplit("}", 1)[-1] in ("path", "text"))
    if not root.tag.endswith("svg") or drawn < 5:
        fail(f"{path}: root {root.tag}, {drawn} drawing elements")
    print(f"svg ok: {path} parses, {drawn} path/text elements")


def check_strace(path: str) -> None:
    calls = [line for line in open(path, errors="replace")
             if re.search(r"\b(connect|sendto|sendmsg)\(", line)]
    ip = [line.strip() for line in calls if "AF_INET" in line]
    if ip:
        fail(f"network calls: {ip[:3]}")
    local = sum("AF_UNIX" in line for line in calls)
    print(f"strace ok: no connect/sendto to an IP address ({len(calls)} socket calls, "
          f"{local} to local AF_UNIX sockets)")


def is_elf(path: str) -> bool:
    try:
        with open(path, "rb") as fh:
            return fh.read(4) == b"\x7fELF"
    except OSError:
        return False


def check_ldd(app: str) -> None:
    """As the bootloader runs them: _internal on LD_LIBRARY_PATH (it sets that)."""
    env = dict(os.environ, LD_LIBRARY_PATH=os.path.join(app, "_internal"))
    missing, count = [], 0
    for folder, _, files in os.walk(app):
        for name in files:
            path = os.path.join(folder, name)
            if os.path.islink(path) or not is_elf(path):
                continue
            count += 1
            out = subprocess.run(["ldd", path], capture_output=True, text=True, env=env)
            missing += [f"{os.path.relpath(path, app)}: {line.strip()}"
                        for line in out.stdout.splitlines() if "not found" in line]
    if missing:
        fail(f"{len(missing)} missing libraries:\n  " + "\n  ".join(missing[:20]))
    print(f"ldd ok: {count} ELF files, every library found")


def apparent_mb(app: str) -> float:
    total = sum(os.lstat(os.path.join(d, f)).st_size for d, _, fs in os.walk(app) for f in fs)
    return total / (1 << 20)


def check_size(app: str, budget_file: str) -> None:
    recorded = float(next(line for line in open(budget_file)
                          if line.strip() and not line.startswith("#")).split()[0])
    size = apparent_mb(app)
    limit = recorded * 1.10
    if size > limit:
        fail(f"light build is {size:.1f} MB, more than 10 % over the recorded {recorded:.1f} "
             f"MB ({budget_file}); shrink it, or record the new size there with the reason")
    print(f"size ok: {size:.1f} MB (recorded {recorded:.1f} MB, limit {limit:.1f} MB)")


if __name__ == "__main__":
    what, args = sys.argv[1], sys.argv[2:]
    {"png": check_png, "svg": check_svg, "strace": check_strace, "ldd": check_ldd,
     "size": check_size}[what](*args)
