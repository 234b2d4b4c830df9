"""`diff --json` written as a stream (compare.document.write_json): the same text as the
whole document's json.dumps, made a piece at a time, so a 300k-node diff's document is never
one dict or one text in memory."""

import json

from inspector.core.compare import document
from inspector.core.compare.diff import diff_graphs
from inspector.core.loaders import load
from tests.core.test_compare_scale import renamed_shuffled
from tests.fixtures.scale_models import blocks_graph


def _streamed(d, extra=None) -> list:
    parts: list = []
    document.write_json(d, parts.append, extra)
    return parts


def test_the_streamed_json_is_the_documents_text_and_comes_in_pieces(monkeypatch):
    ga = load(blocks_graph(3000, 0)).graph
    for gb in (renamed_shuffled(ga)[0], load(blocks_graph(3000, 1)).graph, ga):
        d = diff_graphs(ga, gb)
        assert "".join(_streamed(d)) == document.dumps(d)
        extra = {"numeric": {"per_node": {"a": {"snr_db": float("inf")}}, "first": None}}
        assert "".join(_streamed(d, extra)) == json.dumps(
            dict(json.loads(document.dumps(d)), **extra), indent=1)
    monkeypatch.setattr(document, "PIECE", 100)
    d = diff_graphs(ga, renamed_shuffled(ga)[0])
    parts = _streamed(d)
    text = "".join(parts)
    assert text == document.dumps(d) and len(d.entries) > 2000
    assert max(map(len, parts)) < len(text) / 20      # no part is the document


def test_an_empty_list_and_an_unequal_pair_stream_as_dumps_writes_them():
    d = diff_graphs(load(blocks_graph(3000, 0)).graph, load(blocks_graph(3000, 0)).graph)
    assert d.equal and not d.entries
    assert "".join(_streamed(d)) == document.dumps(d)
