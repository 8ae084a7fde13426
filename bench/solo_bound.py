"""Solo Spellbook's bound: difícil's search given sight of the bag's future (docs/ai.md, "Solo, what
the hidden bag costs").

Not a player, and never seated: its simulations draw from the game's own generator (the match's
seed and counter, rulesets/core/rng.py), so every line it imagines meets exactly the draws the game
would deal on that line. Everything else is difícil's: the same plans, judgement and evaluation,
and its budget as in company (600 iterations, with which the bound's figures were measured; solo
difícil now thinks with twice that: `--iterations 1200`). Played on the tournament's seeds it shows
what the hidden bag costs the solo bot, and what this search reaches without it — whether a goal
is out of the search's reach however well it guesses the bag. Each decision is made by the
tournament's `decide` (rulesets/core/ai/players.py), given this knowledge: the same seeds, so its
games pair with the tournament's.

    .venv/bin/python -m bench.solo_bound --seed 2001 --games 30 [--difficulty 3] [--processes 2] [--iterations N]
        [--to-the-end | --nested LEVEL]

`--nested LEVEL` replaces the tree search by a nested Monte Carlo search (Cazenave 2009) on the same
sight of the future: with every draw known a solo game is a puzzle with one answer per line, and a
search that keeps the best whole game it has found (rather than averaging noisy ones, as the tree
does) solves such puzzles well. Level 1 plays, at each decision, one game of difícil's rollout policy
after every choice and follows the best game found so far; level 2 does the same with level-1
searches in place of the policy's games. It asks how far above the goal perfect information lifts a
player — the other half of the question the tree's bound answers.
"""

from __future__ import annotations

import argparse
from dataclasses import replace
from multiprocessing import Pool

from rulesets.core.ai import SearchRng
from rulesets.core.ai.players import decide
from rulesets.core.ai.tournament import wilson
from rulesets.core.match import act, new_match
from rulesets.core.rng import Rng
from rulesets.spellbook.ai.knowledge import SpellbookKnowledge, copy_state, pick_plan
from rulesets.spellbook.ai.values import NO_PLAN
from rulesets.spellbook.game import GAME
from rulesets.spellbook.state import QuietLog, State

LEVEL = "dificil"
ACTIONS_TO_THE_END = 3000  # a rollout to the end is cut after this many actions (a solo game takes a few hundred)


class Clairvoyant(SpellbookKnowledge):
    """Spellbook's knowledge, but the bag is not re-dealt and the rules draw from the true generator."""

    def __init__(self) -> None:
        super().__init__()
        self.truth = (0, 0)  # the match's seed and counter at the decision being made
        self._sight: tuple[State | None, Rng | None] = (None, None)

    def determinize(self, state: State, seat: int, rng) -> State:
        st = copy_state(state)  # the bag as it truly is
        self._sight = (st, Rng(*self.truth))  # this iteration's future: the game's own next draws
        self._plan = (st, pick_plan(st, rng) if st.solo else NO_PLAN)
        return st

    def apply(self, state: State, seat: int, choice: str, rng) -> None:
        held, true_rng = self._sight
        GAME.play(state, choice, true_rng if held is state else rng, QuietLog())


def _margin(state: State) -> int:
    score = GAME.score(state)
    return score.seats[0].total - score.rivals[0].total


def _policy_game(state: State, truth: Rng, rng: SearchRng) -> tuple[int, list[str]]:
    """Difícil's rollout policy (a plan drawn as in its search, its noise) to the game's end on the
    true draws; the margin and the choices. `state` is played on."""
    seer = SpellbookKnowledge()
    seer._plan = (state, pick_plan(state, rng))  # the plan this game follows, as one search iteration's
    line: list[str] = []
    while not GAME.is_over(state):
        choices = GAME.legal_choices(state, 0)
        choice = choices[0] if len(choices) == 1 else seer.policy(state, 0, choices, rng)
        GAME.play(state, choice, truth, QuietLog())
        line.append(choice)
    return _margin(state), line


