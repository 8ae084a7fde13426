"""Bots at the table: seats whose moves the AI makes (`rulesets.core.ai`), and how those moves are made.

Who plays a seat (`SeatInfo.played_by`): its person; a bot added in the lobby ("+ Bot", `SeatInfo.bot`
is its level); or the médio AI (`model.STAND_IN_LEVEL`) for a player who left (`/sair`) and, for the
turn being waited on, for a player the others voted for after the reminders (`SeatInfo.covered`).

The table logic never searches while it handles a command (a person's press must not wait behind a
bot's thinking). When a command leaves the table waiting on a seat the AI plays, the Result says so
(`Result.bot_turn`); the plumbing's AI task (workers/ai.py, on a Celery queue of its own) takes a
snapshot of the table, computes the move with `next_move` and queues it on the table's route as the
command `/_bot <seat> <table version> <choice id>` from user 0, which no Telegram user is (the beat's
ticks come the same way). `play` applies it like a press: only while the table is still at the
version the move was computed at, so a move computed from a table that changed since is refused and
the turn is announced again (and recomputed). The move itself is logged in the match like any other,
so replays never run the AI again.

Determinism: the seed of a bot's decision is derived from the table and the match's version, so the
same table at the same moment gives the same move however often the task runs. Where the game's
knowledge reuses a search's tree in the bot's next decision (`rulesets.core.ai.memory`; Spellbook
solo), that memory is an input too: the AI task keeps it with the table (`ai:mem:{table}`, written in
the same call that pushes the move) stamped with the seat and the match version it is for — the
version once the move is played — and hands it back only to that seat at that version. Anything
else that moved the match in between (a person's move, an undo, a refused bot move) leaves the
stamp behind, and the bot thinks afresh, as a bot without a memory would.
"""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass, field

from rulesets.core import IllegalMove, Match, act
from rulesets.core.ai import LEVELS, Node, think
from rulesets.core.ai import memory as ai_memory
from rulesets.registry import KNOWLEDGE, get_game
from workers.protocol import BotTurn, ascii_int
from workers.tables import play, render
from workers.tables.context import Ctx
from workers.tables.model import SeatInfo, Table

COMMAND = "_bot"  # "/_bot <seat> <table version> <choice id>", from user 0 only
BOT_USER = 0  # the AI task's commands come as user 0, like the beat's ticks


@dataclass(frozen=True)
class BotMove:
    """A move the AI decided for `seat` of a table at table version `version`."""

    table_id: str
    seat: int
    version: int
    choice: str
    level: str  # the seat kind that decided it (for logs)
    memory: bytes = field(default=b"", compare=False, repr=False)  # what the seat keeps (`keep`); b"": nothing


    def text(self) -> str:
        return f"/{COMMAND} {self.seat} {self.version} {self.choice}"


def offers_bots(game: str) -> bool:
    """Bots can sit at this game's tables: the AI has knowledge of it (rulesets.registry.KNOWLEDGE)."""
    return game in KNOWLEDGE


def kind(game: str, level: str) -> str:
    """The seat kind `choose` plays for `level` in this game: without the AI's knowledge of a game, the
    game's own stand-in (a table of a game without it can still lose a player)."""
    return level if offers_bots(game) else "stand-in"


# --------------------------------------------------------------------------- seats


def bot_name(table: Table, level: str, lang: str) -> str:
    """"Bot Médio 1": the first number no seat of the table uses yet with that name."""
    taken = {s.name for s in table.seats}
    n = 1
    while render.plain(f"tables.bots.name.{level}", lang, n=n) in taken:
        n += 1
    return render.plain(f"tables.bots.name.{level}", lang, n=n)


def bot_seat(table: Table, level: str, lang: str, now: float) -> SeatInfo:
    """A new bot seat. Its user id is negative (no Telegram user has one, and it is never written to:
    a bot has no private chat) and unique at the table."""
    user_id = min([s.user_id for s in table.seats if s.bot] + [0]) - 1
    return SeatInfo(user_id=user_id, name=bot_name(table, level, lang), lang=lang, bot=level, joined_at=now,
                    last_active=now)


def level_label(level: str, lang: str) -> str:
    return render.plain(f"tables.bots.level.{level}", lang)


def ai_seats(table: Table) -> list[int]:
    """The seats the table waits on whose moves the AI makes, lowest first."""
    return [s for s in table.acting if 0 <= s < len(table.seats) and table.seats[s].played_by]


# --------------------------------------------------------------------------- the turn


def announce(ctx: Ctx) -> None:
    """Before the Result leaves: if the table now waits on a seat the AI plays, say so. Only after a change
    (or a bot's own command, refused or not): an unchanged table's pending turn is already recorded."""
    table = ctx.table
    if table is None or table.status != "playing" or not (ctx.changed or is_bot_command(ctx)):
        return
    if ai_seats(table):
        ctx.result.bot_turn = BotTurn(table_id=table.id, since=table.status_at)


