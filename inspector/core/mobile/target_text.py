"""A target report's figures in words and units, never scientific notation: the headline a
reader wants first (time of one inference, SRAM, flash, cycles, MACs), then the others, each
named. The CLI and the window's Target report both print these."""

from __future__ import annotations

from inspector.core.model.humanize import milliseconds

HEADLINE = ("inference_time_s", "inferences_per_second", "sram_used_kib",
            "off_chip_flash_used_kib", "cycles_total", "cycles_npu", "macs")
NAMES = {"vela_npu_operators": "NPU operators (Vela's count)",
         "vela_cpu_operators": "CPU operators (Vela's count)",
         "vela_npu_percent": "NPU share (Vela's count)",
         "vela_cpu_percent": "CPU share (Vela's count)",
         "per_layer_npu_operators": "NPU operators (per-layer CSV)",
         "per_layer_cpu_operators": "CPU operators (per-layer CSV)",
         "per_layer_npu_percent": "NPU share (per-layer CSV)",
         "xnnpack_partitions": "XNNPACK partitions", "quantized_graph": "quantized graph",
         "system_config": "system config", "memory_mode": "memory mode"}


def kib(value: float) -> str:
    """KiB as the unit a reader takes in: 512 KiB, 1.4 MiB."""
    if value >= 1024:
        return f"{value / 1024:,.1f} MiB"
    return f"{value:,.1f} KiB" if value < 100 else f"{value:,.0f} KiB"


def count(value: float) -> str:
    """12,345; 1.2 million; 3.4 billion."""
    value = float(value)
    for size, word in ((1e9, "billion"), (1e6, "million")):
        if abs(value) >= size:
            return f"{value / size:,.1f} {word}"
    return f"{value:,.0f}"


def duration(seconds: float) -> str:
    ms = seconds * 1000.0
    return milliseconds(ms) if ms >= 1 else f"{ms * 1000:,.1f} µs"


def headline(figures: dict) -> str:
    """One line: time of one inference, SRAM, flash, cycles and MACs ("" when the report has
    none of them: list-based and XNNPACK reports)."""
    parts = []
    if "inference_time_s" in figures:
        rate = figures.get("inferences_per_second")
        parts.append(f"{duration(figures['inference_time_s'])} per inference" +
                     (f" ({count(rate)} per second)" if rate else ""))
    if "sram_used_kib" in figures:
        parts.append(f"SRAM {kib(figures['sram_used_kib'])}")
    if "off_chip_flash_used_kib" in figures:
        parts.append(f"flash {kib(figures['off_chip_flash_used_kib'])}")
    if "cycles_total" in figures:
        npu = figures.get("cycles_npu")
        parts.append(f"{count(figures['cycles_total'])} cycles" +
                     (f" ({count(npu)} on the NPU)" if npu is not None else ""))
    if "macs" in figures:
        parts.append(f"{count(figures['macs'])} MACs")
    return " · ".join(parts)


def value(key: str, found) -> str:
    if isinstance(found, bool):
        return "yes" if found else "no"
    if key.endswith("_percent"):
        return f"{found:.1f} %"
    if isinstance(found, (int, float)):
        return count(found) if float(found).is_integer() else f"{found:,.2f}"
    return str(found)


def other_figures(figures: dict) -> list:
    """(name, value) of the figures the headline does not give, in the report's order."""
    return [(NAMES.get(k, k.replace("_", " ")), value(k, v)) for k, v in figures.items()
            if k not in HEADLINE]
