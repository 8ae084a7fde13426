"""Whole games: what a game costs in Bot API requests per move, from its first move to its end.

The whole-system runs (bench/system.py) measure one minute of play; their tables start together,
so that minute always holds the same stretch of every game: at 10 games moves 7–26 of a
Trickerion game (the magicians, each player's setup, the first Propaganda and assignment: the
phases that start every player's turn at once and send each of them a new message), at 100
games moves 7–15 (the setup alone). Neither is what a bot spends over the games it carries:
live games are at every point of their play at once. Here G tables (the system run's kinds:
Spellbook with 3 players; Trickerion with 3 and 4, Dark Alley on) are set up through the bot,
and from the first press to the last message after the final scores every Bot API request is
counted, per method, against the moves the bot acknowledged — so the end of a game (final
scores, the summary picture, the status's last drawing) is paid for too.

Telegram's limits are on and people think `THINK` seconds before each press: the bot is
measured at a few moves a second, as at the 10-game window. The views' credit refills by
BGB_VIEW_CREDIT's per-second share too, so at a slower pace a move pays a little more of it
(per second ÷ moves per second); the table prints the pace.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from bench.live import Live
from bench.stack import Stack
from bench.system import GAMES, _delta, method_columns, most_in_a_minute, setup_games

THINK = (0.3, 1.2)  # seconds a person thinks before a press (uniform)
TIMEOUT = 1800.0  # seconds every game together may take to end (Live.play plays on 600 s past its window)


@dataclass
class WholeGames:
    mode: str
    game: str
    games: int
    finished: int
    moves: int
    refused: int
    seconds: float
    api_calls: int
    by_method: dict
    replies: dict
    errors_429: int
    busiest_group: int

    @property
    def calls_per_move(self) -> float:
        return self.api_calls / self.moves if self.moves else float("nan")

    @property
    def moves_per_second(self) -> float:
        return self.moves / self.seconds if self.seconds else 0.0


def run(stack: Stack, game: str, games: int, seed: int = 7, live: Live | None = None,
        think: tuple[float, float] = THINK) -> WholeGames:
    players, options = GAMES[game]
    tables = setup_games(stack, games, players=players, game=game, options=options)
    stack.wait_quiet(timeout=600)
    live = live or Live(stack.world)
    before = stack.world.stats()
    live.group_sends.clear()
    live.watch_groups = True
    started = time.monotonic()
    played = stack.in_loop(live.play(tables, TIMEOUT - 600, think, seed=seed, to_the_end=True), TIMEOUT + 120)
    seconds = time.monotonic() - started
    stack.wait_quiet(timeout=600)  # what the last moves left to send (final scores, pictures, views) is theirs
    live.watch_groups = False
    after = stack.control.stats()
    groups = {g.group for g in played}
    return WholeGames(stack.mode, game, games, sum(g.over for g in played), sum(g.acked for g in played),
                      sum(g.refused + g.unanswered for g in played), seconds,
                      after["total_calls"] - before["total_calls"], _delta(before["calls"], after["calls"]),
                      _delta(before["webhook_replies"], after["webhook_replies"]),
                      int(after["errors"].get("429", 0)) - int(before["errors"].get("429", 0)),
                      max((most_in_a_minute(t) for c, t in live.group_sends.items() if c in groups), default=0))


def table(figures: list[WholeGames]) -> list[str]:
    methods = method_columns([f.by_method for f in figures])
    lines = ["| mode | game | games (ended) | moves | moves/s | " + " | ".join(f"{m}/move" for m in methods)
             + " | Bot API requests/move | answers in webhook replies/move | 429s | refused | busiest group "
             "(msgs/min) |", "|---|---|---|---|---|" + "---|" * len(methods) + "---|---|---|---|---|"]
    for f in figures:
        per = [f"{f.by_method.get(m, 0) / f.moves:.3f}" if f.moves else "–" for m in methods]
        replies = f.replies.get("answerCallbackQuery", 0) / f.moves if f.moves else 0.0
        lines.append(f"| {f.mode} | {f.game} | {f.games} ({f.finished}) | {f.moves} | {f.moves_per_second:.1f} | "
                     + " | ".join(per) + f" | {f.calls_per_move:.2f} | {replies:.2f} | {f.errors_429} | {f.refused} "
                     f"| {f.busiest_group} |")
    return lines
