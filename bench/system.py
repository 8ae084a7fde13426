"""Whole system: G concurrent Spellbook games played by scripted people through the emulator
-> webhook -> Celery workers -> Redis, in both real modes, with Telegram's limits on.

People think before they press: each press waits a random time around `think` seconds, with
`think` at least 3 s and long enough that the games together offer about `TARGET_RATE` moves
a second. Why: every move costs at least one message and Telegram lets a bot send about 30 a
second, so no bot can carry more than ~25 moves a second however fast its machine is; a
bench that pressed as fast as the bot answers would measure the outbox's queue, not the
system. The ceiling itself is measured separately (bench/ceiling.py).

Per move, measured in the emulator's process: press -> next message delivered to a player of
that game (median, p95, p99); moves per second over the window; Bot API calls per move (all,
and without answerCallbackQuery); 429s the emulator answered.
"""

from __future__ import annotations

import statistics
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from bench import driver
from bench.live import Live, LiveGame
from bench.stack import Stack, rss_bytes

TARGET_RATE = 15.0  # moves per second offered by all games together (below the ~25/s ceiling)
MIN_THINK = 3.0


@dataclass
class SystemFigure:
    mode: str
    games: int
    seconds: float
    think: float
    moves: int
    refused: int
    unanswered: int
    latencies: list[float]
    api_calls: int
    answer_calls: int
    errors_429: int
    setup_seconds: float
    worker_rss: int
    by_method: dict | None = None
    group_calls: int = 0

    def pct(self, q: float) -> float:
        if not self.latencies:
            return float("nan")
        xs = sorted(self.latencies)
        return xs[min(len(xs) - 1, int(q * len(xs)))]

    @property
    def median(self) -> float:
        return statistics.median(self.latencies) if self.latencies else float("nan")

    @property
    def moves_per_second(self) -> float:
        return self.moves / self.seconds if self.seconds else 0.0

    @property
    def calls_per_move(self) -> float:
        return self.api_calls / self.moves if self.moves else float("nan")

    @property
    def calls_per_move_without_answers(self) -> float:
        return (self.api_calls - self.answer_calls) / self.moves if self.moves else float("nan")


def think_for(games: int) -> float:
    return max(MIN_THINK, games / TARGET_RATE)


def setup_games(stack: Stack, count: int, players: int = 3, parallel: int = 8) -> list[LiveGame]:
    """`count` groups of `players` new people, each opening a Spellbook table, joining through
    the deep link and starting it (bench/driver.open_and_join, several games at a time)."""
    from emulator import ControlClient

    control = stack.control
    groups = []
    for g in range(count):
        users = [control.create_user(f"P{g}-{i}", language_code="pt-br") for i in range(players)]
        groups.append((control.create_group(f"Mesa {g}", users), users))
    local = threading.local()

    def one(group_users):
        if not hasattr(local, "control"):
            local.control = ControlClient(stack.base_url)
        group, users = group_users
        table_id = driver.open_and_join(local.control, group, users, timeout=120, press_wait=60)
        return LiveGame(table_id, group, users)

    with ThreadPoolExecutor(max_workers=min(parallel, count)) as pool:
        return list(pool.map(one, groups))


def run(stack: Stack, games: int, seconds: float, seed: int = 1, live: Live | None = None,
        after_setup=None, after_window=None) -> SystemFigure:
    """`after_setup(table ids)` / `after_window(table ids)`: called at those moments (memory
    samples)."""
    started = time.monotonic()
    table = setup_games(stack, games)
    stack.wait_quiet(timeout=600)
    setup_seconds = time.monotonic() - started
    if after_setup is not None:
        after_setup([g.table_id for g in table])
    live = live or Live(stack.world)
    think = think_for(games)
    before = stack.control.stats()
    t0 = time.monotonic()
    played = stack.in_loop(live.play(table, seconds, (0.5 * think, 1.5 * think), seed=seed), seconds + 120)
    elapsed = time.monotonic() - t0
    rss = sum(rss_bytes(pid) for pid in stack.worker_pids())
    if after_window is not None:
        stack.wait_quiet(timeout=120)
        after_window([g.table_id for g in table])
    after = stack.control.stats()
    calls = after["total_calls"] - before["total_calls"]
    answers = after["calls"].get("answerCallbackQuery", 0) - before["calls"].get("answerCallbackQuery", 0)
    e429 = int(after["errors"].get("429", 0)) - int(before["errors"].get("429", 0))
    return SystemFigure(stack.mode, games, elapsed, think, sum(g.acked for g in played),
                        sum(g.refused for g in played), sum(g.unanswered for g in played),
                        [x for g in played for x in g.latencies], calls, answers, e429, setup_seconds, rss,
                        _delta(before["calls"], after["calls"]),
                        sum(after["calls_by_chat"].get(str(g.group), 0) - before["calls_by_chat"].get(str(g.group), 0)
                            for g in played))


def _delta(before: dict, after: dict) -> dict:
    return {k: v - before.get(k, 0) for k, v in after.items() if v - before.get(k, 0)}


def ms(seconds: float) -> str:
    return "–" if seconds != seconds else f"{seconds * 1000:.0f}"


def table(figures: list[SystemFigure]) -> list[str]:
    lines = ["| mode | games | think (s) | moves | moves/s | press→prompt median (ms) | p95 | p99 | "
             "API calls/move | without answerCallbackQuery | 429s | refused | worker RSS (MiB) | setup (s) |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for f in figures:
        lines.append(f"| {f.mode} | {f.games} | {f.think:.1f} | {f.moves} | {f.moves_per_second:.1f} | "
                     f"{ms(f.median)} | {ms(f.pct(0.95))} | {ms(f.pct(0.99))} | {f.calls_per_move:.2f} | "
                     f"{f.calls_per_move_without_answers:.2f} | {f.errors_429} | {f.refused + f.unanswered} | "
                     f"{f.worker_rss / 2**20:.0f} | {f.setup_seconds:.0f} |")
    return lines


def ratio_table(figures: list[SystemFigure]) -> list[str]:
    """Distributed against embedded, per G, side by side."""
    by = {(f.mode, f.games): f for f in figures}
    lines = ["| games | embedded median (ms) | distributed median (ms) | ratio | embedded p99 | distributed p99 "
             "| ratio | embedded moves/s | distributed moves/s |",
             "|---|---|---|---|---|---|---|---|---|"]
    for g in sorted({f.games for f in figures}):
        e, d = by.get(("embedded", g)), by.get(("distributed", g))
        if e is None or d is None:
            continue
        lines.append(f"| {g} | {ms(e.median)} | {ms(d.median)} | {d.median / e.median:.2f} | {ms(e.pct(0.99))} | "
                     f"{ms(d.pct(0.99))} | {d.pct(0.99) / e.pct(0.99):.2f} | {e.moves_per_second:.1f} | "
                     f"{d.moves_per_second:.1f} |")
    return lines
