"""Distil difícil's solo search into offsets for its rollouts (rulesets/spellbook/ai/distilled.py).

1. Play solo games with difícil (the tournament's seeds and decisions: rulesets/core/ai/players.py)
   and keep, for every searched decision, the judgement's value of each choice the search
   considered and the share of the root's visits it got.
2. Fit those shares as softmax(a × value + b[decision, kind of choice, stage]) by gradient descent
   on the cross-entropy, the offsets held near 0 by an L2 penalty (`--l2`). The offsets in value
   points are b / a: what the judgement must add to choose as the search does.
3. Print the agreement with the search's choices (the judgement's best, the fitted best) and the
   offsets; `--write` puts them in data/ai_distilled.yaml (kinds seen at least MIN_SEEN times).

    .venv/bin/python -m bench.distil_policy --seed 2001 --games 15 [--difficulty 3] [--processes 2] [--write]

The data file in the repository was written by exactly that command (seeds 2001–2015).
"""

from __future__ import annotations

import argparse
import math
from collections import Counter
from dataclasses import dataclass
from multiprocessing import Pool

import yaml

from rulesets.core.ai.players import decide
from rulesets.core.match import act, new_match
from rulesets.spellbook.ai import distilled
from rulesets.spellbook.ai.knowledge import KNOWLEDGE
from rulesets.spellbook.ai.values import NO_PLAN, choice_values
from rulesets.spellbook.game import GAME
from rulesets.spellbook.state import State

LEVEL = "dificil"
MIN_VISITS = 20  # a decision the search settled in fewer iterations says little about the others
MIN_SEEN = 5  # a kind of choice seen fewer times keeps no offset
STEPS = 300  # gradient steps of the fit
RATE_A, RATE_B = 0.2, 3.0  # the fit's step sizes for the scale and the offsets
START_A = 2.0


@dataclass(frozen=True)
class Sample:
    values: list[float]  # the judgement's value of each choice the search considered
    keys: list[tuple[str, str, int]]  # (decision, kind of choice, stage) of each
    shares: list[float]  # the share of the root's visits each got
    chosen: int  # the search's choice among them (-1: not among them)


def sample(st: State, visits: dict[str, int], chosen: str) -> Sample | None:
    """One decision as the fit sees it, or None if it teaches nothing (fewer than two choices
    considered, or a search settled almost at once)."""
    legal = GAME.legal_choices(st, 0)
    choices = [c for c, _ in KNOWLEDGE.order(st, 0, legal, LEVEL)]
    total = sum(visits.values())
    if len(choices) < 2 or total < MIN_VISITS:
        return None
    step, at = distilled.decision(st), distilled.stage(st)
    return Sample(values=choice_values(st, 0, choices, NO_PLAN),
                  keys=[(step, distilled.kind(step, c), at) for c in choices],
                  shares=[visits.get(c, 0) / total for c in choices],
                  chosen=choices.index(chosen) if chosen in choices else -1)


def play(seed: int, difficulty: int = 3) -> list[Sample]:
    """One solo game of difícil as it plays without the offsets (the teacher is the plain search,
    and the offsets are fitted against the plain judgement); the samples of its searched decisions."""
    distilled.OFFSETS = {}  # this process only: it plays the games the offsets are learned from
    match = new_match(GAME, {"difficulty": difficulty}, 1, seed)
    out = []
    while not GAME.is_over(match.state):
        decision = decide(GAME, match.state, 0, LEVEL, seed * 1_000_003 + len(match.log))
        if decision.visits and (s := sample(match.state, decision.visits, decision.choice)):
            out.append(s)
        match, _ = act(match, 0, decision.choice, inplace=True)
    return out


