"""Correct solo Spellbook's fitted evaluation by the difference one choice makes.

The fit in data/ai_solo_value.yaml (bench/fit_solo_value.py) learns how far whole games end from the
track. The search asks something else of it: which of the positions a Day's choices lead to is
better. Those positions are close, and a fit of whole games' margins need not rank them right
(docs/ai.md, "What should come next"). This tool measures that ranking directly:

1. Play solo games with `--level` (fácil unless told; its decisions as the tournament makes them).
   At the start of every Day, beside the choice the level makes (A), take another of the choices
   the judgement ranks among the best four (B), apply it to a copy of the game, and play that copy
   on to its end with the same level and the same decision seeds, as the game itself goes on with A:
   two games one choice apart, whose draws come from the same generator.
2. Each pair gives the two positions at the next Day's start (solo_value.measures) and the two final
   margins over the track. The data file's fit says how much better one position is than the other;
   how the games ended says how much it was.
3. Fit, by least squares with a ridge penalty, a correction to the data file's weights on the pairs'
   differences alone (the bias cancels): Δmargin − Δfit ≈ Σ c·Δmeasure + Σ c'·Δ(measure·days).
   Printed: on the held-out quarter of the games (seeds that are multiples of 4), how often the fit's
   difference has the sign of the games' before and after the correction, and the slope of the games'
   difference on the fit's.
4. `--write` adds the correction to the data file's weights, its level anchored (`corrected`), its spread kept.

    .venv/bin/python -m bench.fit_solo_pairs --seeds 9201-9340 [--level facil] [--processes 2]
        [--ridge 1000] [--save pairs.json] [--write]
    .venv/bin/python -m bench.fit_solo_pairs --load pairs.json [--ridge 1000] [--write]   (fit again)
"""

from __future__ import annotations

import argparse
import json
import random
from multiprocessing import Pool

import yaml

from bench.fit_solo_value import as_data, day_start, final_margin, ridge, row, seed_ranges
from rulesets.core.ai.players import decide
from rulesets.core.match import Match, act, new_match
from rulesets.spellbook.ai import solo_value
from rulesets.spellbook.ai.knowledge import KNOWLEDGE
from rulesets.spellbook.game import GAME
from rulesets.spellbook.state import State

HELD_OUT = 4  # games whose seed is a multiple of this are the held-out quarter
DAYS = solo_value.DAYS
WIDTH = 4  # B is drawn among the judgement's best this many choices, A's excepted

Pair = tuple[int, list[float], list[float], float, float]  # seed, measures after A, after B, margins


def step(match: Match, seed: int, level: str) -> Match:
    """One move of the level, with the decision seed fit_solo_value's games use."""
    decision = decide(GAME, match.state, 0, level, seed * 1_000_003 + len(match.log), None, KNOWLEDGE)
    return act(match, 0, decision.choice, inplace=True)[0]


def play_on(match: Match, seed: int, level: str) -> tuple[list[float] | None, float]:
    """The measures at the next Day's start (None if the game ends first) and the final margin."""
    day = match.state.players[0].days
    seen = None
    while not GAME.is_over(match.state):
        if seen is None and day_start(match.state, day):
            seen = solo_value.measures(match.state)
        match = step(match, seed, level)
    return seen, final_margin(match)


def pairs(seed: int, level: str, difficulty: int) -> list[Pair]:
    """One game of `level` with a second choice played out at every Day's start."""
    match = new_match(GAME, {"difficulty": difficulty}, 1, seed)
    pick = random.Random(seed)
    open_pairs: list[tuple[list[float] | None, float]] = []  # B's side, waiting for A's next Day start
    found: list[tuple[list[float], list[float] | None, float]] = []  # A's measures, B's, B's margin
    last_day = -1
    while not GAME.is_over(match.state):
        st: State = match.state
        if day_start(st, last_day):
            last_day = st.players[0].days
            x = solo_value.measures(st)
            found += [(x, xb, mb) for xb, mb in open_pairs]
            open_pairs = []
            choices = GAME.legal_choices(st, 0)
            decision = decide(GAME, st, 0, level, seed * 1_000_003 + len(match.log), None, KNOWLEDGE)
            others = [c for c, _ in KNOWLEDGE.order(st, 0, choices, "medio")[:WIDTH + 1] if c != decision.choice]
            if others:
                branch, _ = act(match, 0, pick.choice(others))
                open_pairs.append(play_on(branch, seed, level))
            match = act(match, 0, decision.choice, inplace=True)[0]
            continue
        match = step(match, seed, level)
    end = final_margin(match)
    return [(seed, xa, xb, end, mb) for xa, xb, mb in found if xb is not None]


def difference(p: Pair) -> list[float]:
    """The pair's Δ of the fit's inputs (row() without its constant)."""
    return [a - b for a, b in zip(row(p[1])[1:], row(p[2])[1:], strict=True)]


def fitted_difference(p: Pair, fit: solo_value.Weights) -> float:
    bias, weight, by_day = fit
    flat = [*weight, *by_day]
    return sum(w * d for w, d in zip(flat, difference(p), strict=True))


def correct(found: list[Pair], penalty: float, fit: solo_value.Weights) -> list[float]:
    """The correction to the fit's weights (weights then by-Day weights) the pairs ask for."""
    rows = [difference(p) for p in found]
    ys = [(p[3] - p[4]) - fitted_difference(p, fit) for p in found]
    return ridge(rows, ys, penalty)


