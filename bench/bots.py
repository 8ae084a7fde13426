"""Bots beside people: does a person's press→prompt change while bot games play on the same system?

Issue 16's goal: "the whole-system bench shows human p99 unchanged with 20 bot games running beside
100 human ones". On one distributed stack (compose's layout: the tasks' worker, the AI's own pool at a
lower CPU priority, the beat, the webhook, a real Redis) with Telegram's limits on:

1. `humans` Spellbook games (3 scripted people each, bench/system.py's players and think times) and
   `bots` bot tables (Trickerion, four médio bots each — the level that plays for a player who left —
   opened by one person who seats the bots with the lobby's "🤖 + Bot" and does not sit) are set up;
2. window A: the people play for `seconds`, the bot tables wait in their lobbies;
3. the bot tables are started (their bots move at the production pace, BGB_BOT_PACE);
4. window B: the same people play on for `seconds` while the bots play;
5. the bot tables are cancelled (/cancelar), and window A′: the people alone again.

Reported: press→prompt (median, p95, p99) in each window; the bots' moves a second and the AI's
thinking time during window B. Goal: window B's p99 within 1.25× of the people alone (A and A′
together: on a machine shared with other work, two windows of the same load minutes apart differ by
about that much, and the second one alone shows how much).
"""

from __future__ import annotations

import math
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from bench import anatomy, driver
from bench.live import Live
from bench.stack import Stack
from bench.system import setup_games, think_for
from rulesets.registry import get_game

GOAL_RATIO = 1.25
BOT_GAME = "trickerion"
BOT_LEVEL = "Médio"  # the lobby's label of the level ("🤖 + Bot Médio")
BOTS_PER_TABLE = 4


@dataclass
class BotsFigure:
    mode: str
    humans: int
    bots: int
    seconds: float
    before: list[float] = field(default_factory=list)  # press→prompt, people alone (A)
    beside: list[float] = field(default_factory=list)  # press→prompt, people beside the bot games (B)
    after: list[float] = field(default_factory=list)  # press→prompt, people alone again (A′)
    bot_moves: int = 0  # the bots' moves during window B
    think_ms: int = 0  # the AI's thinking during window B (CPU, summed over its pool)
    bot_tables_over: int = 0
    layout: str = "every core shared, the AI's pool in the idle class"  # where the AI's pool ran
    # where people's press→prompt went in windows A and B (bench/anatomy.py): what the bots slow
    anatomy_alone: anatomy.AnatomyFigure | None = None
    anatomy_beside: anatomy.AnatomyFigure | None = None

    @staticmethod
    def pct(xs: list[float], q: float) -> float:
        if not xs:
            return math.nan
        xs = sorted(xs)
        return xs[min(len(xs) - 1, int(q * len(xs)))]

    @property
    def alone(self) -> list[float]:
        return self.before + self.after

    @property
    def ratio(self) -> float:
        a, b = self.pct(self.alone, 0.99), self.pct(self.beside, 0.99)
        return b / a if a else math.nan


# ----------------------------------------------------------------------------- a table of bots


def press_label(control, chat: int, user: int, label: str, timeout: float = 60, check: bool = True) -> None:
    """Press the newest button of the chat with that label, as a person would (the lobby's). `check`: the
    press must be answered (within the control API's 30 s) and not refused."""
    def find():
        for m in reversed(control.messages(chat)):
            if m["from_bot"] and not m["deleted"]:
                for row in m.get("reply_markup") or []:
                    for b in row:
                        if b.get("text") == label and b.get("callback_data"):
                            return m, b
        return None

    message, button = driver.wait_for(find, timeout, f"the button {label!r}")
    answer = control.press(chat, message["message_id"], user, button["callback_data"], wait=20 if check else 1)
    if check and (not answer.get("answered") or driver.refused(answer) and not answer["text"].startswith("Pronto")):
        raise AssertionError(f"{label!r}: {answer}")


