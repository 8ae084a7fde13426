"""Tournaments: seat kinds against each other on the engine, with the figures issue 16 asks for.

Game i (seed S+i) puts kind `seats[(p + i) % n]` at table position p, so every kind plays
every position equally often and first-player advantage cancels out over n games. Per kind:
games seated, wins (a tie shares the win: each of k winners gets 1/k; Spellbook's solo tie is
won by nobody), the Wilson 95 % interval of the win rate, the mean score margin (own score
minus the best other score, or the solo rival's), and the time of each decision with more than
one legal choice (a forced move takes no thought) — CPU time of this process, so the figure is
one core's even on a busy machine — with how often the search's time safety net fired.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rulesets.core.ai.knowledge import Budget
from rulesets.core.ai.memory import carry
from rulesets.core.ai.players import SEAT_KINDS, decide
from rulesets.core.ai.search import Node
from rulesets.core.contract import FinalScore
from rulesets.core.match import act, new_match
from rulesets.registry import get_game, get_knowledge


@dataclass
class KindStats:
    seats: int = 0
    wins: float = 0.0
    margins: list[float] = field(default_factory=list)
    times_ms: list[float] = field(default_factory=list)
    capped: int = 0

    def summary(self) -> dict[str, Any]:
        lo, hi = wilson(self.wins, self.seats)
        return {
            "seats": self.seats,
            "wins": round(self.wins, 2),
            "win_rate": round(self.wins / self.seats, 4) if self.seats else 0.0,
            "ci95": [round(lo, 4), round(hi, 4)],
            "mean_margin": round(sum(self.margins) / len(self.margins), 2) if self.margins else 0.0,
            "decision_ms": {"p50": round(percentile(self.times_ms, 50), 1),
                            "p95": round(percentile(self.times_ms, 95), 1),
                            "max": round(max(self.times_ms, default=0.0), 1)},
            "decisions": len(self.times_ms),
            "capped": self.capped,
        }


@dataclass
class GameRecord:
    seed: int
    kinds: list[str]  # by table position
    scores: list[int]
    winners: list[int]
    rival: int | None  # the solo opponent's score


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval of a proportion (95 % for z = 1.96)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile by linear interpolation between the closest ranks."""
    if not values:
        return 0.0
    data = sorted(values)
    pos = (len(data) - 1) * q / 100
    lo = math.floor(pos)
    hi = min(lo + 1, len(data) - 1)
    return data[lo] + (data[hi] - data[lo]) * (pos - lo)


def play_game(game_name: str, options: dict[str, Any], kinds: list[str], seed: int,
              stats: dict[str, KindStats], budgets: dict[str, Budget] | None = None,
              max_actions: int = 20_000) -> GameRecord:
    """One game with `kinds[p]` at position p; decision times and caps go into `stats`."""
    game = get_game(game_name)
    match = new_match(game, options, len(kinds), seed)
    memory: dict[int, Node] = {}  # what each seat's last search left for its next (memory.py)
    for _ in range(max_actions):
        if game.is_over(match.state):
            break
        seat = game.to_act(match.state)[0]  # simultaneous seats decide from their own views: any order
        kind = kinds[seat]
        many = len(game.legal_choices(match.state, seat)) > 1
        started = time.process_time()
        decision = decide(game, match.state, seat, kind, seed * 1_000_003 + len(match.log),
                          (budgets or {}).get(kind), memory=memory.pop(seat, None))
        elapsed = (time.process_time() - started) * 1000
        if many:
            stats[kind].times_ms.append(elapsed)
        stats[kind].capped += decision.capped
        for other, kept in list(memory.items()):  # the others' memories follow this move (before it is played)
            carried = carry(get_knowledge(game_name), kept, match.state, seat, decision.choice, other)
            if carried is None:
                del memory[other]
            else:
                memory[other] = carried
        if decision.memory is not None:
            memory[seat] = decision.memory
        match, _ = act(match, seat, decision.choice, inplace=True)
    else:
        raise RuntimeError(f"{game_name} seed {seed}: no end after {max_actions} actions")
    return record_result(stats, kinds, seed, game.score(match.state))


def record_result(stats: dict[str, KindStats], kinds: list[str], seed: int, score: FinalScore) -> GameRecord:
    """Count one finished game: a shared win is split between its winners."""
    totals = {s.seat: s.total for s in score.seats}
    rival = max((r.total for r in score.rivals), default=None)
    for p, kind in enumerate(kinds):
        s = stats[kind]
        s.seats += 1
        if p in score.winners:
            s.wins += 1 / len(score.winners)
        others = [t for q, t in totals.items() if q != p] + ([rival] if rival is not None else [])
        s.margins.append(totals[p] - max(others) if others else 0)
    return GameRecord(seed, list(kinds), [totals[p] for p in range(len(kinds))], list(score.winners), rival)


def tournament(game_name: str, options: dict[str, Any], seats: list[str], games: int, seed: int,
               budgets: dict[str, Budget] | None = None,
               progress: Callable[[int, GameRecord], None] | None = None) -> dict[str, KindStats]:
    """Play `games` games with the seat kinds rotating through the positions."""
    for kind in seats:
        if kind not in SEAT_KINDS:
            raise ValueError(f"unknown seat kind {kind!r}; known: {', '.join(SEAT_KINDS)}")
    game = get_game(game_name)
    if not game.min_players <= len(seats) <= game.max_players:
        raise ValueError(f"{game_name} seats {game.min_players}-{game.max_players} players, not {len(seats)}")
    stats = {kind: KindStats() for kind in seats}
    n = len(seats)
    for i in range(games):
        kinds = [seats[(p + i) % n] for p in range(n)]
        record = play_game(game_name, options, kinds, seed + i, stats, budgets)
        if progress:
            progress(i, record)
    return stats


def summary(stats: dict[str, KindStats]) -> dict[str, dict[str, Any]]:
    """The JSON object of issue 16, keyed by seat kind (plus the decision count and caps)."""
    return {kind: s.summary() for kind, s in stats.items()}


def table(stats: dict[str, KindStats]) -> list[str]:
    lines = ["| seat kind | seats | wins | win rate | 95 % interval | mean margin | decision ms p50 / p95 / max "
             "| capped |",
             "|---|---|---|---|---|---|---|---|"]
    for kind, row in summary(stats).items():
        ms = row["decision_ms"]
        lines.append(f"| {kind} | {row['seats']} | {row['wins']:g} | {100 * row['win_rate']:.1f} % "
                     f"| {100 * row['ci95'][0]:.1f}–{100 * row['ci95'][1]:.1f} % | {row['mean_margin']:+.2f} "
                     f"| {ms['p50']:.1f} / {ms['p95']:.1f} / {ms['max']:.1f} | {row['capped']} |")
    return lines
