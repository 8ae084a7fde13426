"""Where later rule modules (the Dark Alley, promos, variants) plug into the base game.

A module is registered under a name and is active in a match when that name is in `State.modules`.
Every hook has a neutral default, so the base game runs with no module at all. The base rules call
these functions at the points the Dark Alley changes: the locations a card may name and the
starting hand, AP when a character is placed, the yield modifiers of a performed trick (applied in
a chosen order), the start and end of a round (prophecies, special card discards), the number of
rounds, and extra end-game score lines (level-3 tricks)."""

from __future__ import annotations

from collections.abc import Iterator

from rulesets.core import Event, Rng
from rulesets.core.contract import ScoreLine

from .state import State


class Module:
    """Override what the module changes; the defaults change nothing."""

    name = ""

    def locations(self, state: State) -> list[str]:
        return []

    def hand(self, state: State, s: int, hand: dict[str, int]) -> dict[str, int]:
        return hand

    def placement_ap(self, state: State, s: int, char: str, loc: str) -> int:
        return 0

    def yield_modifiers(self, state: State, owner: int, performer: int, tid: str) -> list[int]:
        return []

    def start_round(self, state: State, rng: Rng, events: list[Event]) -> None:
        return None

    def end_round(self, state: State, rng: Rng, events: list[Event]) -> None:
        return None

    def rounds(self, state: State, rounds: int) -> int:
        return rounds

    def score_lines(self, state: State, s: int) -> list[ScoreLine]:
        return []


REGISTRY: dict[str, Module] = {}


def register(module: Module) -> None:
    REGISTRY[module.name] = module


def active(state: State) -> Iterator[Module]:
    for name in state.modules:
        yield REGISTRY[name]
