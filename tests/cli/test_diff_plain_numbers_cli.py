"""`diff`'s totals in plain digits (issue 45.14: no scientific notation in the CLI): a small
latency change printed as '-1.44e-05' (the demo model against strip/fold/remove_nodes of it)."""

import json
import re

from conftest import DEMO, run_cli


def test_diff_totals_have_no_scientific_notation(tmp_path):
    folded = tmp_path / "folded.pb"
    code, out, err = run_cli("transform", "--in_graph", DEMO, "--out_graph", str(folded),
                             "--inputs", "pixels", "--outputs", "output", "--transforms",
                             "strip_unused_nodes fold_constants(ignore_errors=true) "
                             "remove_nodes(op=Identity)", "--no_metrics")
    assert code == 0, err
    for page in ("text", "html"):
        args = ["--html", str(tmp_path / "d.html")] if page == "html" else []
        code, out, err = run_cli("diff", DEMO, str(folded), *args)
        assert code == 1, err
        if page == "html":
            out = (tmp_path / "d.html").read_text()
            totals = out.split("<h2>Totals")[1].split("</table>")[0]
        else:
            totals = out.split("Totals:")[1].split("\n\n")[0]
        assert not re.search(r"\d[eE][+-]\d", totals), totals
        # latency as the rest of the app says it (µs under 0.1 ms): it read
        # "latency ms (phone)  0.06301 -> 0.06493"; the JSON keeps the key and its numbers
        if page == "text":
            assert re.search(r"latency \(phone\)\s+[\d.]+ [µm]s -> [\d.]+ [µm]s  [+-][\d.]+ "
                             r"[µm]s \([+-][\d.]+%\)", totals), totals
        else:
            assert re.search(r"<td>latency \(phone\)</td><td class='n'>[\d.]+ [µm]s</td>",
                             totals), totals
        assert "latency ms" not in totals, totals
    code, out, err = run_cli("diff", DEMO, str(folded), "--json")
    latency = json.loads(out)["totals"]["latency ms (phone)"]
    assert all(isinstance(v, float) for v in latency), latency
