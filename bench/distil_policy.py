"""Distil difícil's solo search into offsets for its rollouts (rulesets/spellbook/ai/distilled.py).

1. Play solo games with difícil (the tournament's seeds and decisions: rulesets/core/ai/players.py)
   and keep, for every searched decision, the judgement's value of each choice the search
   considered and the share of the root's visits it got.
2. Fit those shares as softmax(a × value + b[decision, kind, stage] + w[decision, kind] · position)
   by gradient descent on the cross-entropy, b and w held near 0 by an L2 penalty (`--l2`);
   position is distilled.position (reserve, Familiar, spells learned, each 0 to 1). In value
   points the offsets are b / a and w / a: what the judgement must add to choose as the search does.
3. Print the agreement with the search's choices (the judgement's best, the fitted best) and the
   offsets; `--write` puts them in data/ai_distilled.yaml (kinds seen at least MIN_SEEN times).

    .venv/bin/python -m bench.distil_policy --seed 9001 --games 60 [--difficulty 3] [--processes 2] [--write]

The data file in the repository was written by exactly that command (seeds 9001–9060), the teacher being
the search as it plays with the solo evaluation's fourth fit (docs/ai.md, "Solo, the offsets distilled
again"); the first data file came from seeds 2001–2060 and the hand-made evaluation.
"""

from __future__ import annotations

import argparse
import math
from collections import Counter
from collections.abc import Callable
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
STEPS = 400  # gradient steps of the fit
RATE_A, RATE_B = 0.2, 3.0  # the fit's step sizes for the scale and the offsets (b and w)
START_A = 2.0


@dataclass(frozen=True)
class Sample:
    values: list[float]  # the judgement's value of each choice the search considered
    keys: list[tuple[str, str, int]]  # (decision, kind of choice, stage) of each
    shares: list[float]  # the share of the root's visits each got
    chosen: int  # the search's choice among them (-1: not among them)
    position: distilled.Trio = (0.0, 0.0, 0.0)  # the seat's distilled.position


Key = tuple[str, str, int]  # decision, kind of choice, stage
Weights = dict[tuple[str, str], list[float]]  # (decision, kind) -> a weight per measure of the position


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
                  chosen=choices.index(chosen) if chosen in choices else -1,
                  position=distilled.position(st))


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


def fit(samples: list[Sample], l2: float = 0.5, steps: int = STEPS) -> tuple[float, dict[Key, float], Weights]:
    """The scale a, the offsets b and the position's weights w of softmax(a × value + b[key] +
    w[decision, kind] · position) that best match the shares."""
    a = START_A
    b = {k: 0.0 for s in samples for k in s.keys}
    w = {k[:2]: [0.0] * len(distilled.POSITION) for k in b}
    n = len(samples)
    for _ in range(steps):
        grad_a, grad_b = 0.0, dict.fromkeys(b, 0.0)
        grad_w = {k: [0.0] * len(distilled.POSITION) for k in w}
        for s in samples:
            x = s.position
            z = [a * v + b[k] + distilled.weigh(w[k[:2]], x) for v, k in zip(s.values, s.keys, strict=True)]
            top = max(z)
            e = [math.exp(y - top) for y in z]
            total = sum(e)
            for v, k, share, y in zip(s.values, s.keys, s.shares, e, strict=True):
                g = y / total - share
                grad_a += g * v
                grad_b[k] += g
                gw = grad_w[k[:2]]
                for j, xj in enumerate(x):
                    gw[j] += g * xj
        a -= RATE_A * grad_a / n
        for k in b:
            b[k] -= RATE_B * (grad_b[k] / n + 2 * l2 * b[k] / n)
        for k, wk in w.items():
            for j in range(len(wk)):
                wk[j] -= RATE_B * (grad_w[k][j] / n + 2 * l2 * wk[j] / n)
    return a, b, w