def is_bot_command(ctx: Ctx) -> bool:
    return ctx.cmd.user_id == BOT_USER and (ctx.cmd.text or "").startswith(f"/{COMMAND} ")


def seed(table: Table, version: int, seat: int) -> int:
    """The bot's dice for this decision: the table and the match's version (a ℹ️ press, which changes the
    table's version but not the match, leaves the move as it was)."""
    return play.derived("bot", table.id, version, seat)


_STAMP = struct.Struct("<hqH")  # a memory's seat, the match version it is for, its move's length


def keep(node: Node | None, seat: int, version: int, choice: str) -> bytes:
    """A seat's memory as the AI task stores it: stamped with the seat, the match version at which its
    next decision may use it and the move it follows (b"" for none)."""
    if node is None:
        return b""
    move = choice.encode()
    return _STAMP.pack(seat, version, len(move)) + move + ai_memory.dump(node)


def recall(blob: bytes | None, match: Match, seat: int) -> Node | None:
    """The memory `keep` stored, if it is this seat's, for this match version, and the match's last move
    is the one it follows — the seat's own, not a stand-in's played instead (else None: think afresh)."""
    if not blob or len(blob) < _STAMP.size:
        return None
    who, version, size = _STAMP.unpack_from(blob)
    move = blob[_STAMP.size:_STAMP.size + size].decode(errors="replace")
    last = match.log[-1] if match.log else None
    if (who, version) != (seat, match.version) or last is None or (last.seat, last.choice) != (seat, move):
        return None
    try:
        return ai_memory.load(blob[_STAMP.size + size:])
    except (zlib.error, struct.error, UnicodeDecodeError, IndexError):
        return None  # not a memory this code wrote (a damaged key): think afresh rather than fail


def next_move(doc: dict, memory: bytes | None = None, *, fallback: bool = False) -> BotMove | None:
    """The AI's move for the first seat it plays that the table waits on, from a snapshot of the table
    document (the AI task's work: this is where the search runs). None when no bot is to act.
    `fallback`: the game's stand-in decides instead (the AI task's way out when the search fails).
    `memory`: what the AI task kept of the last move it computed for this table (`BotMove.memory`)."""
    table = Table.model_validate(doc)
    if table.status != "playing" or table.match is None:
        return None
    match = table.load()
    game = get_game(match.game)
    for seat in sorted(play.waiting(game, match)):
        level = table.seats[seat].played_by
        if level:
            chosen = "stand-in" if fallback else kind(table.game, level)
            decision = think(match, seat, chosen, seed(table, match.version, seat), recall(memory, match, seat))
            return BotMove(table.id, seat, table.version, decision.choice, chosen,
                           keep(decision.memory, seat, match.version + 1, decision.choice))
    return None


def parse(text: str) -> tuple[int, int, str] | None:
    """(seat, table version, choice id) of a "/_bot" command."""
    parts = text.split(" ", 3)
    if len(parts) != 4 or parts[0] != f"/{COMMAND}":
        return None
    seat, version = ascii_int(parts[1], 2), ascii_int(parts[2])
    if seat is None or version is None or not parts[3]:
        return None
    return seat, version, parts[3]


def move(ctx: Ctx) -> None:
    """"/_bot <seat> <version> <choice>" from the AI task: the move, applied like a press — only at the
    table version it was computed at, for a seat the AI plays that the table waits on."""
    table = ctx.table
    parsed = parse(ctx.cmd.text or "")
    if parsed is None:
        ctx.metric("rejected:forged")
        return
    seat, version, choice = parsed
    if table is None or table.status != "playing":
        ctx.metric("bot:ignored")  # the table closed meanwhile
        return
    if version != table.version or not 0 <= seat < len(table.seats) or seat not in ai_seats(table):
        ctx.metric("rejected:bot_stale")  # the table changed since the snapshot: announce() asks again
        return
    match = table.load()
    game = get_game(match.game)
    if seat not in play.waiting(game, match):
        ctx.metric("rejected:bot_stale")
        return
    turn = play.Turn(before=play.waiting(game, match))
    try:
        match, events = act(match, seat, choice, expected_version=match.version, inplace=True)
    except IllegalMove:
        # the AI chose what the rules refuse here: a bug in a game's knowledge must not stall the table,
        # so the game's stand-in moves instead (and the metric says it happened)
        ctx.metric("bot_fallback")
        pick = play.derived("stand-in", table.id, match.version, seat)
        match, events = act(match, seat, game.stand_in_choice(match.state, seat, pick), inplace=True)
    ctx.touch()
    ctx.metric("bot_moves")
    turn.record(match, seat, events)
    table.ai_log = len(match.log)
    table.store(match)
    play.refresh(ctx, game, match, turn)


__all__ = ["BOT_USER", "COMMAND", "LEVELS", "BotMove", "announce", "bot_seat", "level_label", "move", "next_move",
           "offers_bots"]
