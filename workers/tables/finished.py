"""Finished games, read from their archived records: `/partidas` (a person's games in private, the
group's in a group; newest first, 5 a page, one message turned with ◀ ▶), `/exportar` (the game's
log as a JSON file that `boardgamesbot engine replay` replays), and every button of a finished game
(chat buttons "~<arg>", routed to the chat: workers/protocol.py).

Who may see a finished game: its group, and in private the people who sat at its table.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta, timezone

from babel.dates import format_date

from rulesets.core import load_match
from workers.protocol import Button, ascii_int, chat_callback, parse_chat_callback
from workers.tables import render, replay
from workers.tables.context import Ctx
from workers.tables.record import GameRecord
from workers.tables.summary import EXPORT, REPLAY, seat_name

PAGE = 5
PAGE_ARG = "G"  # ~G<page>.<n>: turn the /partidas message n to page `page`
# Dates as the players read them: Brasília (UTC-3, no summer time since 2019) for pt-BR, UTC for English.
ZONES = {"pt_BR": timezone(timedelta(hours=-3)), "en": UTC}


def when(ts: float, lang: str) -> str:
    moment = datetime.fromtimestamp(ts, ZONES.get(lang, UTC))
    return format_date(moment.date(), format="short", locale=render.lang_or_default(lang))


def owner(ctx: Ctx) -> str:
    """Whose list /partidas shows here: the sender's in private, the group's in a group."""
    if ctx.cmd.chat_type == "private":
        return f"u{ctx.cmd.user_id}"
    return f"g{ctx.cmd.chat_id}"


def may_see(ctx: Ctx, record: GameRecord) -> bool:
    if ctx.cmd.chat_type == "private":
        return ctx.cmd.chat_id == ctx.cmd.user_id and any(s.user_id == ctx.cmd.user_id and not s.bot
                                                           for s in record.seats)
    return ctx.cmd.chat_id == record.chat_id


def load(ctx: Ctx, table_id: str) -> GameRecord | None:
    """The finished game's record if this chat may see it; else None, after a short answer."""
    raw = ctx.dir.load_record(table_id) if 1 <= len(table_id) <= 16 else None
    if raw is None:
        ctx.refuse("tables.finished.gone", "stale")
        return None
    record = GameRecord.model_validate(raw)
    if not may_see(ctx, record):
        ctx.refuse("tables.finished.not_yours", "not_player")
        return None
    return record


# ------------------------------------------------------------------------------- /partidas


def entry_lines(record: GameRecord, number: int, lang: str, me: int | None) -> list[str]:
    seats = sorted(record.seats, key=lambda s: (s.place, s.name))
    results = []
    for s in seats:
        name = render.Safe(render.name(seat_name(s.name, s.bot, lang)))
        if me is not None and s.user_id == me and not s.bot:
            name = render.Safe(f"<b>{name}</b>")
        results.append(render.t("tables.finished.result", lang, place=s.place, name=name, points=s.total))
    head = render.t("tables.finished.entry", lang, number=number, game=render.game_title(record.game, lang),
                    date=when(record.ended_at, lang))
    marks = []
    if not record.rated:
        marks.append(render.t("tables.finished.unrated", lang))
    if record.with_bots:
        marks.append(render.t("tables.finished.bots", lang))
    return [head + (" " + " ".join(marks) if marks else ""), "    " + " · ".join(results)]