def nested(level: int, state: State, truth: Rng, rng: SearchRng) -> tuple[int, list[str]]:
    """The best (margin, choices) a nested Monte Carlo search of `level` finds from `state`, whose
    draws come from `truth` (the game's generator at this point). At each decision every choice is
    tried with a search one level down, and the walk follows the best whole game found so far —
    which stays playable, because with the draws known the same choices meet the same draws."""
    if level == 0:
        return _policy_game(state, truth, rng)
    best, best_line, line = -(1 << 30), [], []
    while not GAME.is_over(state):
        choices = GAME.legal_choices(state, 0)
        if len(choices) > 1:
            for choice in choices:
                trial, future = copy_state(state), Rng(truth.seed, truth.counter)
                GAME.play(trial, choice, future, QuietLog())
                margin, rest = nested(level - 1, trial, future, rng)
                if margin > best:
                    best, best_line = margin, [*line, choice, *rest]
            choice = best_line[len(line)]
        else:
            choice = choices[0]
        GAME.play(state, choice, truth, QuietLog())
        line.append(choice)
    return _margin(state), line


def play_nested(seed: int, difficulty: int = 3, level: int = 1) -> int:
    """One solo game of the clairvoyant nested search; its margin over the track. The line found is
    played through the match (every move checked), so the margin is the game's own."""
    match = new_match(GAME, {"difficulty": difficulty}, 1, seed)
    _, line = nested(level, copy_state(match.state), Rng(match.seed, match.rng_counter), SearchRng(seed * 7919))
    for choice in line:
        match, _ = act(match, 0, choice, inplace=True)
    return _margin(match.state)


def play(seed: int, difficulty: int = 3, iterations: int = 0, to_the_end: bool = False) -> int:
    """One solo game of the clairvoyant (difícil's iterations in company unless given; rollouts cut every four
    Days and evaluated, or played `to_the_end`); its margin over the track."""
    knowledge = Clairvoyant()
    budget = knowledge.budget(LEVEL)  # no state: the budget as in company, as the figures were measured
    if iterations:
        budget = replace(budget, iterations=iterations)
    if to_the_end:  # no evaluation at all: every rollout is the policy's whole game, its draws the true ones
        budget = replace(budget, horizon=1 << 30, max_rollout=ACTIONS_TO_THE_END, time_cap_s=120.0)
    match = new_match(GAME, {"difficulty": difficulty}, 1, seed)
    while not GAME.is_over(match.state):
        knowledge.truth = (match.seed, match.rng_counter)
        decision = decide(GAME, match.state, 0, LEVEL, seed * 1_000_003 + len(match.log), budget, knowledge)
        match, _ = act(match, 0, decision.choice, inplace=True)
    return _margin(match.state)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=2001)
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--difficulty", type=int, default=3)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--iterations", type=int, default=0, help="instead of difícil's")
    parser.add_argument("--to-the-end", action="store_true", help="rollouts to the game's end, no cut")
    parser.add_argument("--nested", type=int, default=0, metavar="LEVEL",
                        help="a nested Monte Carlo search of this level instead of the tree")
    args = parser.parse_args(argv)
    seeds = range(args.seed, args.seed + args.games)
    with Pool(args.processes) as pool:
        if args.nested:
            margins = pool.starmap(play_nested, [(s, args.difficulty, args.nested) for s in seeds])
        else:
            margins = pool.starmap(play, [(s, args.difficulty, args.iterations, args.to_the_end) for s in seeds])
    for s, m in zip(seeds, margins, strict=True):
        print(f"seed {s}: margin {m:+d}")
    wins = sum(1.0 for m in margins if m > 0)  # a solo tie is won by nobody
    lo, hi = wilson(wins, len(margins))
    who = f"clairvoyant nested search (level {args.nested})" if args.nested else "clairvoyant difícil"
    print(f"{who}, solo at difficulty {args.difficulty}, seeds {args.seed}-{seeds[-1]}: "
          f"{wins:g} wins of {len(margins)} ({100 * wins / len(margins):.1f} %, {100 * lo:.1f}-{100 * hi:.1f} %), "
          f"ties {sum(1 for m in margins if m == 0)}, mean margin {sum(margins) / len(margins):+.2f}")


if __name__ == "__main__":
    main()
