"""AI players: information-set Monte Carlo tree search over each game's knowledge.

    choose(match, seat, level, seed) -> choice id     the entry point for the workers
    think(match, seat, level, seed, memory) -> Decision   the same, with the seat's memory of its
                                                          last search (memory.py) in and out

`level` is a seat kind (players.SEAT_KINDS): "random", "stand-in", "facil", "medio", "dificil".
The result is deterministic for a given (match, seat, level, seed) and depends only on what
`seat` may see (see search.py). docs/ai.md explains the search, the knowledge and the figures.
"""

from __future__ import annotations

from rulesets.core.ai.knowledge import LEVELS, Budget, Knowledge, SearchRng, final_rewards, standing
from rulesets.core.ai.players import SEAT_KINDS, Decision, decide
from rulesets.core.ai.search import Node
from rulesets.core.match import Match


def choose(match: Match, seat: int, level: str, seed: int) -> str:
    """The move a seat of kind `level` makes now in `match` (it must be that seat's turn)."""
    return think(match, seat, level, seed).choice


def think(match: Match, seat: int, level: str, seed: int, memory: Node | None = None) -> Decision:
    """`choose`, starting from what the seat's last decision left (`Decision.memory`, carried over
    the moves since) and saying what this one leaves."""
    from rulesets.registry import get_game

    game = get_game(match.game)
    if seat not in game.to_act(match.state):
        raise ValueError(f"seat {seat} is not to act in this {match.game} game")
    return decide(game, match.state, seat, level, seed, memory=memory)


__all__ = ["LEVELS", "SEAT_KINDS", "Budget", "Decision", "Knowledge", "Node", "SearchRng", "choose", "decide",
           "final_rewards", "standing", "think"]
