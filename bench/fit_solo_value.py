"""Fit solo Spellbook's evaluation at a cut (rulesets/spellbook/ai/solo_value.py) to how games end.

1. Play solo games with a level (médio unless told; the tournament's decisions:
   rulesets/core/ai/players.py) evaluating with the hand-made projection (estimate.solo_lead), as
   before this fit existed — so the fit is of games its own weights took no part in — and keep,
   at the start of every Day, the position's measures (solo_value.measures) with the margin over
   the track that game ended on.
2. Fit margin ≈ bias + Σ w·measure + Σ d·measure·days by least squares with a ridge penalty
   (`--ridge`), first on three games in four to print how well the fit and the hand-made
   evaluation alone (estimate.solo_lead's lead, one weight) explain the fourth's margins, by Days
   played; then on all of them.
3. With `--second SEEDS`, a second round: play those seeds' games evaluating with the fit of the
   first round's games, and fit again on both rounds' positions. The first round's games never
   reach the positions a fitted evaluation plays towards (it stores less, collects longer), so
   the fit has never seen how those end; the second round's games show it.
4. With `--own SEEDS` (after `--second`; repeatable), rounds of the level's own games: each plays
   those seeds' games with `--own-level` (difícil unless told) evaluating as the search does now —
   the chance of winning by the fit of every round before it and that fit's spread — and the fit
   is made again on all rounds so far. Difícil's own games reach the positions difícil plays
   towards, and their margins are what its play makes of them; the next round plays towards the
   positions this fit prefers, and shows how those end.
5. The spread: how far the margins fall from that fit, a straight line by Days played
   (solo_value.win_chance reads the expected margin against it).
6. `--write` puts the fit of all the games and its spread in data/ai_solo_value.yaml.

    .venv/bin/python -m bench.fit_solo_value --seed 7001 --games 200 [--level medio] [--difficulty 3]
        [--processes 2] [--ridge 1.0] [--write]
    .venv/bin/python -m bench.fit_solo_value --seeds 7001-7030,7200-7231 ...   (ranges instead)
    .venv/bin/python -m bench.fit_solo_value --seeds 7001-7030,7200-7231 --second 7301-7362 ...
    .venv/bin/python -m bench.fit_solo_value --seeds ... --second ... --own 7401-7460 [--own 7501-7560 ...]
        [--own-level dificil]

The data file in the repository was written by exactly the command its header names, with the code of
commit 5fd044e: the games are played by the code as it is, rollouts included, and the rollouts' offsets
(data/ai_distilled.yaml) have since been distilled again (docs/ai.md, "Solo, the offsets distilled
again"), so run today the same command plays other games and writes another fit.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable, Sequence
from multiprocessing import Pool

import yaml

from rulesets.core.ai import standing
from rulesets.core.ai.players import decide
from rulesets.core.match import Match, act, new_match
from rulesets.spellbook.ai import solo_value
from rulesets.spellbook.ai.estimate import solo_lead
from rulesets.spellbook.ai.knowledge import SOLO_SCALE, SpellbookKnowledge, solo_reward
from rulesets.spellbook.game import GAME
from rulesets.spellbook.state import MORNING, State

HELD_OUT = 4  # games whose seed is a multiple of this are the held-out quarter
DAY_BUCKETS = ((0, 4), (4, 8), (8, 12), (12, 99))  # Days played, for the held-out report

class HandMade(SpellbookKnowledge):
    """Spellbook's knowledge with solo's hand-made evaluation: the player's points and part of its
    projection, against the track as it stands."""

    def evaluate(self, state: State) -> list[float]:
        if not state.solo:
            return super().evaluate(state)
        mine, track = solo_lead(state)
        return standing([mine], SOLO_SCALE, track)


class Fitted(SpellbookKnowledge):
    """Spellbook's knowledge evaluating solo positions with a given fit (the first round's), by the
    expected margin as the search did when the second round was played (before solo_value.win_chance):
    the data file's weights come from those games."""

    def __init__(self, fit: solo_value.Weights) -> None:
        super().__init__()
        self.fit = fit

    def evaluate(self, state: State) -> list[float]:
        if not state.solo:
            return super().evaluate(state)
        return standing([solo_value.margin(state, self.fit)], SOLO_SCALE, 0.0)


