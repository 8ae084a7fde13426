"""What a game tells the search about itself: its `Knowledge`, one object per game.

The search (search.py) is game-agnostic: it only calls the rules contract (`to_act`,
`legal_choices`, `apply`, `is_over`, `score`) and the methods below, never a game's internals.
A game's knowledge lives in its own folder (`rulesets/<game>/ai.py`) and is found through
`rulesets.registry.get_knowledge`.

    determinize(state, seat, rng) -> state   a copy whose hidden parts are re-sampled from what
                                             `seat` may know (the only state the search touches)
    evaluate(state) -> [value per seat]      at a cut: each seat's standing in 0..1 (see `standing`)
    policy(state, seat, choices, rng) -> str the rollout's move: quick and reasonable
    order(state, seat, choices, level)       the choices worth searching at a tree node, best
          -> [(choice, prior 0..1)]          first (pruning, progressive bias)
    horizon(state) -> int                    a clock: how many horizon boundaries (Days, rounds)
                                             have passed; a rollout stops once it has risen by
                                             the level's `horizon`
    apply(state, seat, choice, rng)          the rules' apply, possibly a fast path (no log text)
    effort(state, seat, choices) -> 0..1     the share of the level's iterations this decision
                                             deserves (minor steps need fewer)
    settles(state) -> bool                   whether close calls may be played to the end here
                                             (levels whose budget has `settle`)
    budget(level, state) -> Budget           iterations etc. per level (calibrated per game; the
                                             state lets a game think harder where it pays)
    reuses(state) -> bool                    whether a search here starts from the subtree its seat's
                                             last search left (memory.py)

Determinism: every random number the search uses comes from the `SearchRng` it is handed,
seeded by the caller, so the same input gives the same choice.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, MutableSequence, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from rulesets.core.ai.shuffle import shuffle as fisher_yates
from rulesets.core.contract import FinalScore, Game
from rulesets.core.rng import Rng

T = TypeVar("T")

LEVELS = ("facil", "medio", "dificil")


@dataclass(frozen=True)
class Budget:
    """How hard one level thinks. Counted in iterations, never in seconds, so a choice is a pure
    function of its input; `time_cap_s` is only a safety net (the tournament reports how often
    it fired, which should be never). The cap counts this process's CPU time, not the wall
    clock, so a busy machine does not make it fire (and change a choice)."""

    iterations: int
    horizon: int = 1  # rollouts stop after this many horizon boundaries (Days, rounds)
    exploration: float = 0.7  # UCT's constant, rewards being in 0..1
    bias: float = 0.0  # weight of the knowledge's prior (progressive bias), fading with visits
    max_rollout: int = 400  # actions in one rollout before it is cut whatever the horizon says
    settle: int = 0  # close calls at the root: games played to the end for each close move (0: none)
    close: float = 0.01  # how near the best move's mean reward another's must be to make a close call
    tree_weight: float = 0.0  # settling: how much the tree's own mean counts beside the games played on
    time_cap_s: float = 5.0

    def scaled(self, factor: float) -> Budget:
        """The same level with fewer or more iterations (tests use tiny budgets)."""
        return replace(self, iterations=max(1, round(self.iterations * factor)))


DEFAULT_BUDGETS: dict[str, Budget] = {
    "facil": Budget(iterations=40, horizon=1, time_cap_s=1.0),
    "medio": Budget(iterations=200, horizon=1, time_cap_s=3.0),
    "dificil": Budget(iterations=800, horizon=2, bias=1.0, time_cap_s=5.0),
}


class SearchRng(Rng):
    """The randomness of the search's own simulations: Python's Mersenne Twister seeded by the
    search (a rollout draws thousands of numbers; splitmix in pure Python is slower and the log
    of draws is useless here). Offers the rules' `below`/`choice`/`shuffle` and `random()`."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self._random = random.Random(seed)
        self.random = self._random.random

    def below(self, n: int) -> int:
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        return int(self.random() * n)

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Rng's Fisher–Yates with the same draws (`below` written out, compiled: a determinization
        shuffles the unseen cards every iteration)."""
        fisher_yates(items, self.random)

    def finish(self) -> list[int]:
        return []


def uniform_choice(choices: Sequence[T], rng: SearchRng) -> T:
    return choices[int(rng.random() * len(choices))]


def standing(points: Sequence[float], scale: float, rival: float | None = None) -> list[float]:
    """Each seat's value in 0..1 from estimated points: a logistic of its lead over the best
    other seat (or over a non-player rival, as Spellbook's solo track). `scale` is how many
    points make a clear lead; an even position is 0.5."""
    out = []
    for s, mine in enumerate(points):
        others = [p for i, p in enumerate(points) if i != s]
        if rival is not None:
            others.append(rival)
        lead = mine - max(others) if others else 0.0
        out.append(1.0 / (1.0 + math.exp(-max(-40.0, min(40.0, lead / scale)))))
    return out


WIN_SHARE, MARGIN_SHARE = 0.85, 0.15  # a finished game's reward: the win's share, the margin's


def final_rewards(score: FinalScore, players: int, scale: float) -> list[float]:
    """A finished game's reward per seat: mostly the win (a shared win is split), a little the
    margin, so a lost game is still played for points and a won one is not thrown away."""
    wins = [0.0] * players
    for w in score.winners:
        wins[w] = 1.0 / len(score.winners)
    totals = [0.0] * players
    for s in score.seats:
        totals[s.seat] = float(s.total)
    rival = float(max(r.total for r in score.rivals)) if score.rivals else None
    margins = standing(totals, scale * 4, rival)
    return [WIN_SHARE * wins[s] + MARGIN_SHARE * margins[s] for s in range(players)]


class Knowledge:
    """A game's knowledge for the search. Subclasses must implement `determinize`, `evaluate`
    and `horizon`; the rest have plain defaults (uniform rollouts, every choice searched)."""

    game: Game
    budgets: dict[str, Budget] = DEFAULT_BUDGETS
    scale: float = 5.0  # points that make a clear lead (for `final_rewards`)

    def determinize(self, state: Any, seat: int, rng: SearchRng) -> Any:
        """A copy of `state` whose hidden parts are re-sampled from what `seat` may know. The
        result must depend only on that seat's view and `rng` (shuffle the union of unseen items
        in a canonical order); the search never touches the original."""
        raise NotImplementedError

    def evaluate(self, state: Any) -> list[float]:
        """Each seat's standing in 0..1 at a cut that is not the end of the game."""
        raise NotImplementedError

    def horizon(self, state: Any) -> float:
        """A clock that rises by one at each natural cut (end of a Day, of a round; Spellbook's solo
        clock rises by a quarter at each Day's end)."""
        raise NotImplementedError

    def policy(self, state: Any, seat: int, choices: list[str], rng: SearchRng) -> str:
        """The rollout's move for `seat` (also the others' moves at simultaneous decisions)."""
        return uniform_choice(choices, rng)

    def order(self, state: Any, seat: int, choices: list[str], level: str) -> list[tuple[str, float]]:
        """The choices the tree considers at this node, best first, each with a prior in 0..1.
        Leaving a choice out prunes it (keep at least one)."""
        return [(c, 0.0) for c in choices]

    def effort(self, state: Any, seat: int, choices: list[str]) -> float:
        """The share of the level's iterations this decision deserves (1: all of them)."""
        return 1.0

    def apply(self, state: Any, seat: int, choice: str, rng: Rng) -> None:
        """One move in a simulation. Games may override with a fast path that builds no text."""
        self.game.apply(state, seat, choice, rng)

    # A game may play its rollouts in a loop of its own: a method `play_out(state, rng, pick, clock,
    # limit, most, actions) -> actions` that plays exactly the moves search._rollout's loop would (the
    # same draws from `rng` for chance and `pick` for the policy), up to the same horizon (`clock` +
    # `limit`) or `most` actions in all, and returns that count. Spellbook's runs compiled, without a
    # Python call per step.
    play_out: Callable[[Any, SearchRng, SearchRng, float, int, int, int], int] | None = None

    def in_tree(self, state: Any) -> bool:
        """Whether a decision met below the root becomes a node of the tree (True), or is played by
        the policy as in a rollout while the walk goes on to the next one: a game whose small steps
        (which token to pay or give) the tree cannot tell apart spends its iterations better on the
        decisions around them."""
        return True

    def reuses(self, state: Any) -> bool:
        """Whether a seat deciding in `state` starts its search from what its last search left under
        the moves played since (memory.py) instead of an empty tree. Off unless a game measured it."""
        return False

    def settles(self, state: Any) -> bool:
        """Whether a level with `Budget.settle` may settle close calls in `state` by playing them to
        the end of the game with the policy (where the policy's games judge badly, say no)."""
        return True

    def final(self, state: Any) -> list[float]:
        """Rewards of a finished game (see `final_rewards`)."""
        score = self.game.score(state)
        return final_rewards(score, len(score.seats), self.scale)

    def budget(self, level: str, state: Any = None) -> Budget:
        """The level's budget; given the state, a game may spend more where it pays (Spellbook's solo)."""
        return self.budgets[level]
