"""Whole system: G concurrent games — Spellbook (3 players), or Trickerion (3 and 4 players,
Dark Alley on) — played by scripted people through the emulator -> webhook -> Celery workers
-> Redis, in both real modes, with Telegram's limits on.

People think before they press: each press waits a random time around `think` seconds, with
`think` at least 3 s and long enough that the games together offer about `TARGET_RATE` moves
a second. Why: every move costs at least one message and Telegram lets a bot send about 30 a
second, so no bot can carry more than ~25 moves a second however fast its machine is; a
bench that pressed as fast as the bot answers would measure the outbox's queue, not the
system. The ceiling itself is measured separately (bench/ceiling.py).

Per move, measured in the emulator's process: press -> next message delivered to a player of
that game (median, p95, p99); moves per second over the window; Bot API requests per move (all
methods, and per method) and answers given in the webhook's replies; 429s the emulator
answered; the most messages any one group got in a minute; and where the time of a move goes
(bench/anatomy.py).
"""

from __future__ import annotations

import asyncio
import statistics
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from bench import anatomy, driver
from bench.live import Live, LiveGame
from bench.stack import Stack, rss_bytes

TARGET_RATE = 15.0  # moves per second offered by all games together (below the ~25/s ceiling)
MIN_THINK = 3.0
# What each game's tables are: players per table (cycled over the tables) and options turned on.
GAMES = {"spellbook": ((3,), ()), "trickerion": ((3, 4), ("dark_alley",))}
TITLES = {"spellbook": "Spellbook, 3 players", "trickerion": "Trickerion, 3–4 players, Dark Alley"}


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
    game: str = "spellbook"
    replies: dict | None = None  # methods run from the webhook's replies (answerCallbackQuery)
    busiest_group: int = 0  # the most messages (sends and edits) one group got in any 60 s
    anatomy: anatomy.AnatomyFigure | None = None

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

    @property
    def replies_per_move(self) -> float:
        return sum((self.replies or {}).values()) / self.moves if self.moves else float("nan")

    @property
    def label(self) -> str:
        return f"{self.mode}, {self.game}, {self.games}"


def think_for(games: int) -> float:
    return max(MIN_THINK, games / TARGET_RATE)


def warmup_for(think: float, moves: int = 6) -> float:
    """Seconds of play before the measured window: `moves` moves' time of every game. The games are
    set up together and start at the same move, so for their first moves they move in step: when
    Trickerion's last magician is chosen (the third or fourth move) every table sends three or four
    new turn messages within the same few seconds, more than Telegram's 30 a second, which tables
    begun at different times never do (the window's p99 was 0.8 s, all of it from those seconds;
    after them 0.2 s). After six moves of random thinking the tables are spread out as they are in
    production. What those first moves cost is left out with them, and the setup's own leftover
    views go out meanwhile."""
    return moves * think


def setup_games(stack: Stack, count: int, players: int | tuple[int, ...] = 3, parallel: int = 8,
                game: str = "spellbook", options: tuple[str, ...] = ()) -> list[LiveGame]:
    """`count` groups of new people (`players` per table, or cycling through a tuple of counts),
    each opening a table of `game` with `options` on, joining through the deep link and starting
    it (bench/driver.open_and_join, several games at a time)."""
    from emulator import ControlClient

    control = stack.control
    counts = (players,) if isinstance(players, int) else players
    groups = []
    for g in range(count):
        users = [control.create_user(f"P{g}-{i}", language_code="pt-br") for i in range(counts[g % len(counts)])]
        groups.append((control.create_group(f"Mesa {g}", users), users))
    local = threading.local()

    def one(group_users):
        if not hasattr(local, "control"):
            local.control = ControlClient(stack.base_url)
        group, users = group_users
        table_id = driver.open_and_join(local.control, group, users, game=game, timeout=120, press_wait=60,
                                        options=options)
        return LiveGame(table_id, group, users)

    with ThreadPoolExecutor(max_workers=min(parallel, count)) as pool:
        return list(pool.map(one, groups))


