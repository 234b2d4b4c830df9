"""The diff's records, plain data the document writes and reads back (document.py) with no
graph, matcher or protobuf behind them: a change of a pair, a note on the size, what a tool
says of B's provenance, the matching, an entry of the change list, a pattern and the diff.
A diff of two files with the same bytes is made and written from these alone (the CLI's
`diff A copy-of-A` imports nothing else: app.identical)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from itertools import islice, repeat

from inspector.core.model.inputs import scope_of

CONFIDENCE = {"provenance": 1.0, "structure": 1.0, "top-down": 0.85, "bottom-up": 0.8,
              "name": 0.9, "tolerant name": 0.7, "operand": 0.9, "quantized": 0.95,
              "same constant": 1.0, "interface": 0.9}

STATUSES = ("changed", "added", "removed", "merged", "split")
PIECE = 2048     # items a C call (300k rules in one Counter: ~20 ms; 8192 pairs a dict
#                  update: up to 7 ms, ~30 ms on the slow class)


@dataclass
class Change:
    kind: str        # renamed op attr dtype shape device rewired control values quantized
    text: str
    figures: dict | None = None

    def as_dict(self) -> dict:
        out = {"kind": self.kind, "text": self.text}
        if self.figures:
            out["figures"] = self.figures
        return out


@dataclass
class Note:
    """One explanation of a size change: what, on which side, its nodes and bytes."""

    kind: str                # "control-kept constants"
    text: str
    side: str                # the graph holding the nodes: "A" or "B"
    nodes: list = field(default_factory=list)
    bytes: int = 0
    share: float = 0.0       # bytes / A's size

    def as_dict(self) -> dict:
        return {"kind": self.kind, "text": self.text, "side": self.side, "nodes": self.nodes,
                "bytes": self.bytes, "share": self.share}


@dataclass
class Provenance:
    """What a tool that made B from A says: a -> b it became, a merged into b, b split from a."""

    became: dict = field(default_factory=dict)
    merged: dict = field(default_factory=dict)
    split: dict = field(default_factory=dict)
    source: str = ""                     # "pipeline" or "tflite"


@dataclass
class Matching:
    b_of: dict = field(default_factory=dict)        # a -> b (1:1)
    a_of: dict = field(default_factory=dict)        # b -> a
    rule: dict = field(default_factory=dict)        # a -> rule of its pair
    merged: dict = field(default_factory=dict)      # a -> b it was merged into (N:1)
    split: dict = field(default_factory=dict)       # b -> a it came out of (1:N)
    scopes: dict = field(default_factory=dict)      # renamed scope of A -> scope of B
    disagreeing: list = field(default_factory=list)  # pairs whose inputs are matched elsewhere
    layouts: dict = field(default_factory=dict)     # a -> layout change of its values in B
    unrelated: bool = False                         # different models: no guessed pairs

    def pair(self, a: str, b: str, rule: str) -> None:
        self.b_of[a], self.a_of[b], self.rule[a] = b, a, rule

    def pair_all(self, names_a: list, names_b: list, rule: str) -> None:
        """pair(names_a[k], names_b[k], rule) for each k in order, PIECE pairs a C call."""
        for lo in range(0, len(names_a), PIECE):
            a, b = names_a[lo:lo + PIECE], names_b[lo:lo + PIECE]
            self.b_of.update(zip(a, b))
            self.a_of.update(zip(b, a))
            self.rule.update(zip(a, repeat(rule)))

    def mirrored(self) -> "Matching":
        """This matching read from B's side (B's pairs, A's merges as B's splits and the
        reverse, a weight's layout change kept for its pair in B, marked "<": B's values go
        into A's layout), so that a diff of B and A pairs what one of A and B pairs."""
        b_of = self.b_of
        return Matching(
            b_of=dict(self.a_of), a_of=dict(b_of),
            rule={b_of[a]: rule for a, rule in self.rule.items() if a in b_of},
            merged=dict(self.split), split=dict(self.merged),
            scopes={b: a for a, b in self.scopes.items()},
            disagreeing=[(b, a) for a, b in self.disagreeing],
            layouts={b_of[a]: "<" + layout for a, layout in self.layouts.items() if a in b_of},
            unrelated=self.unrelated)

    def confidence(self, a: str) -> float:
        return CONFIDENCE.get(self.rule.get(a, ""), 0.6)

    def explains_a(self, a: str) -> bool:
        """A's node `a` is accounted for in B (paired, merged into a node, or nodes came out
        of it), not removed; asked once the matching is made."""
        return a in self.b_of or a in self.merged or a in self.split_sources()

    def explains_b(self, b: str) -> bool:
        """B's node `b` is accounted for in A (paired, split out of a node, or nodes were
        merged into it), not added; asked once the matching is made."""
        return b in self.a_of or b in self.split or b in self._merge_targets()

    def _merge_targets(self) -> set:
        found = self.__dict__.get("_merge_targets_memo")
        if found is None or found[0] != len(self.merged):
            found = self.__dict__["_merge_targets_memo"] = (len(self.merged),
                                                       set(self.merged.values()))
        return found[1]

    def split_sources(self) -> dict:
        """{a: [nodes of B split out of a]}, made on first ask (asked once the matching is
        made)."""
        found = self.__dict__.get("_split_sources")
        if found is None or found[0] != len(self.split):
            out: dict = {}
            for b, a in self.split.items():
                out.setdefault(a, []).append(b)
            found = self.__dict__["_split_sources"] = (len(self.split), out)
        return found[1]

    def counterparts_in_b(self, a: str) -> list:
        out = [self.b_of[a]] if a in self.b_of else []
        if a in self.merged:
            out.append(self.merged[a])
        return out + [b for b, src in self.split.items() if src == a and b not in out]

    def counterparts_in_a(self, b: str) -> list:
        out = [self.a_of[b]] if b in self.a_of else []
        out += [a for a, into in self.merged.items() if into == b and a not in out]
        if b in self.split and self.split[b] not in out:
            out.append(self.split[b])
        return out

    def quality(self, a_count: int) -> dict:
        """Share of A's nodes matched by each rule, merged, unmatched; disagreeing pairs."""
        by_rule: Counter = Counter()
        rules = iter(self.rule.values())
        while piece := list(islice(rules, PIECE)):     # a C call a piece: it holds the GIL
            by_rule.update(piece)
        shares = {rule: n / a_count for rule, n in by_rule.most_common()} if a_count else {}
        if self.merged:
            shares["merged"] = len(self.merged) / a_count
        b_of, merged = self.b_of, self.merged     # a node only nodes of B were split out of
        split = len({a for a in self.split.values() if a not in b_of and a not in merged})
        if split:           # (a .tflite's folded constant as A) is explained, not removed
            shares["split"] = split / a_count
        return {"shares": shares, "matched": (len(b_of) + len(merged) + split) / a_count
                if a_count else 1.0, "disagreeing_pairs": len(self.disagreeing)}


