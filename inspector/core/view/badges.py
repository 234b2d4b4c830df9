"""Constants drawn as badges on the node that consumes them: what the badge says (a small
constant's values, else its shape)."""

from __future__ import annotations

from dataclasses import dataclass

from inspector.core.model import tensors


@dataclass
class Badge:
    name: str
    dtype: str
    shape: str
    count: int
    value: str = ""      # the values of a small constant ("127.5", "299, 299"), else ""

    def text(self) -> str:
        """What the badge says: a small constant's value (the normalisation numbers a mobile
        developer needs), else its shape."""
        if not self.value:
            return self.shape
        return self.value if self.shape == "[]" else f"{self.shape} {self.value}"


SMALL_CONSTANT = 4  # elements: shown as values on the badge


def small_value(tensor_proto) -> str:
    """The values of a constant with at most SMALL_CONSTANT elements, short; "" otherwise or
    when they cannot be decoded."""
    if tensors.element_count(tensor_proto) > SMALL_CONSTANT:
        return ""
    try:
        values = tensors.head(tensor_proto, SMALL_CONSTANT)
    except (ValueError, TypeError, OverflowError):
        return ""
    out = []
    for v in values.tolist():
        if isinstance(v, bytes):
            v = v[:12].decode("utf-8", "replace")
            out.append(repr(v))
        elif isinstance(v, float):
            out.append(f"{v:.4g}")
        else:
            out.append(str(v))
    return ", ".join(out)