class Chance(SpellbookKnowledge):
    """Spellbook's knowledge evaluating solo positions as the search does now (the chance of winning,
    a little the margin: knowledge.solo_reward), by a given fit and its spread (those of every round
    before the one it plays)."""

    def __init__(self, fit: solo_value.Weights, spread: solo_value.Spread) -> None:
        super().__init__()
        self.fit, self.spread = fit, spread

    def evaluate(self, state: State) -> list[float]:
        if not state.solo:
            return super().evaluate(state)
        return [solo_reward(state, self.fit, self.spread)]


Sample = tuple[int, list[float], float]  # the game's seed, the measures at a Day's start, its final margin


def day_starts(seed: int, level: str, difficulty: int, fit: solo_value.Weights | None = None,
               spread: solo_value.Spread | None = None) -> list[Sample]:
    """One solo game of `level`: the measures at the start of each of its Days, with its margin.
    Evaluating with the hand-made projection; with `fit`'s margin when one is given; with the chance
    of winning by `fit` and `spread` when both are."""
    match = new_match(GAME, {"difficulty": difficulty}, 1, seed)
    if fit is None:
        knowledge: SpellbookKnowledge = HandMade()
    else:
        knowledge = Fitted(fit) if spread is None else Chance(fit, spread)
    budget = knowledge.budget(level)  # no state: as in company (difícil's 600), as the data file's fits were made
    seen, last_day = [], -1
    while not GAME.is_over(match.state):
        st: State = match.state
        if day_start(st, last_day):
            seen.append(solo_value.measures(st))
            last_day = st.players[0].days
        decision = decide(GAME, st, 0, level, seed * 1_000_003 + len(match.log), budget, knowledge)
        match, _ = act(match, 0, decision.choice, inplace=True)
    margin = final_margin(match)
    return [(seed, x, margin) for x in seen]


def day_start(st: State, last_day: int) -> bool:
    """The solo player's Morning, before anything is done, on a Day other than `last_day`."""
    return st.phase == MORNING and not st.q and st.acted == 0 and st.players[0].days != last_day


def final_margin(match: Match) -> float:
    """A finished solo game's margin: the player's points less the track's."""
    score = GAME.score(match.state)
    return float(score.seats[0].total - score.rivals[0].total)