def agreement(samples: list[Sample], score: Callable[[float, Key, distilled.Trio], float]) -> float:
    """The share of decisions where the best choice by `score(value, key, position)` is the search's."""
    hits = sum(1 for s in samples if s.chosen >= 0 and max(
        range(len(s.values)), key=lambda i: score(s.values[i], s.keys[i], s.position)) == s.chosen)
    return hits / len(samples) if samples else 0.0


def table(samples: list[Sample], a: float, b: dict[Key, float], w: Weights) -> dict[str, dict[str, dict]]:
    """The offsets in value points, as data/ai_distilled.yaml holds them: decision -> kind ->
    {stage: [early, middle, late], position: [reserve, Familiar, learned]}. A kind seen fewer than
    MIN_SEEN times keeps no position weights, nor an offset at a stage where it was seen that
    seldom; values that round to 0 are left out."""
    seen = Counter(k for s in samples for k in s.keys)
    seen_kind = Counter(k[:2] for s in samples for k in s.keys)
    out: dict[str, dict[str, dict]] = {}
    for (step, kind, at), value in sorted(b.items()):
        offset = round(value / a, 3)
        if seen[(step, kind, at)] >= MIN_SEEN and offset != 0.0:
            entry = out.setdefault(step, {}).setdefault(kind, {"stage": [0.0] * len(distilled.STAGES)})
            entry["stage"][at] = offset
    for (step, kind), weights in sorted(w.items()):
        rounded = [round(x / a, 3) for x in weights]
        if seen_kind[(step, kind)] >= MIN_SEEN and any(rounded):
            out.setdefault(step, {}).setdefault(kind, {})["position"] = rounded
    return out


HEADER = """\
# What difícil's solo search taught its rollouts (rulesets/spellbook/ai/distilled.py): value points
# added to the judgement (values.py) in solo rollouts, per decision (a phase or a step) and kind of
# choice: `stage`, at each stage of the game (Days played 0-3, 4-8, 9 and on); `position`, times
# the seat's reserve, Familiar and spells learned, each as a share of a full one. Written by
#   .venv/bin/python -m bench.distil_policy --seed {seed} --games {games} --difficulty {difficulty} --write
# (docs/ai.md, "Solo, a rollout policy distilled from the search"); not edited by hand.
"""


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=9001)
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--difficulty", type=int, default=3)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--l2", type=float, default=0.5)
    parser.add_argument("--write", action="store_true", help=f"write {distilled.PATH.name}")
    args = parser.parse_args(argv)
    seeds = range(args.seed, args.seed + args.games)
    with Pool(args.processes) as pool:  # map keeps the seeds' order: the fit sees the same samples
        games = pool.starmap(play, [(s, args.difficulty) for s in seeds])
    samples = [s for game in games for s in game]
    a, b, w = fit(samples, args.l2)
    offsets = table(samples, a, b, w)
    fitted = agreement(samples, lambda v, k, x: a * v + b[k] + distilled.weigh(w[k[:2]], x))
    print(f"{len(samples)} decisions of {args.games} games; the search's choice is the judgement's best in "
          f"{100 * agreement(samples, lambda v, k, x: v):.1f} %, the fitted best in "
          f"{100 * fitted:.1f} % (scale a = {a:.3f})")
    print(f"  {'decision':12s} {'kind':14s} {'stage: ' + ' / '.join(distilled.STAGES):29s} "
          f"position: {' / '.join(distilled.POSITION)}")
    for step, kinds in offsets.items():
        for kind, entry in kinds.items():
            print(f"  {step:12s} {kind:14s} " + "  ".join(f"{v:+.2f}" for v in entry.get("stage", [0.0] * 3))
                  + "            " + "  ".join(f"{v:+.2f}" for v in entry.get("position", [0.0] * 3)))
    if args.write:
        text = HEADER.format(seed=args.seed, games=args.games, difficulty=args.difficulty)
        text += yaml.safe_dump(offsets, sort_keys=True, default_flow_style=None)
        distilled.PATH.write_text(text, encoding="utf-8")
        print(f"written: {distilled.PATH}")


if __name__ == "__main__":
    main()
