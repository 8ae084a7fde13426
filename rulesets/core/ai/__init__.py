"""AI players: information-set Monte Carlo tree search over each game's knowledge.

    choose(match, seat, level, seed) -> choice id     the entry point for the workers

`level` is a seat kind (players.SEAT_KINDS): "random", "stand-in", "facil", "medio", "dificil".
The result is deterministic for a given (match, seat, level, seed) and depends only on what
`seat` may see (see search.py). docs/ai.md explains the search, the knowledge and the figures.
"""

from __future__ import annotations

from rulesets.core.ai.knowledge import LEVELS, Budget, Knowledge, SearchRng, final_rewards, standing
from rulesets.core.ai.players import SEAT_KINDS, Decision, decide
from rulesets.core.match import Match


def choose(match: Match, seat: int, level: str, seed: int) -> str:
    """The move a seat of kind `level` makes now in `match` (it must be that seat's turn)."""
    from rulesets.registry import get_game

    game = get_game(match.game)
    if seat not in game.to_act(match.state):
        raise ValueError(f"seat {seat} is not to act in this {match.game} game")
    return decide(game, match.state, seat, level, seed).choice


__all__ = ["LEVELS", "SEAT_KINDS", "Budget", "Decision", "Knowledge", "SearchRng", "choose", "decide",
           "final_rewards", "standing"]