def corrected(fit: solo_value.Weights, c: list[float], found: list[Pair] | None = None) -> solo_value.Weights:
    """The fit with the correction added. The pairs say nothing of the fit's level (the bias and the
    Days played, which two games measured at the same Day share), and a correction of the other
    weights moves it: with `found`, the bias and the Days played's two weights are set again so that
    the pairs' positions are, on the whole, where the fit put them — the level is the whole games'
    to say (a correction left unanchored put Days 12-16 at −18.8 where the games ended at −5.5, and
    the search, which reads the level as the chance of winning, went flat)."""
    bias, weight, by_day = fit
    n = len(weight)
    weight = [w + d for w, d in zip(weight, c[:n], strict=True)]
    by_day = [w + d for w, d in zip(by_day, c[n:], strict=True)]
    if found:
        xs = [x for p in found for x in (p[1], p[2])]
        moved = [solo_value.margin_of(x, (0.0, c[:n], c[n:])) for x in xs]  # what the correction adds
        days = [x[DAYS] for x in xs]
        level = ridge([[1.0, d, d * d] for d in days], [-m for m in moved], 1e-6)
        bias += level[0]
        weight[DAYS] += level[1]
        by_day[DAYS] += level[2]
    return bias, weight, by_day


def agreement(found: list[Pair], fit: solo_value.Weights) -> tuple[float, float, int]:
    """How often the fit's difference has the sign of the games' (pairs whose games differ), and the
    slope of the games' difference on the fit's."""
    told = [(fitted_difference(p, fit), p[3] - p[4]) for p in found]
    decided = [(f, g) for f, g in told if g]
    right = sum(1 for f, g in decided if f * g > 0) / len(decided) if decided else 0.0
    sxx = sum(f * f for f, _ in told)
    slope = sum(f * g for f, g in told) / sxx if sxx else 0.0
    return right, slope, len(decided)


def report(found: list[Pair], penalty: float) -> None:
    train = [p for p in found if p[0] % HELD_OUT]
    test = [p for p in found if not p[0] % HELD_OUT]
    games = [p[3] - p[4] for p in found]
    print(f"{len(found)} pairs from {len({p[0] for p in found})} games; the games' difference: "
          f"mean {sum(games) / len(games):+.2f}, mean size {sum(map(abs, games)) / len(games):.2f}, "
          f"zero in {sum(1 for g in games if not g)}")
    if not test or not train:
        return
    now = solo_value.FITTED
    after = corrected(now, correct(train, penalty, now), train)
    for name, fit in (("the data file's fit", now), ("corrected on the other three quarters", after)):
        right, slope, n = agreement(test, fit)
        print(f"held-out quarter, {name}: the sign right in {right:.1%} of {n} pairs, "
              f"the games' difference on the fit's slope {slope:+.2f}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="", help="ranges of seeds, e.g. 9201-9300")
    parser.add_argument("--load", default="", help="pairs saved by --save, instead of playing")
    parser.add_argument("--save", default="")
    parser.add_argument("--level", default="facil")
    parser.add_argument("--difficulty", type=int, default=3)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--ridge", type=float, default=1000.0)
    parser.add_argument("--write", action="store_true", help=f"write the corrected {solo_value.PATH.name}")
    args = parser.parse_args(argv)
    if args.load:
        with open(args.load, encoding="utf-8") as fh:
            found: list[Pair] = [tuple(p) for p in json.load(fh)]  # type: ignore[misc]
    else:
        if not args.seeds:
            parser.error("--seeds or --load")
        found = []
        with Pool(args.processes) as pool:
            jobs = [(s, args.level, args.difficulty) for s in seed_ranges(args.seeds)]
            for n, game in enumerate(pool.imap_unordered(_pairs, jobs), start=1):
                found += game
                print(f"{n}/{len(jobs)} games, {len(found)} pairs", flush=True)
        found.sort(key=lambda p: p[0])
        if args.save:
            with open(args.save, "w", encoding="utf-8") as fh:
                json.dump(found, fh)
    report(found, args.ridge)
    fit = corrected(solo_value.FITTED, correct(found, args.ridge, solo_value.FITTED), found)
    data = {**as_data([fit[0], *fit[1], *fit[2]]), "spread": solo_value.FIT.spread.model_dump()}
    if not args.write:
        print(yaml.safe_dump(data, sort_keys=False))
        return
    with solo_value.PATH.open(encoding="utf-8") as fh:
        header = "".join(line for line in fh if line.startswith("#"))
    header += (f"# then corrected by the difference one choice makes: .venv/bin/python -m bench.fit_solo_pairs "
               f"{'--seeds ' + args.seeds if args.seeds else '--load ' + args.load} --level {args.level} "
               f"--difficulty {args.difficulty} --ridge {args.ridge:g} --write\n")
    with solo_value.PATH.open("w", encoding="utf-8") as fh:
        fh.write(header + yaml.safe_dump(data, sort_keys=False))
    print(f"wrote {solo_value.PATH}")


def _pairs(job: tuple[int, str, int]) -> list[Pair]:
    return pairs(*job)


if __name__ == "__main__":
    main()