def row(x: list[float]) -> list[float]:
    """The fit's inputs: a constant, the measures, the measures times the Days played."""
    days = x[solo_value.MEASURES.index("days")]
    return [1.0, *x, *(v * days for v in x)]


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """a·w = b by Gaussian elimination with partial pivoting (a is small and well conditioned)."""
    n = len(b)
    m = [[*a[i], b[i]] for i in range(n)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(col + 1, n):
            f = m[r][col] / m[col][col]
            if f:
                for c in range(col, n + 1):
                    m[r][c] -= f * m[col][c]
    w = [0.0] * n
    for r in range(n - 1, -1, -1):
        w[r] = (m[r][n] - sum(m[r][c] * w[c] for c in range(r + 1, n))) / m[r][r]
    return w


def ridge(rows: list[list[float]], ys: list[float], penalty: float) -> list[float]:
    """Least squares with `penalty` on every weight's square (the constant's too)."""
    k = len(rows[0])
    a = [[sum(r[i] * r[j] for r in rows) + (penalty if i == j else 0.0) for j in range(k)] for i in range(k)]
    b = [sum(r[i] * y for r, y in zip(rows, ys, strict=True)) for i in range(k)]
    return solve(a, b)


def predict(fit: list[float], x: list[float]) -> float:
    """The fit's margin for one position's measures."""
    return sum(w * v for w, v in zip(fit, row(x), strict=True))


def r2(pred: list[float], ys: list[float]) -> float:
    mean = sum(ys) / len(ys)
    total = sum((y - mean) ** 2 for y in ys)
    return 1 - sum((y - p) ** 2 for y, p in zip(ys, pred, strict=True)) / total if total else 0.0


def report(samples: list[Sample], penalty: float) -> None:
    """How well the fit on three games in four, and the hand-made lead alone, explain the fourth's."""
    lead = solo_value.MEASURES.index("lead")
    days = solo_value.MEASURES.index("days")
    for lo, hi in DAY_BUCKETS:
        part = [s for s in samples if lo <= s[1][days] < hi]
        train = [s for s in part if s[0] % HELD_OUT]
        test = [s for s in part if not s[0] % HELD_OUT]
        if len(train) < 2 * len(row(part[0][1])) or len(test) < 2:
            continue
        ys = [s[2] for s in test]
        fit = ridge([row(s[1]) for s in train], [s[2] for s in train], penalty)
        alone = ridge([[1.0, s[1][lead]] for s in train], [s[2] for s in train], penalty)
        print(f"Days {lo}-{min(hi, 17) - 1}: held-out R² of the final margin — the fit "
              f"{r2([predict(fit, s[1]) for s in test], ys):+.3f}, "
              f"the hand-made lead alone {r2([alone[0] + alone[1] * s[1][lead] for s in test], ys):+.3f} "
              f"({len(test)} positions)")


def seed_ranges(spec: str) -> list[int]:
    """`7001-7030,7200-7231` -> those seeds, each range's ends included."""
    seeds: list[int] = []
    for part in spec.split(","):
        lo, _, hi = part.partition("-")
        seeds += range(int(lo), int(hi or lo) + 1)
    return seeds


def play(starmap: Callable, seeds: list[int], second: list[int], level: str, difficulty: int,
         penalty: float, own: Sequence[Sequence[int]] = (), own_level: str = "dificil") -> list[Sample]:
    """The positions of `seeds`' games played with the hand-made evaluation, of `second`'s played
    with the fit of the first (its margin), and of each of `own`'s rounds played by `own_level`
    with the fit of every round before it and its spread (the chance of winning) — `starmap` runs
    day_starts on each arguments' tuple: a Pool's."""
    games = starmap(day_starts, [(s, level, difficulty) for s in seeds])
    samples = summed(games, f"{level} with the hand-made evaluation")
    if second:
        fit = split(fitted(samples, penalty))
        samples += summed(starmap(day_starts, [(s, level, difficulty, fit) for s in second]),
                          f"{level} with the first round's fit")
    for before, round_seeds in enumerate(own, start=2):
        so_far = fitted(samples, penalty)
        line = solo_value.Spread(**spread(samples, so_far, penalty))
        samples += summed(starmap(day_starts, [(s, own_level, difficulty, split(so_far), line) for s in round_seeds]),
                          f"{own_level} with the fit of the {before} rounds before, as the chance of winning")
    return samples


def fitted(samples: list[Sample], penalty: float) -> list[float]:
    """The fit of these positions' final margins (row()'s order)."""
    return ridge([row(s[1]) for s in samples], [s[2] for s in samples], penalty)


def spread(samples: list[Sample], fit: list[float], penalty: float) -> dict[str, float]:
    """How far the margins fall from the fit, by Days played: a straight line through each
    position's distance (|margin − fit| · √(π/2), a normal spread's one standard deviation)."""
    days = solo_value.MEASURES.index("days")
    rows = [[1.0, s[1][days]] for s in samples]
    off = [abs(s[2] - predict(fit, s[1])) * math.sqrt(math.pi / 2) for s in samples]
    at_start, per_day = ridge(rows, off, penalty)
    for lo, hi in DAY_BUCKETS:
        part = [o for r, o in zip(rows, off, strict=True) if lo <= r[1] < hi]
        if part:
            print(f"Days {lo}-{min(hi, 17) - 1}: the margins' spread about the fit {sum(part) / len(part):.2f} "
                  f"(the line: {at_start + per_day * (lo + min(hi, 17) - 1) / 2:.2f})")
    return {"at_start": at_start, "per_day": per_day}


def summed(games: list[list[Sample]], played: str) -> list[Sample]:
    samples = [s for game in games for s in game]
    print(f"{len(samples)} positions from {len(games)} solo games of {played}, "
          f"mean margin {sum(g[0][2] for g in games if g) / len(games):+.2f}")
    return samples


def split(fit: list[float]) -> solo_value.Weights:
    """The fit's solution (row()'s order) as the evaluation reads it: bias, weights, weights by Day."""
    n = len(solo_value.MEASURES)
    return fit[0], fit[1:n + 1], fit[n + 1:]


def as_data(fit: list[float]) -> dict:
    """The fit's weights as the data file holds them."""
    bias, weight, by_day = split(fit)
    return {"bias": bias,
            "weight": dict(zip(solo_value.MEASURES, weight, strict=True)),
            "by_day": dict(zip(solo_value.MEASURES, by_day, strict=True))}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=7001)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seeds", default="", help="ranges of seeds instead, e.g. 7001-7030,7200-7231")
    parser.add_argument("--second", default="", help="ranges of seeds for a second round played with the first's fit")
    parser.add_argument("--own", action="append", default=[],
                        help="ranges of seeds for a further round, played by --own-level with the fit of all "
                             "rounds before (repeatable: each --own is one round)")
    parser.add_argument("--own-level", default="dificil")
    parser.add_argument("--level", default="medio")
    parser.add_argument("--difficulty", type=int, default=3)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--ridge", type=float, default=1.0)
    parser.add_argument("--write", action="store_true", help=f"write {solo_value.PATH.name}")
    args = parser.parse_args(argv)
    seeds = seed_ranges(args.seeds) if args.seeds else list(range(args.seed, args.seed + args.games))
    games_named = f"--seeds {args.seeds}" if args.seeds else f"--seed {args.seed} --games {args.games}"
    if args.second:
        games_named += f" --second {args.second}"
    if args.own:
        if not args.second:
            parser.error("--own needs --second")
        games_named += "".join(f" --own {spec}" for spec in args.own) + f" --own-level {args.own_level}"
    with Pool(args.processes) as pool:
        samples = play(pool.starmap, seeds, seed_ranges(args.second) if args.second else [], args.level,
                       args.difficulty, args.ridge, [seed_ranges(spec) for spec in args.own], args.own_level)
    report(samples, args.ridge)
    fit = fitted(samples, args.ridge)
    data = {**as_data(fit), "spread": spread(samples, fit, args.ridge)}
    if not args.write:
        print(yaml.safe_dump(data, sort_keys=False))
        return
    header = ("# Solo Spellbook's evaluation at a cut (rulesets/spellbook/ai/solo_value.py): the final margin over\n"
              "# the track ≈ bias + Σ weight·measure + Σ by_day·measure·(Days played), and how far the margins\n"
              "# fell from it (spread: one standard deviation ≈ at_start + per_day·(Days played)). Written by\n"
              f"#   .venv/bin/python -m bench.fit_solo_value {games_named}"
              f" --level {args.level} --difficulty {args.difficulty} --ridge {args.ridge:g} --write\n"
              "# (docs/ai.md, \"Solo, an evaluation fitted to how games end\"); not edited by hand.\n")
    with solo_value.PATH.open("w", encoding="utf-8") as fh:
        fh.write(header + yaml.safe_dump(data, sort_keys=False))
    print(f"wrote {solo_value.PATH}")


if __name__ == "__main__":
    main()
