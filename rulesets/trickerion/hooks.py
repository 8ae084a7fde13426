"""Where later rule modules (the Dark Alley, the Secret Workshop, the quick game) plug into the base game.

A module is registered under a name and is active in a match when that name is in `State.modules`.
Every hook has a neutral default, so the base game runs with no module at all. The base rules call
them where those modules change the game: the starting hand and anything after the setup; extra
places (with spaces, actions and decision steps) and further places a card may open; assignment
cards of the module's own; the Shard's +1 AP; AP when a character is placed and effects right after;
action costs; the trick levels on offer; decisions of the module's own (e.g. before the
performances); the yield modifiers of a performed trick (applied in order); the start and end of a
round (prophecies, special card discards); the number of rounds; extra end-game score lines."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from rulesets.core import Event, Rng
from rulesets.core.contract import ScoreLine

from .state import State


class Module:
    """Override what the module changes; the defaults change nothing."""

    name = ""

    def places(self, state: State) -> dict[str, Any]:
        """Extra locations a card may name (e.g. the Dark Alley), each an object with the same
        `menu(state, seat)` / `start(state, seat, choice, rng, events)` / `STEPS` as the base places."""
        return {}

    def steps(self, state: State) -> dict[str, tuple]:
        """Decision steps of the module's own (step -> (choices, apply)), e.g. a magician's power
        asked before the performances; a hook sets state.turn/step to one of them."""
        return {}

    def enhance(self, state: State, loc: str, allowed: bool) -> bool:
        """Whether a Shard may buy +1 AP at `loc` (a prophecy lifts the Theater's ban)."""
        return allowed

    def max_trick_level(self, state: State, level: int) -> int:
        """The highest trick level in Dahlgaard's Residence (3 with the Dark Alley)."""
        return level

    def before_performances(self, state: State, rng: Rng, events: list[Event]) -> None:
        return None

    def hand(self, state: State, s: int, hand: dict[str, int]) -> dict[str, int]:
        return hand

    def action_cost(self, state: State, action: str, cost: int) -> int:
        """The AP cost of an action (a prophecy may make one cheaper)."""
        return cost

    def placed(self, state: State, s: int, char: str, space: str, events: list[Event]) -> None:
        """Right after a character is placed (e.g. a magician who gains Fame when placed)."""
        return None

    def card_location(self, state: State, card: str) -> str | None:
        """The location of an assignment card this module adds (special cards); None if not its card."""
        return None

    def more_locations(self, state: State, card: str) -> list[str]:
        """Further locations a card may send a character to (the Secret Workshop takes Workshop cards)."""
        return []

    def after_setup(self, state: State, rng: Rng, events: list[Event]) -> None:
        """After the players' setup and initiative, before round 1 (a quick game starts at round 2).
        It may set state.turn/step to a decision of the module's own: the first round starts after it."""
        return None

    def adjust_initiative(self, state: State, adjust: bool) -> bool:
        """Whether this round starts with Ajustar a Ordem de Iniciativa (a quick game's first round skips it)."""
        return adjust

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
