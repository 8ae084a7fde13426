"""The game's data (rulesets/trickerion/data/*.yaml), validated with pydantic at import."""

from __future__ import annotations

from functools import cached_property
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, Field, model_validator

HERE = Path(__file__).parent / "data"
Category = Literal["spiritual", "mechanical", "optical", "escape"]
CATEGORIES: tuple[str, ...] = ("spiritual", "mechanical", "optical", "escape")


class Yields(BaseModel):
    fame: int = 0
    coins: int = 0
    shards: int = 0


class Trick(BaseModel):
    id: str
    category: Category
    level: int
    threshold: int
    prepare_ap: int
    markers: int
    components: dict[str, int]
    yields: Yields
    components_bga: dict[str, int] | None = None
    end_game_bonus: dict | None = None

    @model_validator(mode="after")
    def _sane(self):
        assert self.level in (1, 2, 3) and self.threshold == {1: 1, 2: 16, 3: 36}[self.level]
        assert 1 <= self.prepare_ap <= 3 and 1 <= self.markers <= 4
        assert (self.end_game_bonus is not None) == (self.level == 3)
        return self


class Link(BaseModel):
    between: tuple[str, str]
    shard: bool


class PerfCard(BaseModel):
    id: str
    theater: Literal["riverside", "grand_magorian", "magnus_pantheon"]
    slots: list[str]
    links: list[Link]
    bonus: Yields

    @model_validator(mode="after")
    def _tree(self):
        assert len(self.links) == len(self.slots) - 1, self.id
        assert sum(link.shard for link in self.links) == 1, self.id
        for link in self.links:
            a, b = link.between
            assert a in self.slots and b in self.slots and _direction(a, b) is not None, self.id
        return self

    @cached_property
    def neighbours(self) -> dict[str, list[tuple[int, str, int]]]:
        """slot -> [(direction towards the other slot, other slot, link index)]."""
        out: dict[str, list[tuple[int, str, int]]] = {s: [] for s in self.slots}
        for i, link in enumerate(self.links):
            a, b = link.between
            out[a].append((_direction(a, b), b, i))
            out[b].append((_direction(b, a), a, i))
        return out


def _direction(a: str, b: str) -> int | None:
    """0 up, 1 right, 2 down, 3 left: where slot b lies seen from slot a (orthogonal neighbours)."""
    ax, ay = (int(v) for v in a.split("."))
    bx, by = (int(v) for v in b.split("."))
    return {(0, -1): 0, (1, 0): 1, (0, 1): 2, (-1, 0): 3}.get((bx - ax, by - ay))


class Space(BaseModel):
    ap: int
    from_players: int


class Location(BaseModel):
    enhance: bool
    spaces: list[Space] = []


class Day(BaseModel):
    key: str
    backstage_ap: int
    backstage_spaces: int
    yield_: int = Field(alias="yield")  # added to Fame and coin yields of tricks performed that day


class CharacterKind(BaseModel):
    ap: int
    wage: int


class Component(BaseModel):
    key: str
    tier: Literal["basic", "advanced", "superior"]
    cost: int


class Beginner(BaseModel):
    trick: str
    components: dict[str, int]
    specialist: Literal["assistant", "engineer", "manager"]
    manager_components: dict[str, int] = {}
    engineer_trick: str | None = None


class Magician(BaseModel):
    id: str
    category: Category


class Board(BaseModel):
    rounds: int
    start: dict
    initiative_spaces: dict[int, list[int]]
    advertise: dict[str, int]
    categories: list[Category]
    characters: dict[str, CharacterKind]
    apprentice_discs: int
    specialists: list[str]
    backstage_bonus: dict[str, Yields]
    workshop: dict[str, int]
    hand: dict[str, int]
    locations: dict[str, Location]
    days: list[Day]
    actions: dict[str, int]
    dice: dict[str, list[str | int]]
    components: list[Component]
    market: dict
    performance_deck: list[str]
    magicians: list[Magician]
    beginner: dict[Category, Beginner]
    scoring: dict[str, int]

    @model_validator(mode="after")
    def _sane(self):
        assert tuple(self.categories) == CATEGORIES
        assert [d.key for d in self.days] == ["thursday", "friday", "saturday", "sunday"]
        assert all(len(f) == 6 for f in self.dice.values())
        return self


def _load(name: str) -> dict:
    with (HERE / name).open(encoding="utf-8") as fh:
        return yaml.safe_load(fh)


TRICKS: dict[str, Trick] = {t["id"]: Trick.model_validate(t) for t in _load("tricks.yaml")["tricks"]}
CARDS: dict[str, PerfCard] = {c["id"]: PerfCard.model_validate(c) for c in _load("performance_cards.yaml")["cards"]}
BOARD: Board = Board.model_validate(_load("board.yaml"))
assert len(TRICKS) == 48 and len(CARDS) == 28

BASE_TRICKS: tuple[str, ...] = tuple(t.id for t in TRICKS.values() if t.level < 3)
COMPONENTS: dict[str, Component] = {c.key: c for c in BOARD.components}
COMPONENT_KEYS: tuple[str, ...] = tuple(COMPONENTS)
MAGICIANS: dict[str, Magician] = {m.id: m for m in BOARD.magicians}
DAYS = BOARD.days
COST = BOARD.actions
# The six Town Center dice: two of Dahlgaard's Residence, two of the Inn, two of the Bank.
DICE: dict[str, list[str]] = {
    "r0": [str(f) for f in BOARD.dice["residence"]], "r1": [str(f) for f in BOARD.dice["residence"]],
    "i0": [str(f) for f in BOARD.dice["inn_a"]], "i1": [str(f) for f in BOARD.dice["inn_b"]],
    "b0": [str(f) for f in BOARD.dice["bank"]], "b1": [str(f) for f in BOARD.dice["bank"]],
}
DIE_IDS: tuple[str, ...] = tuple(DICE)