def page_message(ctx: Ctx, who: str, page: int, n: int) -> tuple[str, list[list[Button]]] | None:
    lang = ctx.here_lang
    ids, total = ctx.dir.finished(who, (page - 1) * PAGE, PAGE)
    if total == 0:
        return None
    pages = max(1, -(-total // PAGE))
    title = "tables.finished.mine" if who.startswith("u") else "tables.finished.group"
    lines = [render.t(title, lang, page=page, pages=pages)]
    rows: list[list[Button]] = []
    me = ctx.cmd.user_id if who.startswith("u") else None
    for i, table_id in enumerate(ids, start=(page - 1) * PAGE + 1):
        raw = ctx.dir.load_record(table_id)
        if raw is None:  # retention removed it since the list was written
            continue
        record = GameRecord.model_validate(raw)
        lines += entry_lines(record, i, lang, me)
        rows.append([Button(text=render.plain("tables.button.replay_n", lang, number=i),
                            callback_data=chat_callback(f"{REPLAY}{table_id}")),
                     Button(text=render.plain("tables.button.export_n", lang, number=i),
                            callback_data=chat_callback(f"{EXPORT}{table_id}"))])
    turn = []
    if page > 1:
        turn.append(Button(text=render.plain("tables.button.older_games", lang),
                           callback_data=chat_callback(f"{PAGE_ARG}{page - 1}.{n}")))
    if page < pages:
        turn.append(Button(text=render.plain("tables.button.newer_games", lang),
                           callback_data=chat_callback(f"{PAGE_ARG}{page + 1}.{n}")))
    if turn:
        rows.append(turn)
    return render.fit(lines), rows


def cmd_games(ctx: Ctx, args: list[str]) -> None:
    n = ctx.cmd.update_id
    drawn = page_message(ctx, owner(ctx), 1, n)
    if drawn is None:
        ctx.reply("tables.finished.none")
        return
    text, rows = drawn
    ctx.send(ctx.cmd.chat_id, text, rows, slot=f"games.{n}", silent=True)


def turn_page(ctx: Ctx, page: int, n: int) -> None:
    if ctx.cmd.chat_type == "private" and ctx.cmd.chat_id != ctx.cmd.user_id:
        ctx.refuse("tables.error.forged", "forged")
        return
    drawn = page_message(ctx, owner(ctx), max(1, page), n)
    if drawn is None:
        ctx.refuse("tables.finished.none", "stale")
        return
    text, rows = drawn
    ctx.send(ctx.cmd.chat_id, text, rows, slot=f"games.{n}", silent=True)
    ctx.answer("")


# ------------------------------------------------------------------------------- /exportar


def export_file(record: GameRecord) -> bytes:
    """The saved match (`rulesets.core.Match` JSON: what `engine replay` reads), with the players' names
    and when the game ended beside it (fields the engine ignores)."""
    data = dict(record.match)
    data["table"] = {"id": record.id, "names": [s.name for s in record.seats], "ended_at": record.ended_at}
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()


def send_export(ctx: Ctx, record: GameRecord) -> None:
    lang = ctx.here_lang
    match = load_match(record.match)
    text = render.t("tables.finished.export", lang, game=render.game_title(record.game, lang),
                    date=when(record.ended_at, lang), count=len(match.log))
    ctx.send(ctx.cmd.chat_id, text, silent=True, document=export_file(record),
             document_name=f"{record.game}-{record.id}.json")


def cmd_export(ctx: Ctx, args: list[str]) -> None:
    ids, _ = ctx.dir.finished(owner(ctx), 0, 1)
    if not ids:
        ctx.reply("tables.finished.none")
        return
    record = load(ctx, ids[0])
    if record is not None:
        send_export(ctx, record)


# ------------------------------------------------------------------------------- buttons


def press(ctx: Ctx) -> None:
    """A chat button ("~<arg>"): a finished game's replay or export, or a /partidas page."""
    arg = parse_chat_callback(ctx.cmd.callback_data) or ""
    head, rest = arg[:1], arg[1:]
    if head == PAGE_ARG:
        page, dot, n = rest.partition(".")
        p, m = ascii_int(page, 4), ascii_int(n, 12)
        if dot and p is not None and m is not None:
            turn_page(ctx, p, m)
            return
    elif head == EXPORT and rest:
        record = load(ctx, rest)
        if record is not None:
            send_export(ctx, record)
            ctx.answer(render.plain("tables.finished.exported", ctx.user_lang))
        return
    elif head == REPLAY and rest:
        record = load(ctx, rest)
        if record is not None:
            replay.open_replay(ctx, record)
        return
    elif head == replay.STEP:
        parsed = replay.parse(rest)
        if parsed is not None:
            table_id, step, n = parsed
            record = load(ctx, table_id)
            if record is not None:
                replay.show_step(ctx, record, step, n)
            return
    ctx.refuse("tables.error.forged", "forged")
