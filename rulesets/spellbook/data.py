"""The game's data files (data/*.yaml), validated with pydantic once, at import.

Materia are plain ints everywhere: kind = colour * 3 + rune, so 21 kinds with 5 tokens each.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, field_validator, model_validator

DATA = Path(__file__).parent / "data"

Phase = Literal["morning", "midday", "night", "none"]
Kind = Literal["action", "instant", "permanent", "endgame", "none"]
RuneName = Literal["circle", "triangle", "square"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class SpellData(_Strict):
    id: str
    colour: str
    set: int
    phase: Phase
    points: tuple[int, int, int]  # at levels 3, 4, 5
    kinds: tuple[Kind, Kind, Kind]
    runes: tuple[RuneName, RuneName, RuneName] | None = None

    @field_validator("set")
    @classmethod
    def _set(cls, v: int) -> int:
        if v not in (1, 2, 3):
            raise ValueError("set is 1, 2 or 3")
        return v

    def points_at(self, level: int) -> int:
        return self.points[level - 3]



class FamiliarData(_Strict):
    spaces: tuple[int, ...]
    full: int


class TrackData(_Strict):
    spaces: tuple[int, ...]
    full: int
    altar_reset: tuple[int, ...]


class AltarData(_Strict):
    start: int
    spaces: int
    solo: int


class MateriaData(_Strict):
    colours: tuple[str, ...]
    runes: tuple[RuneName, ...]
    per_colour_and_rune: int
    pool_limit: int
    start_pool: int
    altar: AltarData


class BoardData(_Strict):
    familiar: FamiliarData
    solo_track: TrackData


class SpellFile(_Strict):
    spells: tuple[SpellData, ...]


class GameData(_Strict):
    materia: MateriaData
    board: BoardData
    spells: tuple[SpellData, ...]

    @model_validator(mode="after")
    def _consistent(self) -> GameData:
        colours = self.materia.colours
        ids = [s.id for s in self.spells]
        if len(set(ids)) != len(ids):
            raise ValueError("spell ids must be unique")
        for s in self.spells:
            if s.colour not in colours:
                raise ValueError(f"{s.id}: unknown colour {s.colour}")
        for colour in colours:
            sets = sorted(s.set for s in self.spells if s.colour == colour)
            if sets != [1, 2, 3]:
                raise ValueError(f"colour {colour} needs exactly one spell in each set, has {sets}")
        fam = self.board.familiar.spaces
        if list(fam) != sorted(fam) or self.board.familiar.full <= fam[-1]:
            raise ValueError("Familiar values must rise")
        return self


def _load(name: str) -> dict:
    with (DATA / name).open(encoding="utf-8") as fh:
        return yaml.safe_load(fh)


GAME_DATA = GameData(materia=MateriaData.model_validate(_load("materia.yaml")),
                     board=BoardData.model_validate(_load("board.yaml")),
                     spells=SpellFile.model_validate(_load("spells.yaml")).spells)

COLOURS: tuple[str, ...] = GAME_DATA.materia.colours
RUNES: tuple[str, ...] = GAME_DATA.materia.runes
NCOL, NRUNE = len(COLOURS), len(RUNES)
NKIND = NCOL * NRUNE
PER_KIND = GAME_DATA.materia.per_colour_and_rune
TOTAL_MATERIA = NKIND * PER_KIND
POOL_LIMIT = GAME_DATA.materia.pool_limit
START_POOL = GAME_DATA.materia.start_pool
ALTAR_START = GAME_DATA.materia.altar.start
ALTAR_SPACES = GAME_DATA.materia.altar.spaces
ALTAR_SOLO = GAME_DATA.materia.altar.solo
FAMILIAR = GAME_DATA.board.familiar
FAMILIAR_SPACES = len(FAMILIAR.spaces)
TRACK = GAME_DATA.board.solo_track
TRACK_SPACES = len(TRACK.spaces)

SPELLS: dict[str, SpellData] = {s.id: s for s in GAME_DATA.spells}
COLOUR_INDEX = {c: i for i, c in enumerate(COLOURS)}
SPELL_COLOUR: dict[str, int] = {s.id: COLOUR_INDEX[s.colour] for s in GAME_DATA.spells}
RUNE_INDEX = {r: i for i, r in enumerate(RUNES)}
SPELLS_BY_COLOUR: list[list[str]] = [
    [s.id for s in sorted(GAME_DATA.spells, key=lambda s: s.set) if s.colour == c] for c in COLOURS]
SET_SPELLS: dict[int, list[str]] = {n: [lst[n - 1] for lst in SPELLS_BY_COLOUR] for n in (1, 2, 3)}


KIND_IDS: list[str] = [f"{COLOURS[k // NRUNE]}_{RUNES[k % NRUNE]}" for k in range(NKIND)]
KIND_BY_ID = {name: k for k, name in enumerate(KIND_IDS)}


def level_runes(spell: str, level: int) -> set[int]:
    """Runes allowed by a rune-naming phase spell used at `level` (lower levels included)."""
    runes = SPELLS[spell].runes or ()
    return {RUNE_INDEX[r] for r in runes[: level - 2]}