@dataclass
class Entry:
    """One line of the change list."""

    status: str                  # changed added removed merged split
    a: str = ""                  # the node in A ("" for added)
    b: str = ""                  # the node in B ("" for removed)
    op_a: str = ""
    op_b: str = ""
    rule: str = ""               # how the pair was matched
    confidence: float = 0.0
    changes: list = field(default_factory=list)   # Change

    @property
    def name(self) -> str:
        return self.a or self.b

    @property
    def scope(self) -> str:
        return scope_of(self.a or self.b)

    def signature(self) -> tuple:
        """What the change is, names left out: entries alike in it are one pattern."""
        changes = self.changes
        if len(changes) == 1 and changes[0].kind != "attr":      # most entries: one change
            return (self.status, self.op_a, self.op_b, (changes[0].kind,), ())
        kinds = tuple(sorted({c.kind for c in changes}))
        attrs = tuple(sorted(c.text.split(":")[0] for c in changes if c.kind == "attr"))
        return (self.status, self.op_a, self.op_b, kinds, attrs)

    def describe(self) -> str:
        if self.status == "added":
            return f"added {self.op_b} '{self.b}'"
        if self.status == "removed":
            return f"removed {self.op_a} '{self.a}'"
        if self.status == "merged":
            return f"{self.op_a} '{self.a}' merged into {self.op_b} '{self.b}'"
        if self.status == "split":
            return f"{self.op_b} '{self.b}' split out of {self.op_a} '{self.a}'"
        rest = [c.text for c in self.changes if c.kind != "renamed"]
        if self.a != self.b and not rest:
            return f"renamed '{self.a}' -> '{self.b}'"
        name = self.a if self.a == self.b else f"{self.a} -> {self.b}"
        return f"{name}: " + "; ".join(rest)


@dataclass
class Group:
    """Entries with the same change: one line that opens to its members."""

    title: str
    members: list                # indices into Diff.entries
    blocks: int                  # distinct scopes they sit in


@dataclass
class Diff:
    a_label: str
    b_label: str
    entries: list                # Entry: every node that is not unchanged
    unchanged: int
    matching: Matching
    interface: list              # Change, the interface first
    totals: dict                 # name -> [A, B]
    op_histogram: dict           # op -> [A, B], where they differ
    groups: list                 # Group
    quality: dict
    notes: list = field(default_factory=list)    # explain.Note: why the size changed
    numeric: object = None       # a saved comparison's Run both result (numeric.Divergence)
    left_out: str = ""           # what of a saved comparison was malformed and left out

    @property
    def equal(self) -> bool:
        return not self.entries and not self.interface and not self.matching.scopes

    @property
    def unrelated(self) -> bool:
        """Too little of A has a counterpart in B: different models, compared by name only."""
        return self.matching.unrelated

    @property
    def verdict(self) -> str:
        return "equal" if self.equal else "unrelated" if self.unrelated else "different"

    def counts(self) -> dict:
        """Entries by status, renamed pairs and unchanged ones (counted once: a diff does not
        change once made)."""
        cached = self.__dict__.get("_counts")
        if cached is None:
            out = Counter(e.status for e in self.entries)
            renamed = 0         # (a loop: a generator an entry cost ~0.2 s at 300k)
            for e in self.entries:
                for c in e.changes:
                    if c.kind == "renamed":
                        renamed += 1
                        break
            out["renamed"] = renamed
            out["unchanged"] = self.unchanged
            cached = self.__dict__["_counts"] = dict(out)
        return dict(cached)
