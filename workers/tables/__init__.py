"""The table logic: what a command means for a table and what every chat should show.

    handle(table, command, directory, now) -> Result

Pure: no Redis, no Telegram, no clock (`now` is given), no randomness except what is
derived from the table and the command; the same command on the same table gives the same
Result, so the plumbing may retry it. `Result.table` is the new document (None = unchanged);
a command the table already applied (its update_id is remembered) is a no-op.

Modules, one concept each: model (the document), lobby, play (moves and views), bots (seats the AI
plays, their moves), commands, reminders, render (texts and Telegram's limits), picture (which view
each game draws its pictures from; the drawing itself lives in each game's folder); what a finished
game leaves: record (the archived record, ratings and statistics, decided at the end), ratings (the
model), summary (the end-of-game picture), finished (/partidas, /exportar, the finished game's buttons), replay,
standings (/ranking, /estatisticas).
See docs/telegram.md for the behaviour.
"""

from __future__ import annotations

from workers.protocol import Command, Directory, Result, ascii_int, parse_callback, parse_chat_callback
from workers.tables import bots, commands, finished, history, lobby, play, reminders
from workers.tables.context import Ctx
from workers.tables.lobby import set_bot_username
from workers.tables.model import Table

__all__ = ["handle", "set_bot_username"]


def handle(table: dict | None, command: Command, directory: Directory, now: float) -> Result:
    current = Table.model_validate(table) if table is not None else None
    if current is not None and command.update_id in current.seen:
        return Result(metrics={"duplicate": 1}, callback_answer="" if command.kind == "callback" else None)
    ctx = Ctx(current, command, directory, now)
    if command.kind == "callback":
        on_press(ctx)
    else:
        commands.dispatch(ctx)
    bots.announce(ctx)
    return ctx.finish()


def on_press(ctx: Ctx) -> None:
    """A button. Its data is "<table id>:<version>:<arg>", or "~<arg>" for a finished game's buttons
    (routed to the chat: finished.py); anything else is forged."""
    if parse_chat_callback(ctx.cmd.callback_data) is not None:
        finished.press(ctx)
        return
    parsed = parse_callback(ctx.cmd.callback_data)
    if parsed is None:
        ctx.refuse("tables.error.forged", "forged")
        return
    table_id, version, arg = parsed
    table = ctx.table
    if table is None or table.id != table_id:
        ctx.refuse("tables.error.stale", "stale")
        return
    if version > table.version:
        ctx.refuse("tables.error.forged", "forged")
        return
    if not table.open:
        ctx.refuse("tables.error.table_over", "stale")
        return
    if arg.startswith("L"):
        lobby.press(ctx, version, arg)
    elif arg in (commands.CONFIRM_YES, commands.CONFIRM_NO):
        commands.confirm_press(ctx, version, arg)
    elif table.status != "playing":
        ctx.refuse("tables.error.stale", "stale")
    elif history.parse(arg) is not None:
        page, n = history.parse(arg)  # type: ignore[misc]
        history.turn_page(ctx, page, n)
    elif arg.startswith(reminders.VOTE) and ascii_int(arg[1:], 2) is not None:
        reminders.vote(ctx, ascii_int(arg[1:], 2))  # type: ignore[arg-type]
    elif play.parse_choice_arg(arg) is not None:
        owner, index = play.parse_choice_arg(arg)  # type: ignore[misc]
        play.press(ctx, version, owner, index)
    elif arg in (play.UNDO, play.RESEND, play.CARDS, play.BOARD):
        seat = play._seat_for_press(ctx)
        if seat is None:
            return
        if arg == play.UNDO:
            play.take_back(ctx, seat, version)
        elif arg == play.CARDS:
            play.explain(ctx, seat, version)
        elif arg == play.BOARD:
            play.show_board(ctx, seat, version)
        else:
            play.resend(ctx, seat)
    else:
        ctx.refuse("tables.error.forged", "forged")
