"""Run a command on an emulated machine of the slow class: this machine, throttled by Linux
CPU cgroups until its Python loop takes as long as on the slowest 2-core machines we get
(0.88 s for `scale.python_speed()`; 0.2-0.25 s on a fast one).

Default (per thread): every thread of the command and of the processes it starts gets a
cgroup of its own with a CFS quota (a share of every 5 ms period), found and moved there
within ~10 ms of its start by this script; the threads run on both CPUs. Each thread then
runs at the slow machine's speed, and a GUI thread waiting for the GIL gets it as fast as on
two real cores. Work of more than two busy threads at once runs faster than on two slow
cores (the TensorFlow worker's thread pools): say so where that matters.

--one-cpu N: the whole command shares one CPU (N) at that share. Right for single-threaded
work; for several threads it is slower than the real thing (every GIL hand-over waits for
the scheduler), so a budget met there is met on the machine.

    sudo .venv/bin/python bench/slow_class.py [--target 0.88] [--one-cpu 1] -- CMD ARGS...

Needs root and cgroup v1's `cpu` controller (and `cpuset` for --one-cpu); says so in one
line and exits where they are missing. Prints the calibrated quota and the Python speed
measured inside before it runs the command."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PERIOD_US = 5_000      # the shortest period whose quota stays over 1 ms
V1 = "/sys/fs/cgroup/cpu"
SPEED = (f"import sys; sys.path.insert(0, {HERE!r}); from scale import python_speed; "
         "print(python_speed())")


def _write(path: str, text: str) -> bool:
    try:
        with open(path, "w") as f:
            f.write(text)
        return True
    except OSError:
        return False


def _make(path: str, share: float | None = None) -> str:
    try:
        os.makedirs(path, exist_ok=True)
    except PermissionError as exc:
        raise SystemExit(f"slow_class: cannot make a cgroup ({exc.filename}): run as root")
    if share is not None:
        _write(os.path.join(path, "cpu.cfs_period_us"), str(PERIOD_US))
        _write(os.path.join(path, "cpu.cfs_quota_us"), str(max(1000, int(PERIOD_US * share))))
    return path


class OneCpu:
    """The whole command on one CPU with one quota."""

    def __init__(self, cpu: int):
        self.cpu = _make(os.path.join(V1, f"graphdef-inspector-slow-cpu{cpu}"))
        self.cpuset = os.path.join("/sys/fs/cgroup/cpuset", f"graphdef-inspector-slow-cpu{cpu}")
        _make(self.cpuset)
        _write(os.path.join(self.cpuset, "cpuset.cpus"), str(cpu))
        _write(os.path.join(self.cpuset, "cpuset.mems"), "0")
        self.share = 1.0

    def quota(self, share: float) -> None:
        self.share = share
        _make(self.cpu, share)

    def run(self, cmd: list, **kwargs) -> subprocess.CompletedProcess:
        joins = "; ".join(f"echo $$ > {os.path.join(p, 'cgroup.procs')}"
                          for p in (self.cpu, self.cpuset))
        return subprocess.run(["sh", "-c", f'{joins}; exec "$@"', "sh", *cmd], **kwargs)

    def close(self) -> None:
        pass


class PerThread:
    """Every thread in a cgroup of its own, each with the quota."""

    def __init__(self):
        self.root = _make(os.path.join(V1, f"graphdef-inspector-slow-{os.getpid()}"))
        self.groups: list = []          # paths, reused once their thread is gone
        self.share = 1.0

    def quota(self, share: float) -> None:
        self.share = share
        for g in self.groups:
            _make(g, share)

    def _group(self, k: int) -> str:
        while len(self.groups) <= k:
            self.groups.append(_make(os.path.join(self.root, f"t{len(self.groups)}"),
                                     self.share))
        return self.groups[k]

    def run(self, cmd: list, **kwargs) -> subprocess.CompletedProcess:
        first = self._group(0)
        capture = kwargs.pop("capture_output", False)
        if capture:
            kwargs.update(stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        proc = subprocess.Popen(["sh", "-c", f'echo $$ > {first}/tasks; exec "$@"', "sh",
                                 *cmd], **kwargs)
        placed: dict = {}               # tid -> group index
        while proc.poll() is None:
            self._place(proc.pid, placed)
            time.sleep(0.01)
        out, err = proc.communicate()
        check = kwargs.get("check")
        if check and proc.returncode:
            raise subprocess.CalledProcessError(proc.returncode, cmd, out, err)
        return subprocess.CompletedProcess(cmd, proc.returncode, out, err)

    def _place(self, pid: int, placed: dict) -> None:
        tids = set()
        pending = [pid]
        while pending:
            p = pending.pop()
            try:
                for tid in os.listdir(f"/proc/{p}/task"):
                    tids.add(int(tid))
                    with open(f"/proc/{p}/task/{tid}/children") as f:
                        pending += [int(c) for c in f.read().split()]
            except OSError:
                continue
        for gone in set(placed) - tids:
            del placed[gone]
        used = set(placed.values())
        free = (k for k in range(10_000) if k not in used)
        for tid in sorted(tids - set(placed)):
            k = next(free)
            if _write(os.path.join(self._group(k), "tasks"), str(tid)):
                placed[tid] = k

    def close(self) -> None:
        for g in reversed(self.groups):
            try:
                os.rmdir(g)
            except OSError:
                pass
        try:
            os.rmdir(self.root)
        except OSError:
            pass


def calibrate(group, target: float) -> tuple[float, float]:
    """A share of one CPU under which the Python loop takes about `target` seconds."""
    outside = float(subprocess.run([sys.executable, "-c", SPEED], capture_output=True,
                                   text=True, check=True).stdout)
    share = min(1.0, outside / target)
    for _ in range(5):               # the throttled loop varies by ~15 % from run to run
        group.quota(share)
        inside = float(group.run([sys.executable, "-c", SPEED], capture_output=True,
                                 text=True).stdout)
        if abs(inside - target) / target < 0.08:
            break
        share = min(1.0, share * inside / target)
    return share, inside


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--target", type=float, default=0.88,
                        help="seconds for the Python loop on the emulated machine")
    parser.add_argument("--one-cpu", type=int, default=None, metavar="N",
                        help="the whole command on CPU N (0 or 1) instead of per thread")
    parser.add_argument("cmd", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    cmd = args.cmd[1:] if args.cmd[:1] == ["--"] else args.cmd
    if not cmd:
        parser.error("no command given (slow_class.py -- CMD ARGS...)")
    if not os.path.exists(os.path.join(V1, "cpu.cfs_quota_us")):
        raise SystemExit("slow_class: no cgroup v1 cpu controller here (/sys/fs/cgroup/cpu)")
    group = PerThread() if args.one_cpu is None else OneCpu(args.one_cpu)
    try:
        share, inside = calibrate(group, args.target)
        where = "each thread" if args.one_cpu is None else f"CPU {args.one_cpu}"
        print(f"slow class: {where} at {100 * share:.0f} % of a CPU (quota "
              f"{int(PERIOD_US * share)} us per {PERIOD_US} us); Python loop inside "
              f"{inside:.2f} s (target {args.target:.2f} s)", flush=True)
        os.environ["SLOW_CLASS_SHARE"] = f"{share:.3f}"   # what each thread gets (stall_watch)
        code = group.run(cmd).returncode
    finally:
        group.close()
    sys.exit(code)


if __name__ == "__main__":
    main()