def run(stack: Stack, games: int, seconds: float, seed: int = 1, live: Live | None = None,
        after_setup=None, after_window=None, game: str = "spellbook", warmup_moves: int = 6) -> SystemFigure:
    """`after_setup(table ids)` / `after_window(table ids)`: called at those moments (memory
    samples)."""
    started = time.monotonic()
    players, options = GAMES[game]
    table = setup_games(stack, games, players=players, game=game, options=options, parallel=16 if options else 8)
    stack.wait_quiet(timeout=600)
    setup_seconds = time.monotonic() - started
    if after_setup is not None:
        after_setup([g.table_id for g in table])
    live = live or Live(stack.world)
    think = think_for(games)
    warm = warmup_for(think, warmup_moves)
    mark: dict = {}

    async def warm_then_play():
        async def window_opens():
            await asyncio.sleep(warm)
            mark["before"], mark["since"], mark["t0"] = stack.world.stats(), time.time(), time.monotonic()
            live.group_sends.clear()
            live.watch_groups = True
        opens = asyncio.ensure_future(window_opens())
        live.count_from = time.monotonic() + warm
        played = await live.play(table, warm + seconds, (0.5 * think, 1.5 * think), seed=seed)
        await opens
        return played

    played = stack.in_loop(warm_then_play(), warm + seconds + 120)
    elapsed = time.monotonic() - mark["t0"]
    before, since = mark["before"], mark["since"]
    live.watch_groups = False
    live.count_from = 0.0
    rss = sum(rss_bytes(pid) for pid in stack.worker_pids())
    if after_window is not None:
        stack.wait_quiet(timeout=120)
        after_window([g.table_id for g in table])
    after = stack.control.stats()
    calls = after["total_calls"] - before["total_calls"]
    answers = after["calls"].get("answerCallbackQuery", 0) - before["calls"].get("answerCallbackQuery", 0)
    e429 = int(after["errors"].get("429", 0)) - int(before["errors"].get("429", 0))
    groups = {g.group for g in played}
    return SystemFigure(stack.mode, games, elapsed, think, sum(g.acked for g in played),
                        sum(g.refused for g in played), sum(g.unanswered for g in played),
                        [x for g in played for x in g.latencies], calls, answers, e429, setup_seconds, rss,
                        _delta(before["calls"], after["calls"]),
                        sum(after["calls_by_chat"].get(str(g.group), 0) - before["calls_by_chat"].get(str(g.group), 0)
                            for g in played),
                        game=game, replies=_delta(before["webhook_replies"], after["webhook_replies"]),
                        busiest_group=max((most_in_a_minute(t) for c, t in live.group_sends.items() if c in groups),
                                          default=0),
                        anatomy=anatomy.measure(stack, live, f"{stack.mode}, {game}, {games}", since))


def most_in_a_minute(times: list[float]) -> int:
    """The most of these moments (seconds) that fall in any 60-second window."""
    xs = sorted(times)
    best = j = 0
    for i, t in enumerate(xs):
        while xs[j] <= t - 60.0:
            j += 1
        best = max(best, i - j + 1)
    return best


def _delta(before: dict, after: dict) -> dict:
    return {k: v - before.get(k, 0) for k, v in after.items() if v - before.get(k, 0)}


def ms(seconds: float) -> str:
    return "–" if seconds != seconds else f"{seconds * 1000:.0f}"


def table(figures: list[SystemFigure]) -> list[str]:
    lines = ["| mode | game | games | think (s) | moves | moves/s | press→prompt median (ms) | p95 | p99 | "
             "Bot API requests/move | answers in webhook replies/move | 429s | refused | busiest group (msgs/min) | "
             "worker RSS (MiB) | setup (s) |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for f in figures:
        lines.append(f"| {f.mode} | {f.game} | {f.games} | {f.think:.1f} | {f.moves} | {f.moves_per_second:.1f} | "
                     f"{ms(f.median)} | {ms(f.pct(0.95))} | {ms(f.pct(0.99))} | {f.calls_per_move:.2f} | "
                     f"{f.replies_per_move:.2f} | {f.errors_429} | {f.refused + f.unanswered} | {f.busiest_group} | "
                     f"{f.worker_rss / 2**20:.0f} | {f.setup_seconds:.0f} |")
    return lines


METHOD_ORDER = ["sendMessage", "editMessageText", "sendPhoto", "editMessageCaption", "editMessageMedia",
                "editMessageReplyMarkup", "deleteMessage", "pinChatMessage", "answerCallbackQuery", "getChatMember"]


def method_columns(by_methods: list[dict | None]) -> list[str]:
    """The methods any of these per-method counts holds, in METHOD_ORDER, others after."""
    seen = {m for by in by_methods for m in (by or {})}
    return [m for m in METHOD_ORDER if m in seen] + sorted(seen - set(METHOD_ORDER))


def method_table(figures: list[SystemFigure]) -> list[str]:
    """Bot API requests per move by method (every method counted), and the webhook's replies."""
    methods = method_columns([f.by_method for f in figures])
    lines = ["| mode | game | games | " + " | ".join(methods) + " | all requests | answerCallbackQuery in a "
             "webhook reply (no request) |", "|---|---|---|" + "---|" * (len(methods) + 2)]
    for f in figures:
        per = [f"{(f.by_method or {}).get(m, 0) / f.moves:.3f}" if f.moves else "–" for m in methods]
        lines.append(f"| {f.mode} | {f.game} | {f.games} | " + " | ".join(per) + f" | {f.calls_per_move:.2f} | "
                     f"{(f.replies or {}).get('answerCallbackQuery', 0) / f.moves if f.moves else 0:.2f} |")
    return lines


def ratio_table(figures: list[SystemFigure]) -> list[str]:
    """Distributed against embedded, per game and G, side by side."""
    by = {(f.mode, f.game, f.games): f for f in figures}
    lines = ["| game | games | embedded median (ms) | distributed median (ms) | ratio | embedded p99 | distributed p99 "
             "| ratio | embedded moves/s | distributed moves/s |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for game, g in sorted({(f.game, f.games) for f in figures}):
        e, d = by.get(("embedded", game, g)), by.get(("distributed", game, g))
        if e is None or d is None:
            continue
        lines.append(f"| {game} | {g} | {ms(e.median)} | {ms(d.median)} | {d.median / e.median:.2f} | "
                     f"{ms(e.pct(0.99))} | {ms(d.pct(0.99))} | {d.pct(0.99) / e.pct(0.99):.2f} | "
                     f"{e.moves_per_second:.1f} | {d.moves_per_second:.1f} |")
    return lines