def lobby_players(control, chat: int) -> str:
    for m in reversed(control.messages(chat)):
        if m["from_bot"] and not m["deleted"] and "Jogadores (" in (m.get("text") or ""):
            return m["text"]
    return ""


def open_bot_table(control, group: int, creator: int, game: str, levels: list[str], start: bool = True) -> str:
    """The creator opens a table, seats bots of those levels ("Fácil", "Médio", "Difícil") with the lobby's
    🤖 + Bot and — if `start` — presses Começar without sitting. Returns the table id."""
    control.send(group, creator, f"/novojogo {game}")
    lobby = driver.wait_for(lambda: driver.lobby_message(control, group), 60, "the lobby message")
    join_url = next(b["url"] for row in lobby["reply_markup"] for b in row if b.get("url"))
    table_id = join_url.rsplit("start=", 1)[1][1:]
    press_label(control, group, creator, "🤖 + Bot")
    for n, level in enumerate(levels, start=1):
        press_label(control, group, creator, f"🤖 + Bot {level}")
        driver.wait_for(lambda n=n: f"({n}/" in lobby_players(control, group), 60, f"{n} bots seated")
    if len(levels) < get_game(game).max_players:  # (a full table is back to the lobby's main buttons)
        press_label(control, group, creator, "Voltar")
    if start:
        press_label(control, group, creator, "Começar")
    return table_id


def _status(stack: Stack, table_id: str) -> str | None:
    from workers.store import decode_doc

    doc = decode_doc(stack.redis.hget(f"{stack.prefix}table:{table_id}", "doc"))
    return doc.get("status") if doc else None


# ----------------------------------------------------------------------------- the run


def run(stack: Stack, humans: int, bots: int, seconds: float, seed: int = 1, parallel: int = 8) -> BotsFigure:
    from emulator import ControlClient

    games = setup_games(stack, humans)
    local = threading.local()

    def lobby(g: int) -> tuple[int, int, str]:
        if not hasattr(local, "control"):
            local.control = ControlClient(stack.base_url)
        creator = local.control.create_user(f"B{g}", language_code="pt-br")
        group = local.control.create_group(f"Bots {g}", [creator])
        return group, creator, open_bot_table(local.control, group, creator, BOT_GAME, [BOT_LEVEL] * BOTS_PER_TABLE,
                                              start=False)

    with ThreadPoolExecutor(max_workers=max(1, min(parallel, bots))) as pool:
        tables = list(pool.map(lobby, range(bots)))
    stack.wait_quiet(timeout=600)
    live = Live(stack.world)
    think = think_for(humans)
    window = (0.5 * think, 1.5 * think)
    figure = BotsFigure(stack.mode, humans, bots, seconds)
    since = time.time()
    stack.in_loop(live.play(games, seconds, window, seed=seed), seconds + 120)
    figure.before = [x for g in games for x in g.latencies]
    figure.anatomy_alone = anatomy.measure(stack, live, "A, alone", since)
    marks = {id(g): len(g.latencies) for g in games}

    def begin(t: tuple[int, int, str]) -> None:
        # (twenty Trickerion deals at once on a busy machine may take longer than the control API waits)
        if not hasattr(local, "control"):
            local.control = ControlClient(stack.base_url)
        press_label(local.control, t[0], t[1], "Começar", check=False)
        driver.wait_for(lambda: _status(stack, t[2]) == "playing", 300, "a bot table started", interval=0.5)

    with ThreadPoolExecutor(max_workers=max(1, min(parallel, bots))) as pool:
        list(pool.map(begin, tables))
    before = stack.counters()
    since = time.time()
    stack.in_loop(live.play(games, seconds, window, seed=seed + 1), seconds + 120)
    after = stack.counters()
    figure.anatomy_beside = anatomy.measure(stack, live, "B, beside the bots", since)
    figure.beside = [x for g in games for x in g.latencies[marks[id(g)]:]]
    figure.bot_moves = after.get("bot_moves", 0) - before.get("bot_moves", 0)
    figure.think_ms = after.get("bot_think_ms", 0) - before.get("bot_think_ms", 0)
    figure.bot_tables_over = sum(_status(stack, t[2]) == "over" for t in tables)

    def cancel(t: tuple[int, int, str]) -> None:
        if not hasattr(local, "control"):
            local.control = ControlClient(stack.base_url)
        if _status(stack, t[2]) != "playing":
            return
        local.control.send(t[0], t[1], "/cancelar")
        press_label(local.control, t[0], t[1], "Sim, cancelar", check=False)
        driver.wait_for(lambda: _status(stack, t[2]) != "playing", 300, "a bot table cancelled", interval=0.5)

    with ThreadPoolExecutor(max_workers=max(1, min(parallel, bots))) as pool:
        list(pool.map(cancel, tables))
    marks = {id(g): len(g.latencies) for g in games}
    stack.in_loop(live.play(games, seconds, window, seed=seed + 2), seconds + 120)
    figure.after = [x for g in games for x in g.latencies[marks[id(g)]:]]
    return figure


