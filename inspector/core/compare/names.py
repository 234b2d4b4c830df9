"""Tolerant name keys: what stays of a node name once exports have had their way with it
(`import/` prefixes, `_1` suffixes TF adds to clashing scopes, `/read` of old variables); and
the scopes a matching shows renamed as a whole."""

from __future__ import annotations

import re
from collections import Counter

from inspector.core.model.graph import scope_parts

_SUFFIX = re.compile(r"_\d+$")
PIECE = 8192          # items counted a C call


def tolerant_key(name: str) -> str:
    """'import/model_1/dense_2/MatMul' -> 'model/dense/MatMul'."""
    while name.startswith("import/"):
        name = name[len("import/"):]
    if name.endswith("/read"):
        name = name[:-len("/read")]
    return "/".join(_SUFFIX.sub("", part) for part in name.split("/"))


def relative_scope(a_name: str, b_name: str, scope: str) -> str | None:
    """The scope of B that plays the role of `scope` of A for this pair: b's name minus the part
    of a's name below `scope` ('model/x/y', 'model_1/x/y', 'model' -> 'model_1'), or None when
    the rest of the names differ."""
    rest = a_name[len(scope):]              # '/x/y'
    if not rest or not b_name.endswith(rest):
        return None
    return b_name[:-len(rest)] or None


def renamed_scopes(m) -> dict:
    """Scopes of A whose matched nodes mostly sit under another name in B (at least half of
    them, and more than one): only the outermost of nested renames is kept."""
    tally: dict = {}
    same: list = []                   # pairs that kept their name: the scope of each
    lost: list = []                   # renamed down to the node's own name: no scope explains it
    for a, b in m.b_of.items():
        if a == b:
            same.append(a.rpartition("/")[0])
            continue
        where, _, own = a.rpartition("/")
        if own != b.rpartition("/")[2]:
            lost.append(where)
            continue
        parts = scope_parts(a)
        for k in range(1, len(parts) + 1):
            scope = "/".join(parts[:k])
            tally.setdefault(scope, Counter())[relative_scope(a, b, scope)] += 1
    if not tally:
        return {}
    same, lost = _counted(same), _counted(lost)     # (counted per scope first)
    for counts, same_name in ((same, True), (lost, False)):
        for where, n in counts.items():
            parts = where.split("/") if where else []
            for k in range(1, len(parts) + 1):
                scope = "/".join(parts[:k])
                tally.setdefault(scope, Counter())[scope if same_name else None] += n
    renamed: dict = {}
    for scope in sorted(tally, key=lambda s: (s.count("/"), s)):
        counts = tally[scope]
        there, n = counts.most_common(1)[0]
        if there is None or there == scope or n < 2 or n * 2 < sum(counts.values()):
            continue
        parent = next((p for p in renamed if scope.startswith(p + "/")), None)
        if parent is not None and there == renamed[parent] + scope[len(parent):]:
            continue
        renamed[scope] = there
    return renamed


def _counted(items: list) -> Counter:
    """Counter(items), PIECE items a C call (each holds the GIL)."""
    out: Counter = Counter()
    for lo in range(0, len(items), PIECE):
        out.update(items[lo:lo + PIECE])
    return out


def explained_by_scope(m, a: str, b: str) -> bool:
    """The pair's names differ only by a renamed scope."""
    for scope, there in m.scopes.items():
        if a.startswith(scope + "/") and b == there + a[len(scope):]:
            return True
    return False
