"""json_pieces.loads: json.loads's value and errors, in short C calls (a saved comparison is
read in a task, and one long C call there holds the window as long)."""

import json

import pytest

from inspector.core.runtime import json_pieces


def comparison(entries: int) -> dict:
    """A document shaped as a saved comparison (document.to_dict's keys)."""
    return {"format": "graphdef-inspector diff", "version": 1, "a": "a.pb", "b": "b.pb",
            "counts": {"changed": entries}, "interface": [], "notes": [],
            "renamed_scopes": {f"s{k}": f"t{k}" for k in range(50)},
            "groups": [{"title": "the same change", "members": ["n1", "n2"], "blocks": 1}],
            "entries": [{"status": "changed", "a": f"stage_{k}/w", "b": f"n{k}", "op_a": "Const",
                         "op_b": "Const", "rule": "structure", "confidence": 0.9,
                         "changes": [{"kind": "values", "text": "ü \u2192 \"x\"",
                                      "figures": {"cosine": 0.5}}]} for k in range(entries)],
            "matching": {"pairs": [[f"stage_{k}/w", f"n{k}", "structure"]
                                   for k in range(entries)],
                         "merged": {"m": ["a", "b"]}, "split": {}, "disagreeing": []},
            "unchanged": 12, "quality": None, "equal": False}


@pytest.mark.parametrize("text", [
    json.dumps(comparison(200), indent=1), json.dumps(comparison(20)),
    json.dumps(comparison(3), indent="\t", separators=(" ,\n", " :  ")),
    "[]", "{}", " [ ] ", '{"a": {}, "b": [], "c": [[]], "d": [{}]}', "3", '"x"', "null",
    '{"k": 1, "k": 2}', '[1e400, NaN, -Infinity, 1.5, -0, "\\ud83d\\ude00"]',
    '{"a": [[[[[1]]]]], "b": {"c": {"d": {"e": 1}}}}',
])
def test_the_same_value_as_json_loads(text):
    assert repr(json_pieces.loads(text)) == repr(json.loads(text))     # (NaN != NaN)


@pytest.mark.parametrize("text", [
    "", " ", "[", "{", "[1,]", '{"a":1,}', '{"a" 1}', '{a: 1}', "[1 2]", '{"a":1 "b":2}',
    "[1]]", "{} x", '["\\x"]', '{"entries": [1, 2', "\ufeff{}", "[" * 100, "]",
])
def test_a_malformed_document_raises_a_value_error_as_json_loads_does(text):
    with pytest.raises(ValueError):
        json.loads(text)
    with pytest.raises(ValueError):
        json_pieces.loads(text)


def test_a_document_nested_too_deeply_raises_recursion_error_as_json_loads_does():
    text = '{"entries": [' + "[" * 100_000 + "]" * 100_000 + "]}"
    with pytest.raises(RecursionError):
        json.loads(text)
    with pytest.raises(RecursionError):
        json_pieces.loads(text)


def _watched_spans(monkeypatch) -> list:
    """The length of text each C call of json_pieces reads, appended as it reads."""
    spans, real = [], json_pieces._DECODER

    class Watched:
        def raw_decode(self, s, i):
            value, end = real.raw_decode(s, i)
            spans.append(end - i)
            return value, end

    monkeypatch.setattr(json_pieces, "_DECODER", Watched())
    return spans


def test_a_comparison_is_read_an_entry_at_a_time(monkeypatch):
    """No C call reads more than one entry or pair of a saved comparison: json.loads read
    it all in one (0.7 s with the GIL held for a 300k pair's 110 MB file). Fails on a
    json.loads in one piece."""
    text = json.dumps(comparison(500), indent=1)
    spans = _watched_spans(monkeypatch)
    assert json_pieces.loads(text) == json.loads(text)
    entry = len(json.dumps(comparison(1)["entries"][0], indent=1)) * 2    # (indented deeper)
    # (a run of pairs is one call of at most RUN characters)
    assert len(spans) > 500 and max(spans) <= max(entry, json_pieces.RUN), (max(spans), entry)


def test_a_cancelled_read_stops_within_its_walk(tmp_path):
    """Review of d3faa3e: a hostile 512 MB file of tiny values ('{"entries": [0,0,...]}')
    is walked a value a Python step (~3 us each on a loaded 2-core machine: minutes for
    256M values, json.loads' ~20x), and a superseded or cancelled File > Open comparison,
    or the app's exit, waited for the whole walk. The walk checks its job; the use case
    hands the task's job to it."""
    from inspector.core.app import compare_runs
    from inspector.core.errors import Cancelled
    from inspector.core.runtime.job import Job

    text = '{"format": "graphdef-inspector diff", "entries": [' + ",".join(["0"] * 10_000) + "]}"
    job = Job()
    job.cancel()
    with pytest.raises(Cancelled):
        json_pieces.loads(text, job)
    assert json_pieces.loads(text, Job()) == json.loads(text)
    path = tmp_path / "cmp.json"
    path.write_text(text)

    class Tasks:
        def submit(self, kind, work, done, failed, label=""):
            self.work = work

    tasks = Tasks()
    compare_runs.start_open_document(None, tasks, str(path), None, None, None, None)
    with pytest.raises(Cancelled):
        tasks.work(job)


