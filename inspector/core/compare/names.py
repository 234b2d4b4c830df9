"""Tolerant name keys: what stays of a node name once exports have had their way with it
(`import/` prefixes, `_1` suffixes TF adds to clashing scopes, `/read` of old variables)."""

from __future__ import annotations

import re

_SUFFIX = re.compile(r"_\d+$")


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
