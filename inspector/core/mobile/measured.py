"""What a conversion preview (tflite_preview.Preview) and a recipe report
(recipes.RecipeReport) share: the result shape around their rows."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(kw_only=True)
class Measured:
    """How many representative samples, where they came from, warnings, and the
    interpreter that ran the .tflite files (keyword-only: each report puts its rows first)."""
    samples: int = 0
    sample_source: str = ""
    warnings: list = field(default_factory=list)
    engine: str = ""
