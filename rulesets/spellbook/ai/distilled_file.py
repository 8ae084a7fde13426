"""The data file of the distilled offsets (data/ai_distilled.yaml): its schema and its reading.

Apart from distilled.py, which the search runs compiled (rulesets/compiled.py): a pydantic model
must stay a Python class, and read in a compiled module its field types come out as plain `type`.
"""

from __future__ import annotations

import yaml
from pydantic import BaseModel, RootModel

from rulesets.spellbook.data import DATA

PATH = DATA / "ai_distilled.yaml"

Trio = tuple[float, float, float]


class Offset(BaseModel):
    """What one kind of choice adds to the judgement, in value points."""

    stage: Trio = (0.0, 0.0, 0.0)  # at each stage of the game: early, middle, late
    position: Trio = (0.0, 0.0, 0.0)  # times each measure of position(): reserve, Familiar, learned


class Distilled(RootModel[dict[str, dict[str, Offset]]]):
    """decision (a phase or a step) -> kind of choice -> its offset."""


def load() -> dict[str, dict[str, Offset]]:
    with PATH.open(encoding="utf-8") as fh:
        return Distilled.model_validate(yaml.safe_load(fh) or {}).root
