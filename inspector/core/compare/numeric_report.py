"""A numeric comparison ("Run both on the same input", `diff --numeric`) as a part of the
comparison's HTML report: the first node past the threshold and the nodes that moved most."""

from __future__ import annotations

from html import escape


def _snr(value: float) -> str:
    return "equal" if value == float("inf") else f"{value:.1f} dB"


def numeric_html(divergence, worst: int = 15) -> str:
    """The section: what was compared, the first divergent node, the `worst` nodes by SNR
    and what could not be compared. `divergence` is core.compare.numeric.Divergence (or
    anything with its fields)."""
    per_node = getattr(divergence, "per_node", {}) or {}
    first = getattr(divergence, "first", "")
    threshold = getattr(divergence, "threshold", 0.0)
    engines = [e for e in getattr(divergence, "engines", ()) or () if e]
    layers = getattr(divergence, "layers", {}) or {}
    out = ["<h2>Both run on the same input</h2>",
           f"<p>{len(per_node):,} matched tensors compared; threshold: peak-relative error (max|B - A| / max|A|) "
           f"{threshold:g}. " + (f"First activation past it: <code>{escape(first)}</code>."
                                 if first else "No activation past it.") +
           (" Ran A in " + escape(engines[0]) + ", B in " + escape(engines[1]) + "."
            if len(engines) == 2 else "") + "</p>"]
    constant = getattr(divergence, "constant", set()) or set()    # weights: listed apart
    rows = sorted(((n, m) for n, m in per_node.items() if n not in constant),
                  key=lambda kv: kv[1].get("snr_db", 0.0))[:worst]
    if rows:
        out.append("<table><tr><th>node (A)</th><th>SNR</th><th>cosine</th>"
                   "<th>peak-relative error</th></tr>" + "".join(
                       f"<tr><td><code>{escape(name)}</code>"
                       + (f" ({escape(layers[name])})" if name in layers else "") + "</td>"
                       f"<td class='n'>{_snr(m.get('snr_db', 0.0))}</td>"
                       f"<td class='n'>{m.get('cosine', 0.0):.6f}</td>"
                       f"<td class='n'>{m.get('peak_rel_error', 0.0):.3g}</td></tr>"
                       for name, m in rows) + "</table>")
    if constant:
        out.append(f"<p class='small'>And {len(constant):,} weights or nodes computed from "
                   "weights only (no input reaches them), compared too.</p>")
    skipped = getattr(divergence, "skipped", []) or []
    if skipped:
        out.append("<p class='small'>Not compared: " + "; ".join(
            f"<code>{escape(str(n))}</code> ({escape(str(why))})" for n, why in skipped[:10]) +
            (f"; and {len(skipped) - 10:,} more" if len(skipped) > 10 else "") + "</p>")
    return "\n".join(out)


def with_numeric(page: str, divergence) -> str:
    """The report page with the numeric section at the end of its main part."""
    if divergence is None:
        return page
    section = numeric_html(divergence)
    at = page.rfind("</main>")
    return page[:at] + section + page[at:] if at >= 0 else page + section