@pytest.mark.parametrize("text", [
    '{"format": "f", "entries": [[[[' + "0," * 200_000 + "0]]]]}",
    '{"format": "f", "q": {"r": {' + '"k": 0,' * 100_000 + '"k": 1}}}',
])
def test_a_long_container_deeper_than_the_walk_is_read_in_short_calls_too(monkeypatch, text):
    """hostile15: a container below the walked levels was one C call however long it was: a
    200 MB array at depth 4 or an object of 35M keys at depth 2 held the window 3 s and
    1.6 s (File > Open comparison), and Cancel waited for it. One that does not end within
    PIECE characters is walked too. Fails on the old code (one span of the whole)."""
    spans = _watched_spans(monkeypatch)
    assert json_pieces.loads(text) == json.loads(text)
    assert max(spans) <= json_pieces.PIECE, max(spans)


def _generated(seed: int) -> str:
    """A document of long runs of small values (the reads in one call) among everything
    else: nested containers, unicode, escapes, numbers of every form, duplicate keys, strings
    holding commas and brackets; written with one of json.dumps' layouts."""
    import random

    rnd = random.Random(seed)
    words = ["a", "ü", "x,y", "[1]", "{}", 'q"uote', "back\\slash", "\n\t", "\u2192 \U0001f600",
             "", " ", "\x7f", "null", "0"]

    def scalar():
        k = rnd.randrange(9)
        return [0, -0.0, rnd.randrange(-10 ** 6, 10 ** 6), rnd.uniform(-1e9, 1e9), 1e-300,
                rnd.choice([True, False, None]), rnd.choice(words), 12345678901234567890,
                float("inf")][k]

    left = [30_000]         # values still to make: the document stays small

    def value(depth):
        k = rnd.randrange(10 if depth < 6 and left[0] > 0 else 4)
        if k < 4:
            return scalar()
        if k < 6:
            n = rnd.choice([0, 1, 3, 50, 3000])
            left[0] -= n
            return [scalar() for _ in range(n)]
        n = rnd.choice([0, 2, 5, 50])
        left[0] -= n
        if k < 8:
            return [value(depth + 1) for _ in range(n)]
        return {rnd.choice(words + [f"k{n}" for n in range(40)]): value(depth + 1)
                for _ in range(n)}

    doc = {"format": "f", "entries": [value(1) for _ in range(rnd.randrange(1, 8))],
           "zeros": [0] * rnd.choice([1, 5000]), "deep": [[[[scalar() for _ in range(2000)]]]],
           "q": {"r": {f"k{n % 300}": scalar() for n in range(900)}}}
    layout = rnd.choice([{}, {"indent": 1}, {"separators": (",", ":")},
                         {"indent": "\t", "separators": (" ,\n", " :  ")},
                         {"ensure_ascii": False}])
    return json.dumps(doc, **layout)


def _outcome(parse, text):
    try:
        return "value", repr(parse(text))
    except json.JSONDecodeError as exc:
        return "JSONDecodeError", exc.msg, exc.pos
    except (ValueError, RecursionError) as exc:
        return type(exc).__name__, str(exc)


@pytest.mark.parametrize("seed", range(24))
def test_generated_documents_and_their_damaged_copies_read_as_json_loads_reads_them(seed):
    """Runs of small values are decoded many in one call: the values, and for a damaged
    copy (a character taken out, doubled or put in) the error's message and position, are
    json.loads'."""
    import random

    text = _generated(seed)
    assert _outcome(json_pieces.loads, text) == _outcome(json.loads, text)
    rnd = random.Random(seed)
    for _ in range(40):
        k = rnd.randrange(len(text))
        bad = rnd.choice([text[:k] + text[k + 1:], text[:k] + text[k] + text[k:],
                          text[:k] + rnd.choice(',:[]{}"\\ 0e-.ntf\x01') + text[k:]])
        assert _outcome(json_pieces.loads, bad) == _outcome(json.loads, bad), (seed, k)


def test_a_file_of_tiny_values_is_read_in_few_calls(monkeypatch):
    """note14: 2M zeros took 6.6 s against json.loads' 0.37 s, one Python step a value. A
    run of small values is one call of at most RUN characters. Fails on the old code (one
    call a value)."""
    text = '{"format": "f", "entries": [' + ",".join(["0"] * 100_000) + "], " + \
        '"pairs": ' + json.dumps([[f"a/n{k}", f"b/{k}", "name"] for k in range(10_000)]) + \
        ', "q": {' + ",".join(f'"k{k}": {k}' for k in range(10_000)) + "}}"
    spans = _watched_spans(monkeypatch)
    assert repr(json_pieces.loads(text)) == repr(json.loads(text))
    assert len(spans) < len(text) // 1000 and max(spans) <= json_pieces.RUN, \
        (len(spans), max(spans))


