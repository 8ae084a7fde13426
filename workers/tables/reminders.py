"""Reminders for whoever the table waits on, and `/lembrar`.

Policy (see docs/telegram.md):
- when the table starts waiting on a seat, a reminder is scheduled `reminder_hours[0]`
  hours later (default 12 h, then 24 h; `/lembretes` changes them per table);
- when it fires ("/_tick w<seat>" from the beat), the seat is reminded in private only if it
  is still waiting *and has been idle* that long: a player who is in the middle of their
  turn (acted recently) is left alone and the reminder moves to <last move> + hours;
- the last reminder of a wait also mentions the player in the group;
- that group message carries a button "🤖 Jogar a vez de <name>": when more than half of the
  other players press it, the médio AI plays that player's current turn (they stay in the
  game; their next turn is theirs again; workers/tables/bots.py);
- after the last reminder nothing more is sent; the group can still `/lembrar`, and a player
  who cannot go on uses `/sair` (the médio AI then plays their seat to the end).
Seats the AI plays (bots, players who left) are never reminded.
"""

from __future__ import annotations

import re

from rulesets.registry import get_game
from workers.protocol import Button, Reminder, ascii_int, callback
from workers.tables import play, render
from workers.tables.context import Ctx

PING_COOLDOWN = 3600.0  # /lembrar: at most once an hour per table
TICK_USER = 0  # beat ticks come with user_id 0, which no Telegram user has
VOTE = "V"  # callback arg "V<seat>": vote to let the médio AI play that seat's turn
IDLE_KEY = "idle"  # "/_tick idle": a lobby nobody touched for 48 h is cancelled (lobby.expire_idle)


def key(seat: int) -> str:
    return f"w{seat}"


def follow(ctx: Ctx, waiting: set[int], actor: int | None = None) -> None:
    """Start or stop the reminder clock of each seat as the table's waiting set changes. A
    player who just moved and is still waited on (the rest of their turn; solo: always)
    starts a fresh wait: its reminders count again from now."""
    table = ctx.table
    assert table is not None
    first = table.reminder_hours[0] * 3600 if table.reminder_hours else None
    for seat, info in enumerate(table.seats):
        wants = seat in waiting and info.played_by is None  # the AI's turns need no reminding
        if wants and (info.waiting_since is None or seat == actor):
            info.waiting_since = ctx.now
            info.reminded = 0
            if first is not None:
                ctx.result.reminders.append(Reminder(table_id=table.id, key=key(seat), due=ctx.now + first))
        elif not wants and info.waiting_since is not None:
            info.waiting_since = None
            info.reminded = 0
            ctx.result.cancel_reminders.append(key(seat))
            table.votes.pop(str(seat), None)


def tick(ctx: Ctx, which: str) -> None:
    """The beat woke the table for reminder `which`."""
    table = ctx.table
    seat = ascii_int(which[1:], 2) if which.startswith("w") else None
    if table is None or table.status != "playing" or seat is None or seat >= len(table.seats):
        ctx.metric("tick:ignored")
        return
    info = table.seats[seat]
    hours = table.reminder_hours
    if info.played_by or info.waiting_since is None or info.reminded >= len(hours):
        ctx.metric("tick:ignored")
        return
    idle_from = max(info.waiting_since, info.last_active)
    due = idle_from + hours[info.reminded] * 3600
    if ctx.now < due:
        # they acted since: quiet until they have been idle long enough
        ctx.result.reminders.append(_reminder(table.id, seat, due))
        ctx.metric("tick:quiet")
        return
    ctx.touch()
    info.reminded += 1
    idle_hours = round((ctx.now - idle_from) / 3600)
    lang = ctx.seat_lang(seat)
    game = render.game_title(table.game, lang)
    ctx.send(info.user_id, render.t("tables.remind.private", lang, game=game, count=idle_hours))
    if info.reminded >= len(hours):
        # the last reminder: the group is told, and the others may vote the médio AI in for this turn
        glang = ctx.group_lang
        vote = Button(text=render.plain("tables.button.vote", glang, name=info.name),
                      callback_data=callback(table.id, table.version, f"{VOTE}{seat}"))
        voters = [i for i in table.humans() if i != seat]  # (bots do not vote: alone with bots, no button)
        ctx.send(table.chat_id, render.t("tables.remind.group", glang, who=render.mention(info.user_id, info.name),
                                         count=idle_hours), [[vote]] if voters else [])
    else:
        ctx.result.reminders.append(_reminder(table.id, seat, idle_from + hours[info.reminded] * 3600))
    ctx.metric("reminders_sent")


def _reminder(table_id: str, seat: int, due: float) -> Reminder:
    return Reminder(table_id=table_id, key=key(seat), due=due)


