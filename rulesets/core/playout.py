"""Random playouts: play a whole game with uniformly random legal choices.

Used by `boardgamesbot engine simulate`, the benchmarks and the invariant tests. The
chooser has its own generator (derived from the seed) so it never disturbs the game's.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rulesets.core.contract import FinalScore, Game
from rulesets.core.gc_pause import gc_paused
from rulesets.core.match import Match, act, new_match, state_hash
from rulesets.registry import get_game

Check = Callable[[Game, Match], None]
_NONE: dict[int, list[str]] = {}  # no menus kept (read only)


class PlayoutStuck(Exception):
    """A game that did not end within the action budget: a rules bug."""


@dataclass
class PlayoutResult:
    match: Match
    score: FinalScore
    actions: int

    def summary(self) -> dict[str, Any]:
        by_seat = sorted(self.score.seats, key=lambda s: s.seat)
        return {
            "game": self.match.game,
            "seed": self.match.seed,
            "players": self.match.players,
            "options": self.match.options,
            "scores": [s.total for s in by_seat],
            "winners": self.score.winners,
            "actions": self.actions,
            "end_reason": self.score.end_reason,
            "state_hash": state_hash(self.match),
        }


def random_playout(game: Game | str, players: int, seed: int, options: dict[str, Any] | None = None,
                   check: Check | None = None, max_actions: int = 20_000) -> PlayoutResult:
    """Play one game to its end. `check(game, match)` runs after setup and every action."""
    with gc_paused():
        return _playout(get_game(game) if isinstance(game, str) else game, players, seed, options, check,
                        max_actions)


def _playout(game: Game, players: int, seed: int, options: dict[str, Any] | None, check: Check | None,
             max_actions: int) -> PlayoutResult:
    match = new_match(game, options or {}, players, seed)
    chooser = random.Random(seed * 7919 + 17)
    if check:
        check(game, match)
    # chooser.choice(x) is x[chooser._randbelow(len(x))] (the same draws), without its Python frame
    below = chooser._randbelow
    settled = game.settled
    actions = 0
    while not game.is_over(match.state):
        if actions >= max_actions:
            raise PlayoutStuck(f"{game.name} seed {seed}: no end after {max_actions} actions")
        state = match.state
        # the game may have asked who acts and listed their menus at the end of the last move (nothing
        # changed the state since)
        kept = settled(state)
        seats, menus = kept if kept is not None else (game.to_act(state), _NONE)
        if not seats:
            raise PlayoutStuck(f"{game.name} seed {seed}: nobody to act but the game is not over")
        seat = seats[below(len(seats))]
        choices = menus.get(seat) or game.legal_choices(state, seat)
        if not choices:
            raise PlayoutStuck(f"{game.name} seed {seed}: seat {seat} must act but has no choice")
        match, _ = act(match, seat, choices[below(len(choices))], inplace=True, legal=choices)
        actions += 1
        if check:
            check(game, match)
    return PlayoutResult(match=match, score=game.score(match.state), actions=actions)
