"""What the AI believes the spells are worth (data/ai.yaml, validated here once at import).
Judgement, not rules: the numbers were tuned by tournaments (docs/ai.md)."""

from __future__ import annotations

import yaml
from pydantic import BaseModel, ConfigDict, model_validator

from rulesets.spellbook.data import DATA, SPELLS

Levels = tuple[float, float, float]
ZERO: Levels = (0.0, 0.0, 0.0)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class SpellBelief(_Strict):
    income: Levels | None = None  # Materia a Morning brings, as the Day's Morning action
    bonus: Levels = ZERO  # Materia a Day brings on top (permanent)
    storing: Levels | None = None  # Materia a Midday stores, as the Day's Midday action
    night_storing: Levels | None = None  # stores of a Night action, on Nights not spent learning
    engine: Levels = ZERO  # other points per Day left
    worth: float  # keenness to collect the colour, 0..1


class BaseBelief(_Strict):
    income: float
    storing: float
    colour_share: float


class Evaluation(_Strict):
    """The weights of estimate.py's evaluation (see data/ai.yaml)."""

    store_share: float
    pool: float
    growth: float
    income: float
    night_storing: float


class Beliefs(_Strict):
    base: BaseBelief
    evaluation: Evaluation
    spells: dict[str, SpellBelief]

    @model_validator(mode="after")
    def _every_spell(self) -> Beliefs:
        if set(self.spells) != set(SPELLS):
            raise ValueError("data/ai.yaml must have one entry per spell")
        return self


with (DATA / "ai.yaml").open(encoding="utf-8") as _fh:
    BELIEFS = Beliefs.model_validate(yaml.safe_load(_fh))
BASE = BELIEFS.base
WEIGHTS = BELIEFS.evaluation
SPELL_BELIEFS: dict[str, SpellBelief] = BELIEFS.spells
WORTH: dict[str, float] = {s: b.worth for s, b in SPELL_BELIEFS.items()}


POINTS: dict[str, tuple[int, int, int]] = {s: tuple(SPELLS[s].points) for s in SPELLS}  # type: ignore[misc]