def ping(ctx: Ctx) -> None:
    """`/lembrar` in the group: remind whoever the table waits on, at most once an hour."""
    table = ctx.table
    assert table is not None
    if table.status != "playing":
        ctx.refuse("tables.error.not_playing", "out_of_place")
        return
    if table.last_ping is not None and ctx.now - table.last_ping < PING_COOLDOWN:
        minutes = max(1, int((PING_COOLDOWN - (ctx.now - table.last_ping)) // 60))
        ctx.refuse("tables.remind.too_soon", "ping_cooldown", count=minutes)
        return
    match = table.load()
    game = get_game(match.game)
    seats = [s for s in game.waiting_on(match.state) if table.seats[s].played_by is None]
    if not seats:
        ctx.refuse("tables.error.not_playing", "out_of_place")
        return
    ctx.touch()
    table.last_ping = ctx.now
    for s in seats:
        info = table.seats[s]
        lang = ctx.seat_lang(s)
        ctx.send(info.user_id, render.t("tables.remind.ping_private", lang, game=render.game_title(table.game, lang),
                                        name=ctx.cmd.user_name))
    who = [render.mention(table.seats[s].user_id, table.seats[s].name) for s in seats]
    ctx.send(table.chat_id, render.t("tables.remind.ping_group", ctx.group_lang,
                                     who=render.join(who, ctx.group_lang)), silent=True)
    ctx.metric("pings")


def settings(ctx: Ctx, args: list[str]) -> None:
    """`/lembretes [h1 [h2 [h3]]]`: show or set the reminder delays of this table."""
    from workers.tables.lobby import may_manage

    table = ctx.table
    assert table is not None
    lang = ctx.here_lang
    if not args:
        shown = render.join([f"{h:g} h" for h in table.reminder_hours], lang) if table.reminder_hours \
            else render.t("tables.remind.off", lang)
        ctx.reply("tables.remind.current", hours=shown)
        return
    if not may_manage(ctx):
        ctx.refuse("tables.error.only_manager", "not_manager")
        return
    if args == ["0"] or args[0].lower() in ("off", "desligar"):
        hours: list[float] = []
    else:
        parsed = [parse_hours(a) for a in args[:3]]
        if any(h is None for h in parsed):
            ctx.refuse("tables.remind.usage", "bad_args")
            return
        hours = sorted(h for h in parsed if h is not None)
        if any(not 1 <= h <= 168 for h in hours):
            ctx.refuse("tables.remind.usage", "bad_args")
            return
    ctx.touch()
    table.reminder_hours = hours
    shown = render.join([f"{h:g} h" for h in hours], lang) if hours else render.t("tables.remind.off", lang)
    ctx.reply("tables.remind.set", hours=shown)


HOURS = re.compile(r"([0-9]{1,3})(?:[.,]([0-9]{1,2}))?[hH]?")


def parse_hours(arg: str) -> float | None:
    """"12", "12h", "1,5" or "1.5h": ASCII digits only (float() would take "٣", "1e2", "nan"
    and "1_2"), at most 3 before the decimal mark and 2 after."""
    m = HOURS.fullmatch(arg) if arg.isascii() else None
    if m is None:
        return None
    return int(m.group(1)) + (int(m.group(2)) / 10 ** len(m.group(2)) if m.group(2) else 0.0)


def vote(ctx: Ctx, seat: int) -> None:
    """A press of "🤖 Jogar a vez de <name>" under the last reminder."""
    table = ctx.table
    assert table is not None
    voter = table.seat_of(ctx.cmd.user_id)
    if ctx.cmd.chat_id != table.chat_id:
        ctx.refuse("tables.error.forged", "forged")
        return
    if voter is None or not table.seats[voter].person:
        ctx.refuse("tables.error.not_player", "not_player")
        return
    if not 0 <= seat < len(table.seats):
        ctx.refuse("tables.error.forged", "forged")
        return
    if voter == seat:
        ctx.refuse("tables.error.vote_self", "vote_self")
        return
    info = table.seats[seat]
    overdue = bool(table.reminder_hours) and info.reminded >= len(table.reminder_hours)
    if info.played_by or info.waiting_since is None or not overdue:
        ctx.refuse("tables.error.stale", "stale")
        return
    voters = table.votes.get(str(seat), [])
    if ctx.cmd.user_id in voters:
        ctx.refuse("tables.error.voted", "voted")
        return
    others = [i for i in table.humans() if i != seat]
    needed = len(others) // 2 + 1
    ctx.touch()
    voters = voters + [ctx.cmd.user_id]
    table.votes[str(seat)] = voters
    ctx.metric("votes")
    if len(voters) < needed:
        ctx.answer(render.plain("tables.vote.counted", ctx.user_lang, votes=len(voters), needed=needed))
        return
    play.stand_in_turn(ctx, seat)
    ctx.answer(render.plain("tables.vote.done", ctx.user_lang, name=info.name))