# ----------------------------------------------------------------------------- the report


def ms(seconds: float) -> str:
    return "–" if seconds != seconds else f"{seconds * 1000:.0f}"


def table(figures: list[BotsFigure]) -> list[str]:
    def three(xs: list[float]) -> str:
        return f"{ms(BotsFigure.pct(xs, 0.5))} / {ms(BotsFigure.pct(xs, 0.95))} / {ms(BotsFigure.pct(xs, 0.99))}"

    lines = ["| mode | human games | bot games | window (s) | A, people alone: median / p95 / p99 (ms) | "
             "B, beside the bots | A′, alone again | p99 B ÷ (A + A′) | bot moves/s (B) | AI thinking (CPU s/s) |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for f in figures:
        lines.append(f"| {f.mode}: {f.layout} | {f.humans} | {f.bots} | {f.seconds:.0f} | {three(f.before)} | "
                     f"{three(f.beside)} | "
                     f"{three(f.after)} | {f.ratio:.2f} | {f.bot_moves / f.seconds:.1f} | "
                     f"{f.think_ms / 1000 / f.seconds:.2f} |")
    return lines


def anatomy_table(figures: list[BotsFigure]) -> list[str]:
    """Each run's stages of a person's move (bench/anatomy.py), window A beside window B."""
    pairs = [a for f in figures for a in (f.anatomy_alone, f.anatomy_beside) if a is not None]
    return anatomy.table(pairs) if pairs else []


def goal_lines(figures: list[BotsFigure]) -> list[str]:
    lines = []
    for f in figures:
        ok = f.ratio <= GOAL_RATIO
        lines.append(f"| issue 16: human p99 unchanged beside {f.bots} bot games ({f.mode}, {f.layout}, "
                     f"{f.humans} human games; "
                     f"≤ {GOAL_RATIO}× alone) | {ms(f.pct(f.alone, 0.99))} → {ms(f.pct(f.beside, 0.99))} ms "
                     f"({f.ratio:.2f}×), {f.bot_moves / f.seconds:.1f} bot moves/s | "
                     f"{'met' if ok else '**missed**'} |")
    return lines


METHOD = [
    f"Bots beside people (bench/bots.py): a distributed stack with the AI's own pool (prefork 2, in the "
    f"CPU's idle class as compose.yaml runs it: BGB_CPU_IDLE), run twice (`--bot-cores`): every core shared, "
    f"then the pool on the last core and the rest of the stack (webhook, worker, beat, emulator, players) on "
    f"the others; the human games are bench/system.py's; each bot "
    f"table is {BOT_GAME} with "
    f"{BOTS_PER_TABLE} {BOT_LEVEL.lower()} bots, seated with the lobby's 🤖 + Bot by a person who does not sit, "
    "started between the two windows; bots move at the production pace (BGB_BOT_PACE, 3 s after the group's "
    "status last changed). Window A: people alone (the bot tables wait in their lobbies); window B: the same "
    "people beside the bot games; window A′: the bot tables cancelled, people alone again. The AI's pool applies "
    "its bots' moves and sends what they show itself.",
]
