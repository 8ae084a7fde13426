"""Flood drill: one user sends 60 updates a second for 10 seconds while 10 games play.

The same 10 Spellbook games (3 players each, scripted people pressing about once a second per
game) are measured twice on one stack: a 10 s window with nobody flooding, then a 10 s window
while a bystander — a member of the first game's group, seated nowhere — sends 60 updates a
second through the emulator, as a Telegram client would deliver them: "/jogos" in the private
chat and presses of the group's status message, alternately. The webhook's admission bucket
(BGB_FLOOD_BURST 10, BGB_FLOOD_RATE 3/s) lets about 40 of the 600 through and drops the
rest with at most one "slow down" answer a minute; the same two windows are then run on a
stack whose webhook admits everything (distributed mode only), for comparison. Reported: the
players' press→prompt (p50, p99) in both windows and their ratio (goal: the flood's p99 within
2× of the quiet one's), what the flooder sent, what got through, how many answers they
received, and the longest the emulator's webhook delivery queue got (the emulator delivers as
Telegram does, over up to 40 connections at once with each chat's updates in order, so the
flooder's chats queue behind each other and not in front of everyone else's).
"""

from __future__ import annotations

import asyncio
import math
import time
from dataclasses import dataclass, field

from bench.live import Live, LiveGame
from bench.stack import Stack
from bench.system import setup_games

GAMES = 10
RATE = 60.0  # updates per second from the flooder
SECONDS = 10.0
THINK = (0.5, 1.5)  # seconds before each press: about one move a second per game


@dataclass
class FloodFigure:
    mode: str
    label: str
    moves: int
    latencies: list[float] = field(default_factory=list)
    sent: int = 0
    dropped: int = 0
    answers: int = 0
    backlog: int = 0  # most updates waiting in the emulator's (in-order) webhook delivery queue

    def pct(self, q: float) -> float:
        if not self.latencies:
            return math.nan
        xs = sorted(self.latencies)
        return xs[min(len(xs) - 1, int(q * len(xs)))]


async def _backlog(world, seconds: float) -> int:
    """The longest the emulator's webhook delivery queue got while the window ran."""
    most = 0
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        most = max(most, len(world.updates))
        await asyncio.sleep(0.1)
    return most


async def _flood(live: Live, user_id: int, group: int, rate: float, seconds: float) -> tuple[int, int]:
    """Send `rate` updates a second for `seconds`; returns (sent, presses answered with a text)."""
    world = live.world
    chat_private = world.chats[user_id]
    presses: list[asyncio.Task] = []
    sent = 0
    start = time.monotonic()
    while (elapsed := time.monotonic() - start) < seconds:
        if sent > elapsed * rate:
            await asyncio.sleep(1 / rate)
            continue
        if sent % 2:
            world.user_writes(chat_private, world.users[user_id], "/jogos")
        else:
            status = [m for m in world.chats[group].messages.values() if m.from_bot and not m.deleted][-1]
            data = next((b.get("callback_data") for row in (status.reply_markup or {}).get("inline_keyboard") or []
                         for b in row if b.get("callback_data")), None) or "flood:1:0.0"
            presses.append(asyncio.ensure_future(live.press(group, status, user_id, data, wait=20)))
        sent += 1
    answers = await asyncio.gather(*presses)
    return sent, sum(1 for a in answers if a.get("answered") and a.get("text"))


def _window(stack: Stack, live: Live, games: list[LiveGame], label: str, flooder: int | None,
            seed: int, seconds: float = SECONDS) -> FloodFigure:
    for g in games:
        g.latencies.clear()
        g.acked = 0
    before = stack.counters().get("bad_update:flood", 0)
    replies_before = _bot_messages(stack, flooder) if flooder else 0

    async def both():
        play = live.play(games, seconds, THINK, seed=seed)
        if flooder is None:
            _, most = await asyncio.gather(play, _backlog(live.world, seconds))
            return 0, 0, most
        _, flooded, most = await asyncio.gather(play, _flood(live, flooder, games[0].group, RATE, seconds),
                                                _backlog(live.world, seconds))
        return (*flooded, most)

    sent, toasts, most = stack.in_loop(both(), seconds + 120)
    if flooder is None:
        stack.wait_quiet(timeout=300)
    else:
        # Without admission control the flooder's hundreds of answers leave at Telegram's one a
        # second per chat, for minutes: count what reached them once every command is applied.
        stack.wait_commands_done(timeout=300)
    fig = FloodFigure(stack.mode, label, sum(g.acked for g in games), [x for g in games for x in g.latencies],
                      backlog=most)
    if flooder:
        fig.sent = sent
        fig.dropped = stack.counters().get("bad_update:flood", 0) - before
        fig.answers = toasts + _bot_messages(stack, flooder) - replies_before
    return fig


def _bot_messages(stack: Stack, user_id: int) -> int:
    return sum(1 for m in stack.control.messages(user_id) if m["from_bot"])


# The webhook with admission control off (a bucket nobody empties), for the comparison row.
NO_ADMISSION = {"BGB_FLOOD_BURST": "1000000", "BGB_FLOOD_RATE": "1000000"}


def run(stack: Stack, live: Live | None = None, games: int = GAMES, label: str = "",
        seconds: float = SECONDS) -> list[FloodFigure]:
    """The quiet window and the flooded one on this stack; `label` names the stack's setting
    (`games` and `seconds` are smaller in `bench --quick`)."""
    live = live or Live(stack.world)
    table = setup_games(stack, games)
    flooder = stack.control.create_user("Enchente", language_code="pt-br")
    stack.control._call("POST", f"groups/{table[0].group}/members", {"user_id": flooder})
    stack.control.send(flooder, flooder, "/start")
    stack.wait_quiet(timeout=300)
    quiet = _window(stack, live, table, f"no flood{label}", None, seed=11, seconds=seconds)
    flood = _window(stack, live, table, f"one user at {RATE:.0f} updates/s{label}", flooder, seed=12, seconds=seconds)
    return [quiet, flood]


def table(figures: list[FloodFigure]) -> list[str]:
    lines = ["| mode | window | moves | p50 press→prompt | p99 press→prompt | flooder sent | accepted | dropped "
             "| answers to the flooder | delivery backlog |", "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for f in figures:
        flooded = f.sent > 0
        lines.append(f"| {f.mode} | {f.label} | {f.moves} | {f.pct(0.5) * 1000:.0f} ms | {f.pct(0.99) * 1000:.0f} ms "
                     f"| {f.sent if flooded else '–'} | {f.sent - f.dropped if flooded else '–'} | "
                     f"{f.dropped if flooded else '–'} | {f.answers if flooded else '–'} | {f.backlog} |")
    return lines


def goal_lines(figures: list[FloodFigure], issue: str | None = None) -> list[str]:
    """Goal rows; `issue`: a first column naming where the goal comes from."""
    out = []
    by_mode: dict[str, list[FloodFigure]] = {}
    for f in figures:
        by_mode.setdefault(f.mode, []).append(f)
    for mode, (quiet, flood) in ((m, fs[:2]) for m, fs in by_mode.items() if len(fs) >= 2):
        ratio = flood.pct(0.99) / quiet.pct(0.99) if quiet.latencies and flood.latencies else math.nan
        verdict = "met" if ratio <= 2 else "**missed**"
        out.append(("" if issue is None else f"| {issue} ")
                   + f"| others' p99 press→prompt under a 60/s flood within 2× of without ({mode}) | {ratio:.2f}× "
                   f"({flood.pct(0.99) * 1000:.0f} ms against {quiet.pct(0.99) * 1000:.0f} ms) | {verdict} |")
    return out
