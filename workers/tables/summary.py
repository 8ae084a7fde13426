"""The end-of-game summary in the group: one picture (the game draws it from public data:
`Game.summary_picture`) whose caption gives each seat's place, points and rating change, with the
buttons that open the game's replay and export its log. A game without a summary picture gets the
same caption as a text message."""

from __future__ import annotations

from rulesets.core import Game, Match
from workers.protocol import Button, chat_callback
from workers.tables import picture, render
from workers.tables.context import Ctx
from workers.tables.record import GameRecord

REPLAY = "P"  # ~P<table id>: open the replay (workers/tables/replay.py)
EXPORT = "X"  # ~X<table id>: send the log as a JSON file (workers/tables/finished.py)


def caption(record: GameRecord, lang: str) -> str:
    lines = [render.t("tables.record.summary", lang, game=render.game_title(record.game, lang))]
    for s in sorted(record.seats, key=lambda x: (x.place, x.name)):
        mark = render.t("tables.status.stand_in_mark", lang) if s.left else render.Safe("")
        who = render.Safe(render.name(seat_name(s.name, s.bot, lang)) + mark)
        if s.rating is None:
            lines.append(render.t("tables.record.seat", lang, place=s.place, name=who, count=s.total))
        else:
            lines.append(render.t("tables.record.seat_rated", lang, place=s.place, name=who, count=s.total,
                                  rating=render.decimal(s.rating, lang), change=render.signed(s.change or 0, lang)))
    if not record.rated:
        lines.append(render.t("tables.record.unrated", lang))
    elif record.with_bots:
        lines.append(render.t("tables.record.with_bots", lang))
    return render.fit(lines, render.CAPTION_LIMIT)


def seat_name(name: str, bot: str | None, lang: str) -> str:
    """A seat's name as records show it: a bot seat seated in the lobby by its own name ("🤖 Bot Médio 1",
    so two bots of one level are told apart), a bot's rating (named by its entity, "bot:medio") by its
    level."""
    if not bot:
        return name
    if name and not name.startswith("bot:"):
        return f"🤖 {name}"
    key = f"tables.bot.{bot}"
    return render.plain(key, lang) if render.has_text(key, lang) else render.plain("tables.bot.any", lang, level=bot)


def buttons(table_id: str, lang: str) -> list[list[Button]]:
    return [[Button(text=render.plain("tables.button.replay", lang),
                    callback_data=chat_callback(f"{REPLAY}{table_id}")),
             Button(text=render.plain("tables.button.export", lang),
                    callback_data=chat_callback(f"{EXPORT}{table_id}"))]]


def post(ctx: Ctx, game: Game, match: Match, record: GameRecord) -> None:
    """The summary message in the group (a one-off: it stays as the game's last word)."""
    table = ctx.table
    assert table is not None
    lang = ctx.group_lang
    names = [seat_name(s.name, s.bot, lang) for s in record.seats]
    drawn = game.summary_picture(record.summary(game.view(match.state, None)), names, picture.say(lang, names))
    ctx.send(table.chat_id, caption(record, lang), buttons(table.id, lang), photo=drawn, silent=True)