def fit(samples: list[Sample], l2: float = 0.5, steps: int = STEPS) -> tuple[float, dict[tuple[str, str, int], float]]:
    """The scale a and the offsets b of softmax(a × value + b[key]) that best match the shares."""
    a = START_A
    b = {k: 0.0 for s in samples for k in s.keys}
    n = len(samples)
    for _ in range(steps):
        grad_a, grad_b = 0.0, dict.fromkeys(b, 0.0)
        for s in samples:
            z = [a * v + b[k] for v, k in zip(s.values, s.keys, strict=True)]
            top = max(z)
            e = [math.exp(x - top) for x in z]
            total = sum(e)
            for v, k, share, x in zip(s.values, s.keys, s.shares, e, strict=True):
                g = x / total - share
                grad_a += g * v
                grad_b[k] += g
        a -= RATE_A * grad_a / n
        for k in b:
            b[k] -= RATE_B * (grad_b[k] / n + 2 * l2 * b[k] / n)
    return a, b


def agreement(samples: list[Sample], score) -> float:
    """The share of decisions where the best choice by `score(value, key)` is the search's."""
    hits = sum(1 for s in samples if s.chosen >= 0 and max(
        range(len(s.values)), key=lambda i: score(s.values[i], s.keys[i])) == s.chosen)
    return hits / len(samples) if samples else 0.0


def table(samples: list[Sample], a: float, b: dict[tuple[str, str, int], float]) -> dict[str, dict[str, list[float]]]:
    """The offsets in value points, as data/ai_distilled.yaml holds them: decision -> kind -> stages.
    Kinds seen fewer than MIN_SEEN times at a stage, and offsets that round to 0, are left out."""
    seen = Counter(k for s in samples for k in s.keys)
    out: dict[str, dict[str, list[float]]] = {}
    for (step, kind, at), value in sorted(b.items()):
        offset = round(value / a, 3)
        if seen[(step, kind, at)] < MIN_SEEN or offset == 0.0:
            continue
        out.setdefault(step, {}).setdefault(kind, [0.0] * len(distilled.STAGES))[at] = offset
    return out


HEADER = """\
# What difícil's solo search taught its rollouts (rulesets/spellbook/ai/distilled.py): value points
# added to the judgement (values.py) in solo rollouts, per decision (a phase or a step), kind of
# choice and stage of the game — Days played 0-3, 4-8, 9 and on. Written by
#   .venv/bin/python -m bench.distil_policy --seed {seed} --games {games} --difficulty {difficulty} --write
# (docs/ai.md, "Solo, a rollout policy distilled from the search"); not edited by hand.
"""


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=2001)
    parser.add_argument("--games", type=int, default=15)
    parser.add_argument("--difficulty", type=int, default=3)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--l2", type=float, default=0.5)
    parser.add_argument("--write", action="store_true", help=f"write {distilled.PATH.name}")
    args = parser.parse_args(argv)
    seeds = range(args.seed, args.seed + args.games)
    with Pool(args.processes) as pool:  # map keeps the seeds' order: the fit sees the same samples
        games = pool.starmap(play, [(s, args.difficulty) for s in seeds])
    samples = [s for game in games for s in game]
    a, b = fit(samples, args.l2)
    offsets = table(samples, a, b)
    print(f"{len(samples)} decisions of {args.games} games; the search's choice is the judgement's best in "
          f"{100 * agreement(samples, lambda v, k: v):.1f} %, the fitted best in "
          f"{100 * agreement(samples, lambda v, k: a * v + b[k]):.1f} % (scale a = {a:.3f})")
    for step, kinds in offsets.items():
        for kind, values in kinds.items():
            print(f"  {step:12s} {kind:14s} " + "  ".join(f"{v:+.2f}" for v in values))
    if args.write:
        text = HEADER.format(seed=args.seed, games=args.games, difficulty=args.difficulty)
        text += yaml.safe_dump(offsets, sort_keys=True, default_flow_style=None)
        distilled.PATH.write_text(text, encoding="utf-8")
        print(f"written: {distilled.PATH}")


if __name__ == "__main__":
    main()