def _outcome_placed(parse, text):
    """_outcome with the error's line and column too (load_file places them in the file)."""
    try:
        return "value", repr(parse(text))
    except json.JSONDecodeError as exc:
        return "JSONDecodeError", str(exc), exc.msg, exc.pos, exc.lineno, exc.colno
    except (ValueError, RecursionError) as exc:
        return type(exc).__name__, str(exc)


def _from_file(text: str):
    import io

    return json_pieces.load_file(io.BytesIO(text.encode("utf-8")))


_LONG = [
    '{"a": "' + "x" * 5000 + '"}', "[" + "7" * 5000 + "]", "[1." + "5" * 3000 + "e-12]",
    '{"' + "k" * 3000 + '": 1}', "[1," + " " * 3000 + "2]", "\n" * 500 + "[1, 2]\n" + " " * 300,
    '["' + "é→😀" * 1000 + '"]', '{"a": [1, 2]} ' + "\n" * 300 + "x", '{"a": "' + "x" * 5000,
    "[" + "7" * 5000, '{"' + "k" * 3000, '["' + "x" * 300 + "\\u12", "[" + "9" * 4400 + "]",
    "[" + "1," * 300 + "tru", '{"a":[[[[' + "0," * 3000 + "0]]]]}", "\ufeff[1]", "", "  ",
    '{"format": ' + json.dumps(comparison(30), indent=1) + "}",
]


@pytest.mark.parametrize("seed", range(24))
def test_a_file_read_in_pieces_reads_as_json_loads_reads_its_text(monkeypatch, seed):
    """load_file decodes and parses a file a piece at a time, never one str of it all
    (note15: that decode was a 100-200 ms C call for 200 MB). With pieces of 7 bytes and
    40 characters kept ahead (values longer than that, whitespace runs, multi-byte
    characters cut between pieces, errors at a piece's end), the value or the error (its
    message, position, line and column in the whole text) is json.loads's of the text."""
    import random

    monkeypatch.setattr(json_pieces, "LOOK", 40)
    monkeypatch.setattr(json_pieces, "CHUNK", 7)
    texts = [_generated(seed)] + ([s.replace("\ufeff", "") for s in _LONG] if seed == 0 else [])
    rnd = random.Random(seed)
    for _ in range(20):
        k = rnd.randrange(len(texts[0]))
        text = texts[0]
        texts.append(rnd.choice([text[:k] + text[k + 1:], text[:k] + text[k] + text[k:],
                                 text[:k] + rnd.choice(',:[]{}"\\ 0e-.ntf\x01') + text[k:]]))
    for text in texts:
        assert _outcome_placed(_from_file, text) == _outcome_placed(json.loads, text), text[:80]


def test_a_file_read_in_pieces_skips_a_byte_order_mark_and_refuses_bytes_not_utf8():
    import io

    assert json_pieces.load_file(io.BytesIO(b"\xef\xbb\xbf[1]")) == [1]
    with pytest.raises(UnicodeDecodeError):
        json_pieces.load_file(io.BytesIO(b'["a\xff"]'))
    with pytest.raises(UnicodeDecodeError):        # a character cut at the file's end
        json_pieces.load_file(io.BytesIO('["\u2192'.encode()[:-1]))


def test_release_empties_the_walked_containers_but_those_held_elsewhere():
    """A 200 MB comparison's dicts and lists freed at once were one 330 ms C call: release
    empties them STEP items at a time; one the reader kept (from_dict keeps a map of names)
    is left whole, and what is under it."""
    import io

    text = json.dumps({"entries": [[k, str(k)] for k in range(2000)], "kept": {"a": [1, 2]},
                       "q": {"r": list(range(3000))}})
    walked: list = []
    data = json_pieces.load_file(io.BytesIO(text.encode()), walked=walked)
    kept, entries, r = data["kept"], data["entries"], data["q"]["r"]
    assert any(v is entries for v in walked)
    del data, entries
    json_pieces.release(walked)
    assert kept == {"a": [1, 2]} and r == list(range(3000)) and walked == []


def test_release_leaves_a_held_container_whole_where_getrefcount_counts_no_argument(
        monkeypatch):
    """Python 3.14 passes a local to sys.getrefcount as a borrowed reference: a container
    only a local holds reads 1, not 2. release compared with a fixed 2 and so emptied a
    container held once elsewhere (from_dict's maps of names). Here getrefcount is made to
    count as 3.14 does; fails on 4504ebb's release (the kept dict emptied)."""
    import io
    import sys

    real = sys.getrefcount

    def borrowed(obj):          # (obj here and real's argument: two more than the caller's)
        return real(obj) - 2

    def lone():
        v: list = []
        return sys.getrefcount(v)

    monkeypatch.setattr(sys, "getrefcount", borrowed)
    assert lone() == 1          # counts as 3.14 does
    text = json.dumps({"kept": {"a": [1, 2]}, "other": {"b": [3]}})
    walked: list = []
    data = json_pieces.load_file(io.BytesIO(text.encode()), walked=walked)
    kept = data["kept"]
    del data
    json_pieces.release(walked)
    monkeypatch.undo()
    assert kept == {"a": [1, 2]}
