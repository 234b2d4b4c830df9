"""A diff as a document: JSON out and back in (saved, reopened, exported like a tour), the
text the CLI prints, and the mapping file Model Explorer's side-by-side view reads."""

from __future__ import annotations

import json
import math

from inspector.core.compare.records import STATUSES, Change, Diff, Entry, Group, Matching, Note
from inspector.core.errors import InspectorError
from inspector.core.model.humanize import latency

FORMAT = "graphdef-inspector diff"
VERSION = 1


def to_dict(d: Diff, lazy: bool = False) -> dict:
    """The document; with `lazy`, its entries and pairs are iterators (write_json)."""
    m = d.matching
    entries = ({"status": e.status, "a": e.a, "b": e.b, "op_a": e.op_a, "op_b": e.op_b,
                "rule": e.rule, "confidence": e.confidence,
                "changes": [c.as_dict() for c in e.changes]} for e in d.entries)
    pairs = ([a, b, m.rule.get(a, "")] for a, b in m.b_of.items())
    return {
        "format": FORMAT, "version": VERSION, "a": d.a_label, "b": d.b_label,
        "equal": d.equal, "verdict": d.verdict, "unrelated": d.unrelated, "counts": d.counts(),
        "interface": [c.as_dict() for c in d.interface],
        "totals": d.totals, "notes": [n.as_dict() for n in d.notes],
        "op_histogram": d.op_histogram,
        "renamed_scopes": m.scopes,
        "groups": [{"title": g.title, "members": g.members, "blocks": g.blocks}
                   for g in d.groups],
        "entries": _Many(entries) if lazy else list(entries),
        "quality": d.quality,
        "matching": {"pairs": _Many(pairs) if lazy else list(pairs),
                     "merged": m.merged, "split": m.split,
                     "disagreeing": [list(p) for p in m.disagreeing]},
        "unchanged": d.unchanged,
    }


def _str_dict(value, what: str) -> dict:
    if not isinstance(value, dict) or not all(isinstance(k, str) and isinstance(v, str)
                                              for k, v in value.items()):
        raise InspectorError(f"diff file: '{what}' is not a map of names")
    return value


