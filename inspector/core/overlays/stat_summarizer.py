"""Per-node timing statistics from StepStats, aggregated and printed as TensorFlow's
StatSummarizer / benchmark_model do (tables, widths, sort orders and quirks included)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np


class Stat:
    """tsl::Stat<int64>: count, first, newest, min, max, sum, squared sum."""

    def __init__(self):
        self.count = self.first = self.newest = self.sum = self.sq = 0
        self.min = self.max = 0

    def add(self, v: int) -> None:
        if self.count == 0:
            self.first, self.min, self.max = v, v, v
        self.newest = v
        self.min, self.max = min(self.min, v), max(self.max, v)
        self.sum += v
        self.sq += v * v
        self.count += 1

    def avg(self) -> float:
        return self.sum / self.count if self.count else float("nan")

    def all_same(self) -> bool:
        return self.count == 0 or self.min == self.max

    def std(self) -> int:
        if self.all_same():
            return 0
        var = self.sq // self.count - self.avg() * self.avg()
        return int(math.sqrt(max(var, 0.0)))

    def text(self) -> str:
        if self.count == 0:
            return "count=0"
        if self.all_same():
            return f"count={self.count} curr={self.newest}" + ("(all same)" if self.count > 1
                                                                else "")
        return (f"count={self.count} first={self.first} curr={self.newest} min={self.min} "
                f"max={self.max} avg={format(self.avg(), '.6g')} std={self.std()}")


@dataclass
class Detail:
    name: str
    type: str
    run_order: int
    elapsed: Stat = field(default_factory=Stat)
    mem: Stat = field(default_factory=Stat)
    times_called: int = 0


def op_type_from_label(label: str) -> str:
    start = label.find(" = ")
    if start < 0:
        return "<>"
    rest = label[start + 3:]
    end = rest.find("(")
    return rest[:end] if end >= 0 else "<>"


class StatSummarizer:
    def __init__(self):
        self.details: dict = {}
        self.run_total = Stat()
        self.memory = Stat()
        self.runs = 0

    def add_run(self, step_stats) -> None:
        """One traced run (a StepStats proto)."""
        total = mem_total = 0
        order = 0
        for dev in step_stats.dev_stats:
            device = dev.device
            stream = "/stream" in device and "/stream:all" not in device
            if stream or "/host:CPU" in device:
                continue
            for ns in dev.node_stats:
                name, kind = ns.node_name, op_type_from_label(ns.timeline_label)
                if "/memcpy" in device:
                    name, kind = f"{name} [MemCpy]", "gpu:" + name.split(":")[-1]
                elapsed = ns.all_end_rel_micros
                mem = sum(m.total_bytes for m in ns.memory)
                d = self.details.get(name)
                if d is None:
                    d = self.details[name] = Detail(name, kind, order)
                d.elapsed.add(elapsed)
                d.mem.add(mem)
                d.times_called += 1
                total += elapsed
                mem_total += mem
                order += 1
        self.run_total.add(total)
        self.memory.add(mem_total)
        self.runs += 1

    # -- tables -------------------------------------------------------------------------
    def _total_us(self) -> int:
        return self.run_total.sum

    def _rows(self, details, title: str) -> list:
        total = self._total_us() or 1
        out = [f"{'=' * 30} {title} {'=' * 30}",
               "\t" + "\t".join([f"{'[node type]':>40}", f"{'[first]':>9}", f"{'[avg ms]':>9}",
                                 f"{'[%]':>8}", f"{'[cdf%]':>8}", f"{'[mem KB]':>10}",
                                 f"{'[times called]':>9}", "[Name]"])]
        running = 0
        for d in details:
            pct = d.elapsed.sum * 100.0 / total
            running += d.elapsed.sum
            # TF multiplies by 100.0f: the cumulative share is computed in single precision
            cdf = float(np.float32(np.float32(running) * np.float32(100.0)) / np.float32(total))
            out.append("\t" + "\t".join([
                f"{d.type:>40}", f"{d.elapsed.first / 1000.0:9.3f}",
                f"{d.elapsed.avg() / 1000.0:9.3f}", f"{pct:7.3f}%", f"{cdf:7.3f}%",
                f"{d.mem.newest / 1000.0:10.3f}", f"{d.times_called // max(self.runs, 1):9d}",
                d.name]))
        return out + [""]

    def _by(self, key, limit: int) -> list:
        items = sorted(self.details.values(), key=key, reverse=True)
        return items[:limit] if limit else items

    def run_order(self) -> list:
        n = len(self.details)
        return sorted(self.details.values(), key=lambda d: -(n - d.run_order))

    # keys are the values printed as strings, as TF's max-heap compares them; equal keys
    # fall back to the node name (also descending)
    def by_time(self, limit: int = 10) -> list:
        return self._by(lambda d: (f"{d.elapsed.avg():20.10f}", d.name), limit)

    def by_memory(self, limit: int = 10) -> list:
        return self._by(lambda d: (f"{d.mem.avg():20.10f}", d.name), limit)

    def by_type(self) -> list:
        """(type, count, time µs, mem bytes, times called) sorted as TF does."""
        acc: dict = {}
        runs = max(self.runs, 1)
        for d in self.details.values():
            a = acc.setdefault(d.type, [0, 0, 0, 0])
            a[0] += 1
            a[1] += int(d.elapsed.sum / runs)
            a[2] += d.mem.newest
            a[3] += int(d.times_called / runs)
        rows = [(t, *v) for t, v in acc.items()]
        rows.sort(key=lambda r: (r[2], r[0]), reverse=True)
        return rows

    def text(self) -> str:
        lines = self._rows(self.run_order(), "Run Order")
        lines += self._rows(self.by_time(), "Top by Computation Time")
        lines += self._rows(self.by_memory(), "Top by Memory Use")
        lines.append(f"Number of nodes executed: {len(self.details)}")
        lines.append(f"{'=' * 30} Summary by node type {'=' * 30}")
        lines.append("\t" + "\t".join([f"{'[Node type]':>40}", f"{'[count]':>9}",
                                       f"{'[avg ms]':>10}", f"{'[avg %]':>11}",
                                       f"{'[cdf %]':>11}", f"{'[mem KB]':>10}",
                                       f"{'[times called]':>10}"]))
        rows = self.by_type()
        f32 = np.float32
        total = f32(sum(r[2] for r in rows) or 1)
        cdf = f32(0.0)
        for kind, count, us, mem, called in rows:  # this table is computed in float, as in TF
            pct = f32(f32(us) / total) * f32(100.0)
            cdf = f32(cdf + pct)
            lines.append("\t" + "\t".join([
                f"{kind:>40}", f"{count:9d}", f"{float(f32(us) / f32(1000.0)):10.3f}",
                f"{float(pct):10.3f}%", f"{float(cdf):10.3f}%",
                f"{float(f32(mem) / f32(1000.0)):10.3f}", f"{called:9d}"]))
        lines += ["", f"Timings (microseconds): {self.run_total.text()}",
                  f"Memory (bytes): {self.memory.text()}",
                  f"{len(self.details)} nodes observed", ""]
        return "\n".join(lines) + "\n"
