"""The data file of the solo evaluation's fit (data/ai_solo_value.yaml): its schema.

Apart from solo_value.py, which the search runs compiled (rulesets/compiled.py): a pydantic model
must stay a Python class, and declared in a compiled module its field types come out as plain `type`.
"""

from __future__ import annotations

from pydantic import BaseModel


class Spread(BaseModel):
    """How far the margins fell from the fit (one standard deviation): at_start + per_day · Days played."""

    at_start: float
    per_day: float


class SoloValue(BaseModel):
    """The fit: margin ≈ bias + Σ weight·measure + Σ by_day·measure·days."""

    bias: float
    weight: dict[str, float]
    by_day: dict[str, float]
    spread: Spread
