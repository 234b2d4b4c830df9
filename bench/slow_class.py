"""Run a command on an emulated machine of the slow class: this machine, throttled by a Linux
CPU cgroup until its Python loop takes as long as on the slowest 2-core machines we get
(0.88 s for `scale.python_speed()`; 0.2-0.25 s on a fast one).

The emulation is one CPU (cpuset) with a CFS quota of a share of every 10 ms period, so every
thread and process of the command shares a fraction of one core. For single-threaded Python
(the GUI thread, the diff, a pure-Python pipeline, start-up) that is the slow machine's speed;
for work spread over two processes (the GUI and the TensorFlow worker at once) it is slower
than the real thing: a budget met here is met there.

    sudo .venv/bin/python bench/slow_class.py [--target 0.88] [--cpu 1] -- CMD ARGS...

Needs root and the cgroup v1 `cpu` and `cpuset` controllers (or v2 with `cpu.max`); says so
in one line and exits 2 where they are missing. Prints the calibrated quota and the Python
speed measured inside before it runs the command."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PERIOD_US = 10_000
NAME = "graphdef-inspector-slow"      # + "-cpuN": one group per CPU, so two runs can share
SPEED = (f"import sys; sys.path.insert(0, {HERE!r}); from scale import python_speed; "
         "print(python_speed())")


class Cgroup:
    """One CPU, a CFS quota; v1 (cpu + cpuset hierarchies) or v2 (one unified hierarchy)."""

    def __init__(self, cpu: int = 0):
        name = f"{NAME}-cpu{cpu}"
        v1 = "/sys/fs/cgroup/cpu"
        v2 = "/sys/fs/cgroup"
        if os.path.exists(os.path.join(v1, "cpu.cfs_quota_us")):
            self.cpu = os.path.join(v1, name)
            cpuset_root = "/sys/fs/cgroup/cpuset"
            self.cpuset = os.path.join(cpuset_root, name) if os.path.isdir(cpuset_root) else None
            self.v2 = False
        elif os.path.exists(os.path.join(v2, "cgroup.controllers")):
            self.cpu = self.cpuset = os.path.join(v2, name)
            self.v2 = True
        else:
            raise SystemExit("slow_class: no CPU cgroup controller here (/sys/fs/cgroup)")
        try:
            for path in {self.cpu, self.cpuset} - {None}:
                os.makedirs(path, exist_ok=True)
            if self.cpuset:
                first = _write(os.path.join(self.cpuset, "cpuset.cpus"), str(cpu))
                if not self.v2 and first:
                    _write(os.path.join(self.cpuset, "cpuset.mems"), "0")
        except PermissionError as exc:
            raise SystemExit(f"slow_class: cannot make a cgroup ({exc.filename}): run as root")

    def quota(self, share: float) -> None:
        quota = max(1000, int(PERIOD_US * share))
        if self.v2:
            _write(os.path.join(self.cpu, "cpu.max"), f"{quota} {PERIOD_US}")
        else:
            _write(os.path.join(self.cpu, "cpu.cfs_period_us"), str(PERIOD_US))
            _write(os.path.join(self.cpu, "cpu.cfs_quota_us"), str(quota))

    def run(self, cmd: list, **kwargs) -> subprocess.CompletedProcess:
        """Runs CMD inside the group (the shell joins it, then becomes CMD)."""
        joins = "; ".join(f"echo $$ > {os.path.join(p, 'cgroup.procs')}"
                          for p in sorted({self.cpu, self.cpuset} - {None}))
        return subprocess.run(["sh", "-c", f'{joins}; exec "$@"', "sh", *cmd], **kwargs)


def _write(path: str, text: str) -> bool:
    try:
        with open(path, "w") as f:
            f.write(text)
        return True
    except OSError:
        return False


def calibrate(group: Cgroup, target: float) -> tuple[float, float]:
    """A share of one CPU under which the Python loop takes about `target` seconds."""
    outside = float(subprocess.run([sys.executable, "-c", SPEED], capture_output=True,
                                   text=True, check=True).stdout)
    share = min(1.0, outside / target)
    for _ in range(5):               # the throttled loop varies by ~15 % from run to run
        group.quota(share)
        inside = float(group.run([sys.executable, "-c", SPEED], capture_output=True,
                                 text=True, check=True).stdout)
        if abs(inside - target) / target < 0.08:
            break
        share = min(1.0, share * inside / target)
    return share, inside


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--target", type=float, default=0.88,
                        help="seconds for the Python loop on the emulated machine")
    parser.add_argument("--cpu", type=int, default=0, help="the CPU to run on (0 or 1)")
    parser.add_argument("cmd", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    cmd = args.cmd[1:] if args.cmd[:1] == ["--"] else args.cmd
    if not cmd:
        parser.error("no command given (slow_class.py -- CMD ARGS...)")
    group = Cgroup(args.cpu)
    share, inside = calibrate(group, args.target)
    print(f"slow class: one CPU at {100 * share:.0f} % (quota {int(PERIOD_US * share)} us per "
          f"{PERIOD_US} us); Python loop inside {inside:.2f} s (target {args.target:.2f} s)",
          flush=True)
    sys.exit(group.run(cmd).returncode)


if __name__ == "__main__":
    main()
