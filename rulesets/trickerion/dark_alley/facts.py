"""The Dark Alley's data (rulesets/trickerion/data/dark_alley.yaml, special_assignments.yaml), checked at import."""

from __future__ import annotations

from pathlib import Path

import yaml
from pydantic import BaseModel

from ..data import BOARD

HERE = Path(__file__).parent.parent / "data"
LOCATIONS = ("downtown", "market", "workshop", "theater")


class Special(BaseModel):
    id: str
    location: str
    frame: str


def _load(name: str) -> dict:
    with (HERE / name).open(encoding="utf-8") as fh:
        return yaml.safe_load(fh)


ALLEY: dict = _load("dark_alley.yaml")
SPECIALS: dict[str, Special] = {c["id"]: Special.model_validate(c) for c in _load("special_assignments.yaml")["cards"]}
assert len(SPECIALS) == 40 and all(sum(c.location == loc for c in SPECIALS.values()) == 10 for loc in LOCATIONS)
assert all(c.frame == "any" or c.frame in BOARD.actions or c.frame in ("arquitetar", "apresentar")
           for c in SPECIALS.values())
PERMANENT = "alley"        # the permanent Beco Escuro assignment card (and the location's key)
FREELANCE = ("downtown", "market", PERMANENT, "theater")  # where Freelancer (A25) may send a Workshop card's character
