"""What a recipe row's figures mean, said beside them: which kernels ran for which figure,
a top-1 agreement that a constant output makes meaningless, and a recipe whose file is
byte-identical to another's (it is not a point of its own on the Pareto chart). Pure numpy."""

from __future__ import annotations

from inspector.core.runtime.lazy_import import later

np = later("numpy", globals(), "np")     # not imported before the app's first picture

# The two ways a .tflite runs here, named wherever a figure comes from one of them.
DEFAULT_KERNELS = "XNNPACK (LiteRT's default runtime)"
BUILTIN_KERNELS = "LiteRT's builtin kernels without XNNPACK (every tensor kept)"

# What each recipe puts in lower precision beyond another: int4-blockwise differs from
# dynamic only in FULLY_CONNECTED weights.
ONLY_IN = {"int4-blockwise": ("dynamic", "FULLY_CONNECTED")}


def _constant(arrays: list) -> bool:
    """Every sample's first output holds one value (its argmax is always the first)."""
    return bool(arrays) and all(np.asarray(a).size and np.ptp(np.asarray(a)) == 0
                                for a in arrays)


def degenerate_top1(reference: list, candidate: list, output: dict) -> list:
    """Notes for a top-1 agreement that says nothing: a constant first output (every class
    scores the same) on either side, or answers orthogonal to the graph's (cosine 0)."""
    notes = []
    ref = [r[0] for r in reference if r]
    got = [g[0] for g in candidate if g]
    for arrays, whose in ((ref, "the TF graph's"), (got, "this file's")):
        if _constant(arrays):
            notes.append(f"top-1 is meaningless: {whose} output is constant (every class "
                         "scores the same, so its top-1 is always the first)")
            break
    cosine = output.get("cosine")
    if cosine is not None and abs(cosine) < 1e-6 and not notes:
        notes.append("top-1 is meaningless: the answers are orthogonal to the TF graph's "
                     "(output cosine 0)")
    return notes


def same_files(rows: list, float_model: bytes | None = None) -> None:
    """Mark each row whose file is byte-identical to an earlier row's (`same_as`), with a note
    that says why when the recipe's only difference is an op the model lacks."""
    seen: dict = {}
    for row in rows:
        if row.model is None or row.same_as:
            continue
        first = seen.setdefault(row.model, row)
        if first is row:
            continue
        row.same_as = first.recipe
        why = ""
        base, op = ONLY_IN.get(row.recipe, ("", ""))
        if base == first.recipe and op not in row.ops:
            why = f": the model has no {op}, the only op it quantizes differently"
        row.notes.append(f"byte-identical to {first.recipe}'s file{why}; not a point of "
                         "its own on the Pareto chart")