def from_dict(data: dict) -> Diff:
    """The document back (a file written by this version or a newer one: what it does not
    know is left out). Raises InspectorError naming the part that is wrong."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise InspectorError("not a graphdef-inspector diff file")
    try:
        m = Matching()
        pairs = data["matching"]["pairs"]   # (m.pair each: the three dicts growing at
        #     the same pair held the GIL ~36 ms for a 550k pair's file, 150 on the slow class)
        m.b_of.update((str(a), str(b)) for a, b, _ in pairs)
        m.a_of.update((str(b), str(a)) for a, b, _ in pairs)
        m.rule.update((str(a), str(rule)) for a, _, rule in pairs)
        m.merged = _str_dict(data["matching"].get("merged", {}), "merged")
        m.split = _str_dict(data["matching"].get("split", {}), "split")
        m.scopes = _str_dict(data.get("renamed_scopes", {}), "renamed_scopes")
        m.disagreeing = [_names(p, 2, "disagreeing") for p in
                         data["matching"].get("disagreeing", [])]
        m.unrelated = data.get("unrelated") is True
        entries = [_entry(k, e) for k, e in enumerate(data["entries"])]
        groups = [Group(_said(g["title"]), members, int(g["blocks"]))
                  for g in data.get("groups", [])
                  for members in [[int(k) for k in g["members"] if 0 <= int(k) < len(entries)]]
                  if members]          # a group of no entry of the file is left out
        interface = [_change("interface", {"kind": c["kind"], "text": c["text"]})
                     for c in data.get("interface", [])]
        notes = [Note(_said(n["kind"], WORD), _said(n["text"]), _said(n["side"], WORD),
                      [str(x) for x in n.get("nodes", [])], int(n.get("bytes", 0)),
                      float(n.get("share", 0.0))) for n in data.get("notes", [])]
        return Diff(_said(data["a"], WORD), _said(data["b"], WORD), entries,
                    int(data.get("unchanged", 0)), m,
                    interface, _totals(data.get("totals", {})),
                    _op_counts(data.get("op_histogram", {})), groups,
                    _quality(data.get("quality", {})), notes)
    except (KeyError, TypeError, ValueError, OverflowError, AttributeError) as exc:
        raise InspectorError(f"diff file: a part is malformed ({type(exc).__name__}: {exc})") \
            from None


WORD = 400         # characters of a label, kind, op or figure's name read back (a file name's)
SENTENCE = 4000    # characters of a title or a change's words read back


def _said(value, limit: int = SENTENCE) -> str:
    """A document's words as the window shows them: clipped past `limit` characters. A
    hostile file's 2 MB label, title, note, change or totals name held the comparison
    window's thread 4-48 s (Qt lays the whole text out); a name of the graph is not words
    (pairs, entries' nodes: matched against the models as they are)."""
    text = value if isinstance(value, str) else str(value)
    if len(text) <= limit:
        return text
    return f"{text[:limit - 100]}…({len(text) - limit + 40:,} more characters)…{text[-60:]}"


def _number(v) -> bool:
    """A figure the report can print and subtract: an int or float that a float holds (a
    1e400-digit int is one in JSON, and float(it) raises far from the file)."""
    if not isinstance(v, (int, float)) or isinstance(v, bool):
        return False
    try:
        float(v)
    except OverflowError:
        return False
    return True


def _names(value, count: int, what: str) -> tuple:
    if not isinstance(value, (list, tuple)) or len(value) != count or \
            not all(isinstance(x, str) for x in value):
        raise ValueError(f"'{what}': an item that is not {count} names")
    return tuple(value)


def _totals(value) -> dict:
    """name -> [A's figure, B's]: each a number, a word or nothing (a figure said once)."""
    if not isinstance(value, dict) or not all(
            isinstance(pair, list) and len(pair) == 2 and
            all(x is None or isinstance(x, str) or _number(x) for x in pair)
            for pair in value.values()):
        raise ValueError("'totals' is not a map of names to two figures")
    return {_said(name, WORD): [_said(x, WORD) if isinstance(x, str) else x for x in pair]
            for name, pair in value.items()}


def _op_counts(value) -> dict:
    if not isinstance(value, dict) or not all(
            isinstance(pair, list) and len(pair) == 2 and
            all(isinstance(x, int) and not isinstance(x, bool) and _number(x) for x in pair)
            for pair in value.values()):
        raise ValueError("'op_histogram' is not a map of ops to two counts")
    return value


def _quality(value) -> dict:
    """The matching's figures: shares by rule, the share matched, the disagreeing pairs."""
    shares = value.get("shares", {}) if isinstance(value, dict) else None
    if not isinstance(shares, dict) or not all(_number(v) for v in shares.values()) or \
            not _number(value.get("matched", 0)) or \
            not _number(value.get("disagreeing_pairs", 0)):
        raise ValueError("'quality' is not the matching's figures (shares, matched, "
                         "disagreeing_pairs)")
    return value


def _entry(k: int, e: dict) -> Entry:
    """Entry k of the document, its names and words strings and its figures numbers (what
    the window hashes, joins and multiplies later, far from the file)."""
    words = [e[key] for key in ("status", "a", "b", "op_a", "op_b", "rule")]
    if not all(isinstance(w, str) for w in words):
        raise TypeError(f"entry {k}: a name, op, status or rule that is not a string")
    words[3:] = [_said(w, WORD) for w in words[3:]]
    if words[0] not in STATUSES:
        raise ValueError(f"entry {k}: unknown status {words[0][:40]!r}")
    return Entry(*words, float(e["confidence"]), [_change(f"entry {k}", c) for c in e["changes"]])


def _change(where: str, c: dict) -> Change:
    if not isinstance(c["kind"], str) or not isinstance(c["text"], str):
        raise TypeError(f"{where}: a change whose kind or text is not a string")
    figures = c.get("figures")
    if figures is not None and not (
            isinstance(figures, dict) and all(_number(v) for v in figures.values()) and
            (c["kind"] not in ("values", "quantized") or "changed_share" in figures or
             not figures)):
        raise ValueError(f"{where}: a change's figures are not a map of numbers")
    return Change(_said(c["kind"], WORD), _said(c["text"]), figures)


def dumps(d: Diff) -> str:
    return json.dumps(to_dict(d), indent=1, sort_keys=False)


class _Many:
    """A long list of the document, made while it is written (write_json)."""

    def __init__(self, items):
        self.items = items


_ENCODE = json.JSONEncoder(indent=1).encode
PIECE = 2048          # list items encoded a call


def write_json(d: Diff, write, extra: dict | None = None) -> None:
    """`write` the text of dumps(d) (with `extra`'s keys after the document's), its long
    lists (entries, pairs) made and encoded PIECE items at a time: a 300k-node diff's
    document is never whole in memory, as a dict or as text."""
    doc = to_dict(d, lazy=True)
    doc.update(extra or {})
    _write(doc, 0, write)


def _write(value, level: int, write) -> None:
    pad = "\n" + " " * (level + 1)
    if isinstance(value, _Many):
        first = True
        while True:
            piece = [x for _, x in zip(range(PIECE), value.items)]
            if not piece:
                break
            text = _ENCODE(piece)[3:-2]       # "[\n " and "\n]" off
            write(("[" if first else ",") + pad + text.replace("\n", pad[:-1]))
            first = False
        write("[]" if first else "\n" + " " * level + "]")
    elif isinstance(value, dict) and any(isinstance(v, (_Many, dict)) for v in value.values()):
        write("{" if value else "{}")
        for k, (key, item) in enumerate(value.items()):
            write(("" if not k else ",") + pad + json.dumps(key) + ": ")
            _write(item, level + 1, write)
        if value:
            write("\n" + " " * level + "}")
    else:
        text = _ENCODE(value)
        write(text.replace("\n", "\n" + " " * level) if level else text)


def me_mapping(d: Diff, ids_a, ids_b) -> dict:
    """Model Explorer's sync-navigation data (left = A, right = B) in the node ids its own
    adapters give the two files (ids_a, ids_b: formats.me_ids.Ids): every pair, merge (N:1)
    and split (1:N) as one mapping entry, entries that share an id joined (ME expects each id
    in one entry), nodes ME does not have left out, and no fallback to equal ids (node 7 of
    A is not node 7 of B)."""
    m = d.matching
    entries: dict = {}
    owner: dict = {}                         # A's node -> the entry it sits in
    for a, b in m.b_of.items():
        entries[a], owner[a] = ({a}, {b}), a
    for a, b in m.merged.items():
        key = owner.get(m.a_of.get(b), a)
        left, right = entries.setdefault(key, ({key}, {b}))
        left.add(a)
        right.add(b)
        owner[a] = key
    for b, a in m.split.items():
        key = owner.get(a, a)
        left, right = entries.setdefault(key, ({a}, set()))
        right.add(b)
    joined: list = []                        # [left ids, right ids], joined on any shared id
    where: dict = {}                         # ("L"|"R", id) -> its entry's index in joined
    for left, right in entries.values():
        ids = ({ids_a.of[n] for n in left if n in ids_a.of},
               {ids_b.of[n] for n in right if n in ids_b.of})
        if not ids[0] or not ids[1]:
            continue
        hits = sorted({where[k] for k in [("L", i) for i in ids[0]] +
                       [("R", i) for i in ids[1]] if k in where})
        if hits:
            target = joined[hits[0]]
            for k in hits[1:]:
                target[0] |= joined[k][0]
                target[1] |= joined[k][1]
                joined[k] = None
            target[0] |= ids[0]
            target[1] |= ids[1]
            at = hits[0]
        else:
            joined.append([set(ids[0]), set(ids[1])])
            at = len(joined) - 1
        for side, group in (("L", joined[at][0]), ("R", joined[at][1])):
            where.update({(side, i): at for i in group})
    by_number = lambda i: (len(i), i)        # noqa: E731 - ids are decimal numbers
    return {"mappingEntries": [{"leftNodeIds": sorted(e[0], key=by_number),
                                "rightNodeIds": sorted(e[1], key=by_number)}
                               for e in joined if e is not None],
            "disableMappingFallback": True, "showDiffHighlights": True}


def plain(value: float, sign: str = "") -> str:
    """A float in plain digits, four significant (0.00001440, 1,150; never 1.44e-05)."""
    if value == 0 or not math.isfinite(value):
        return format(value, sign + "g")
    if abs(value) >= 1000:
        return format(value, sign + ",.0f")
    places = max(0, 3 - math.floor(math.log10(abs(value))))
    text = format(value, f"{sign}.{places}f")
    return text.rstrip("0").rstrip(".") if "." in text else text


LATENCY = "latency ms"       # the totals' estimated-latency rows: "latency ms (phone)"


def total_label(name: str) -> str:
    """A totals row's name as read ("latency (phone)"; the key, for JSON, keeps its unit)."""
    return "latency" + name[len(LATENCY):] if name.startswith(LATENCY) else name


def total_figure(name: str, value) -> str:
    """One side's figure of a totals row, as the rest of the app says it (latency in µs/ms:
    "latency ms (phone) 0.06301 -> 0.06493" read as "63 µs -> 64.9 µs")."""
    if name.startswith(LATENCY) and isinstance(value, (int, float)):
        return latency(value)
    return f"{value:,}" if isinstance(value, int) else plain(value) \
        if isinstance(value, float) else str(value)


def _delta(a, b, name: str = "") -> str:
    if b == "" or b is None:
        return str(a)                 # a figure said once ("not counted for a .tflite")
    if not isinstance(a, (int, float)) or not isinstance(b, (int, float)):
        return f"{a} -> {b}"
    change = b - a
    share = f" ({change / a:+.1%})" if a else ""
    if name.startswith(LATENCY):
        return (f"{latency(a)} -> {latency(b)}  {'-' if change < 0 else '+'}"
                f"{latency(abs(change))}{share}")
    return f"{a:,} -> {b:,}  {change:+,}{share}" if isinstance(a, int) and \
        isinstance(b, int) else f"{plain(a)} -> {plain(b)}  {plain(change, '+')}{share}"


def text_report(d: Diff, limit: int = 40) -> str:
    """What the CLI prints: the verdict, the interface, totals, patterns, then the list."""
    counts = d.counts()
    lines = [f"Comparing {d.a_label} with {d.b_label}"]
    if d.equal and d.quality.get("same_file_bytes") and not counts.get("unchanged"):
        lines.append(f"Equal: the two files hold the same bytes "
                     f"({d.totals['file bytes'][0]:,} bytes), nothing changed.")
        return "\n".join(lines) + "\n"
    if d.equal:
        lines.append(f"Equal: {counts.get('unchanged', 0):,} nodes matched, nothing changed.")
        return "\n".join(lines) + "\n"
    parts = [f"{counts[k]:,} {k}" + (f" ({counts['renamed']:,} of them renamed)"
                                     if k == "changed" and counts.get("renamed") else "")
             for k in ("changed", "added", "removed", "merged", "split") if counts.get(k)]
    lines.append("Different: " + ", ".join(parts) + f"; {counts.get('unchanged', 0):,} unchanged")
    if d.unrelated:
        lines.append("Unrelated: these look like different models (under half of A's nodes "
                     "have a counterpart in B); nodes are paired by exact name only, nothing "
                     "is guessed.")
    if d.interface:
        lines.append("\nInterface (what code that loads the model sees):")
        lines += [f"  ! {c.text}" for c in d.interface]
    lines.append("\nTotals:")
    width = max((len(total_label(name)) for name in d.totals), default=8)
    lines += [f"  {total_label(name):{width}s}  {_delta(*pair, name)}"
              for name, pair in d.totals.items()]
    lines += [f"  why: {n.text}" for n in d.notes]
    if d.matching.scopes:
        lines.append("\nRenamed scopes:")
        lines += [f"  {a}/ -> {b}/" for a, b in d.matching.scopes.items()]
    if d.op_histogram:
        lines.append("\nOp counts that changed:")
        lines += [f"  {op:28s} {a:6,} -> {b:,}" for op, (a, b) in
                  sorted(d.op_histogram.items(), key=lambda kv: -abs(kv[1][1] - kv[1][0]))[:15]]
    grouped = {k for g in d.groups for k in g.members}
    if d.groups:
        lines.append("\nRepeated changes:")
        for g in d.groups[:15]:
            lines.append(f"  {g.title}")
            shown = min(3, limit)
            lines += [f"      {d.entries[k].describe()}" for k in g.members[:shown]]
            if len(g.members) > shown:
                lines.append(f"      ... and {len(g.members) - shown} more")
    single = [e for k, e in enumerate(d.entries) if k not in grouped]
    if single:
        lines.append("\nOther changes:")
        lines += [f"  {e.describe()}" for e in single[:limit]]
        if len(single) > limit:
            lines.append(f"  ... and {len(single) - limit} more (--json has them all)")
    q = d.quality
    shares = ", ".join(f"{rule} {share:.0%}" for rule, share in q.get("shares", {}).items())
    lines.append(f"\nMatching: {q.get('matched', 0):.1%} of A's nodes matched ({shares}); "
                 f"{q.get('disagreeing_pairs', 0)} pairs whose neighbours disagree")
    return "\n".join(lines) + "\n"
