"""`diff`'s totals in plain digits (issue 45.14: no scientific notation in the CLI): a small
latency change printed as '-1.44e-05' (the demo model against strip/fold/remove_nodes of it)."""

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
        assert "latency ms" in totals
        assert not re.search(r"\d[eE][+-]\d", totals), totals
