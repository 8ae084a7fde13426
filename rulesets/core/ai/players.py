"""The seat kinds: who may sit at a table instead of a person.

    random     a uniformly random legal choice (the weakest baseline)
    stand-in   the game's `stand_in_choice`: what sits in for a player who left today
    facil      search with a small budget and a short horizon
    medio      more iterations
    dificil    the most iterations, a longer horizon, the knowledge's priors as progressive bias

Each is a pure function of (game, state, seat, seed) — and of the seat's memory where the game's
knowledge reuses one search's tree in the next (memory.py) — so the same input gives the same
choice, and a worker that retries a command gets the same move. Only the search levels need the game's
knowledge (`rulesets.registry.get_knowledge`); every level sees only what its seat may see,
because the search only ever simulates the knowledge's determinizations.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from rulesets.core.ai.knowledge import LEVELS, Budget, Knowledge
from rulesets.core.ai.memory import carry
from rulesets.core.ai.search import Node, search
from rulesets.core.contract import Game
from rulesets.core.rng import _splitmix64

BASELINES = ("random", "stand-in")
SEAT_KINDS = (*BASELINES, *LEVELS)


@dataclass(frozen=True)
class Decision:
    choice: str
    iterations: int = 0  # search iterations run (0: no search, e.g. a forced move or a baseline)
    capped: bool = False  # the search's time safety net fired
    visits: dict[str, int] = field(default_factory=dict)  # the search's root moves and their visits
    # what this seat keeps for its next decision, once this move is played (memory.py)
    memory: Node | None = field(default=None, compare=False, repr=False)


def derive_seed(seed: int, seat: int, kind: str) -> int:
    """One seed per (seed, seat, kind), so two bots at a table never think alike by accident."""
    salt = SEAT_KINDS.index(kind) * 16 + seat
    return _splitmix64(seed ^ _splitmix64(salt + 1))


def decide(game: Game, state: Any, seat: int, kind: str, seed: int, budget: Budget | None = None,
           knowledge: Knowledge | None = None, memory: Node | None = None) -> Decision:
    """The move of a seat of `kind` in `state`. `budget` overrides the level's (tests), `knowledge`
    the game's registered one (bench/solo_bound.py's clairvoyant). `memory`: what the seat's last
    decision left (`Decision.memory`), carried over the moves played since (memory.carry); where the
    knowledge `reuses` it, the search starts from it."""
    if kind not in SEAT_KINDS:
        raise ValueError(f"unknown seat kind {kind!r}; known: {', '.join(SEAT_KINDS)}")
    choices = game.legal_choices(state, seat)
    if not choices:
        raise ValueError(f"seat {seat} has nothing to choose")
    seed = derive_seed(seed, seat, kind)
    if kind == "random":
        return Decision(random.Random(seed).choice(choices))
    if kind == "stand-in":
        return Decision(game.stand_in_choice(state, seat, seed % 1_000_003))
    if len(choices) == 1:
        return Decision(choices[0], memory=memory)  # a forced move is never a node: the memory stays
    if knowledge is None:
        from rulesets.registry import get_knowledge

        knowledge = get_knowledge(game.name)
    reuse = knowledge.reuses(state)
    memory = memory if reuse else None
    considered = knowledge.order(state, seat, choices, kind)
    if len(considered) == 1:
        choice = considered[0][0]
        return Decision(choice, memory=carry(knowledge, memory, state, seat, choice, seat))
    # a decision the tree keeps below its root starts from the memory and leaves its own tree;
    # one it plays by policy there (a minor step) is searched afresh and leaves the memory as it was
    major = knowledge.in_tree(state)
    result = search(knowledge, state, seat, budget or knowledge.budget(kind, state), kind, seed,
                    memory if major else None)
    kept = (result.root if major else memory) if reuse else None
    return Decision(result.choice, result.iterations, result.capped, result.visits,
                    carry(knowledge, kept, state, seat, result.choice, seat))
