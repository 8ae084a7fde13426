"""What each typed command means, wherever it is typed.

Group commands reach the group's open table (or `table=None` when there is none); private
commands reach `table=None` (routed to "chat:<user id>"), except "/start j<table id>" which
the webhook routes to that table. Commands have pt-BR names and English aliases.
"""

from __future__ import annotations

from collections.abc import Callable

from rulesets.core import load_match
from rulesets.registry import available, get_game
from workers.protocol import Button, callback, parse_join_payload
from workers.tables import bots, cards, finished, history, lobby, play, reminders, render, standings
from workers.tables.context import Ctx
from workers.tables.model import Shown, Table

STATUS_COOLDOWN = 60.0  # /status re-posts the group's status message at most once a minute
CONFIRM_YES, CONFIRM_NO = "Cy", "Cn"

ALIASES = {
    "newgame": "novojogo", "cancel": "cancelar", "help": "ajuda", "history": "historico",
    "games": "jogos", "remind": "lembrar", "undo": "desfazer", "leave": "sair", "language": "idioma",
    "reminders": "lembretes", "histórico": "historico", "rules": "regras", "card": "carta",
    "stats": "estatisticas", "statistics": "estatisticas", "estatísticas": "estatisticas", "matches": "partidas",
    "export": "exportar",
}


def parse(text: str, bot_username: str) -> tuple[str, list[str]] | None:
    """("novojogo", ["spellbook"]) from "/novojogo@Bot spellbook"; None when not a command
    or when it is addressed to another bot."""
    if not text.startswith("/"):
        return None
    head, *args = text.split()
    name, _, target = head[1:].partition("@")
    if target and target.lower() != bot_username.lower():
        return None
    name = name.lower()
    return ALIASES.get(name, name), args


def dispatch(ctx: Ctx) -> None:
    text = (ctx.cmd.text or "").strip()
    parsed = parse(text, lobby.BOT_USERNAME)
    if parsed is None:
        if text.startswith("/"):
            return  # another bot's command
        free_text(ctx)
        return
    name, args = parsed
    if name == "_tick":
        if ctx.cmd.user_id == reminders.TICK_USER and args == [lobby.IDLE_KEY]:
            lobby.expire_idle(ctx)
        elif ctx.cmd.user_id == reminders.TICK_USER and args:
            reminders.tick(ctx, args[0])
        else:
            ctx.metric("rejected:forged")  # a person typing the beat's command: ignore
        return
    if name == bots.COMMAND:
        if ctx.cmd.user_id == bots.BOT_USER:
            bots.move(ctx)
        else:
            ctx.metric("rejected:forged")  # a person typing the AI task's command: ignore
        return
    handler = HANDLERS.get(name)
    if handler is None:
        ctx.refuse("tables.error.unknown_command", "unknown_command")
        return
    handler(ctx, args)


def free_text(ctx: Ctx) -> None:
    """Text where none is expected: a hint in private; silence in groups (people talk there)."""
    if ctx.cmd.chat_type == "private":
        ctx.refuse("tables.hint.free_text", "free_text")
    else:
        ctx.metric("ignored:group_text")


# --------------------------------------------------------------------------- handlers


def cmd_start(ctx: Ctx, args: list[str]) -> None:
    if ctx.cmd.chat_type != "private":
        ctx.reply("tables.hint.start_group", games=game_list(ctx.here_lang))
        return
    if args and parse_join_payload(args[0]) is not None:
        if ctx.table is None or ctx.table.id != parse_join_payload(args[0]):
            ctx.refuse("tables.error.table_gone", "table_gone")
            return
        lobby.join(ctx)
        return
    ctx.reply("tables.hint.welcome", games=game_list(ctx.here_lang))


def game_list(lang: str) -> render.Safe:
    """One line per game: the /novojogo word and the game's name (the greeting, /ajuda)."""
    return render.Safe("\n".join(render.t("tables.help.newgame", lang, name=g, game=render.game_title(g, lang))
                                  for g in available()))


def cmd_new(ctx: Ctx, args: list[str]) -> None:
    if ctx.table is not None and not ctx.table.open:
        # Queued before the last table closed: the result is saved under that table's key,
        # so a new table cannot be opened from here. The next /novojogo reaches chat:<id>.
        ctx.refuse("tables.error.just_closed", "out_of_place")
        return
    lobby.new_table(ctx, args)


def _group_table(ctx: Ctx) -> Table | None:
    """The open table of the group the command was typed in, or a short answer."""
    if ctx.cmd.chat_type == "private":
        ctx.refuse("tables.error.group_only", "out_of_place")
        return None
    if ctx.table is None or not ctx.table.open:
        ctx.refuse("tables.error.no_table", "no_table")
        return None
    return ctx.table


def cmd_cancel(ctx: Ctx, args: list[str]) -> None:
    table = _group_table(ctx)
    if table is None:
        return
    if not lobby.may_manage(ctx):
        ctx.refuse("tables.error.only_manager", "not_manager")
        return
    ctx.touch()
    lang = ctx.group_lang
    text = render.t("tables.cancel.confirm", lang, game=render.game_title(table.game, lang))
    rows = [[Button(text=render.plain("tables.button.cancel_yes", lang),
                    callback_data=callback(table.id, table.version, CONFIRM_YES)),
             Button(text=render.plain("tables.button.cancel_no", lang),
                    callback_data=callback(table.id, table.version, CONFIRM_NO))]]
    slot = table.confirm.slot if table.confirm else "confirm"
    table.confirm = Shown(slot=slot, version=table.version, digest=render.fingerprint(text), kind="confirm")
    ctx.send(table.chat_id, text, rows, slot=slot)


def confirm_press(ctx: Ctx, version: int, arg: str) -> None:
    table = ctx.table
    assert table is not None
    if ctx.cmd.chat_id != table.chat_id:
        ctx.refuse("tables.error.forged", "forged")
        return
    if table.confirm is None or table.confirm.version != version or not table.open:
        ctx.refuse("tables.error.stale", "stale")
        return
    if not lobby.may_manage(ctx):
        ctx.refuse("tables.error.only_manager", "not_manager")
        return
    ctx.touch()
    slot = table.confirm.slot
    table.confirm = None
    if arg == CONFIRM_NO:
        ctx.delete(table.chat_id, slot)
        ctx.answer(render.plain("tables.cancel.kept", ctx.user_lang))
        return
    lang = ctx.group_lang
    ended = render.t("tables.cancel.done", lang, game=render.game_title(table.game, lang),
                     name=ctx.cmd.user_name)
    if table.lobby is not None:  # the lobby says it, the question goes
        ctx.send(table.chat_id, ended, slot=table.lobby.slot, silent=True)
        ctx.delete(table.chat_id, slot)
        table.lobby = None
    else:
        ctx.send(table.chat_id, ended, slot=slot, silent=True)  # the question becomes the answer
    play.close(ctx, "cancelled", None)
    ctx.answer("")


def _seated(ctx: Ctx, table) -> int | None:
    """The sender's seat at the table, or None after telling them they are not playing."""
    seat = table.seat_of(ctx.cmd.user_id)
    if seat is None or not table.seats[seat].person:
        ctx.refuse("tables.error.not_player", "not_player")
        return None
    return seat


def cmd_leave(ctx: Ctx, args: list[str]) -> None:
    if ctx.cmd.chat_type == "private":
        leave_in_private(ctx)
        return
    table = _group_table(ctx)
    if table is None:
        return
    seat = _seated(ctx, table)
    if seat is None:
        return
    if table.status == "lobby":
        lobby.leave(ctx)
        ctx.reply("tables.lobby.left")
    else:
        play.leave(ctx, seat)


def leave_in_private(ctx: Ctx) -> None:
    """`/sair` in private: a Sair button for each lobby the user sits at (the press reaches that table);
    a game is left from its group, where the others see it."""
    lang = ctx.user_lang
    buttons, playing = [], False
    for table_id in ctx.dir.user_tables(ctx.cmd.user_id):
        raw = ctx.dir.load_table(table_id)
        if raw is None:
            continue
        table = Table.model_validate(raw)
        if table.seat_of(ctx.cmd.user_id) is None or not table.open:
            continue
        if table.status == "lobby":
            buttons.append(Button(
                text=render.label(render.plain("tables.button.leave_table", lang,
                                               game=render.game_title(table.game, lang))),
                callback_data=callback(table.id, table.version, lobby.LEAVE_PRIVATE)))
        else:
            playing = True
    if buttons:
        ctx.send(ctx.cmd.chat_id, render.t("tables.lobby.leave_which", lang), render.keyboard(buttons, width=1))
    elif playing:
        ctx.refuse("tables.hint.leave_group", "out_of_place")
    else:
        ctx.refuse("tables.games.none", "no_table", games=game_list(ctx.here_lang))


def cmd_undo(ctx: Ctx, args: list[str]) -> None:
    if ctx.cmd.chat_type == "private":
        ctx.refuse("tables.hint.undo_private", "out_of_place")
        return
    table = _group_table(ctx)
    if table is None:
        return
    seat = _seated(ctx, table)
    if seat is None:
        return
    if table.status != "playing":
        ctx.refuse("tables.error.not_playing", "out_of_place")
        return
    play.take_back(ctx, seat, None)
    if ctx.changed:
        ctx.reply("tables.play.undone_group", name=table.seats[seat].name)


def cmd_remind(ctx: Ctx, args: list[str]) -> None:
    if _group_table(ctx) is not None:
        reminders.ping(ctx)


def cmd_reminders(ctx: Ctx, args: list[str]) -> None:
    if _group_table(ctx) is not None:
        reminders.settings(ctx, args)


def cmd_status(ctx: Ctx, args: list[str]) -> None:
    if ctx.cmd.chat_type == "private":
        my_tables(ctx, detailed=True)
        return
    table = _group_table(ctx)
    if table is None:
        return
    if ctx.now - table.status_posted_at < STATUS_COOLDOWN:
        ctx.metric("ignored:status_cooldown")  # it was posted a moment ago, right above
        return
    if table.status == "lobby":
        lobby.show_lobby(ctx, new_message=True)
        return
    match = table.load()
    ctx.touch()
    play.show_status(ctx, get_game(match.game), match, new_message=True)


def cmd_games(ctx: Ctx, args: list[str]) -> None:
    if ctx.cmd.chat_type != "private":
        ctx.refuse("tables.error.private_only", "out_of_place")
        return
    my_tables(ctx, detailed=False)


def my_tables(ctx: Ctx, detailed: bool) -> None:
    """`/jogos` (and `/status` in private): the user's tables, those waiting on them first,
    each with a button that sends their prompt again."""
    user = ctx.cmd.user_id
    lang = ctx.user_lang
    entries: list[tuple[int, list[str], Button | None]] = []
    for table_id in ctx.dir.user_tables(user):
        raw = ctx.dir.load_table(table_id)
        if raw is None:
            continue
        table = Table.model_validate(raw)
        seat = table.seat_of(user)
        if seat is None or not table.open:
            continue
        title = render.game_title(table.game, lang)
        others = [render.name(s.name) for i, s in enumerate(table.seats) if i != seat]
        with_whom = render.join(others, lang) if others else render.t("tables.games.solo", lang)
        if table.status == "lobby":
            entries.append((2, [render.t("tables.games.lobby", lang, game=title, others=with_whom)], None))
            continue
        match = load_match(table.match or {})
        game = get_game(match.game)
        waits = sorted(play.waiting(game, match))
        button = None
        if seat in waits and not table.seats[seat].played_by:
            line = render.t("tables.games.your_turn", lang, game=title, others=with_whom)
            button = Button(text=render.label(render.plain("tables.button.show_prompt", lang, game=title)),
                            callback_data=callback(table.id, table.version, play.RESEND))
        else:
            names = [render.name(table.seats[s].name) for s in waits]
            line = render.t("tables.games.waiting", lang, game=title, others=with_whom,
                            names=render.join(names, lang))
        lines = [line]
        if detailed:
            lines += [render.game_text(m, lang, table.names()) for m in game.table(match.state, seat)]
        entries.append((0 if seat in waits else 1, lines, button))
    if not entries:
        ctx.reply("tables.games.none", games=game_list(ctx.here_lang))
        return
    entries.sort(key=lambda e: e[0])
    text_lines = [render.t("tables.games.title", lang)]
    for _, lines, _ in entries:
        text_lines += lines
    buttons = [b for _, _, b in entries if b is not None]
    ctx.send(ctx.cmd.chat_id, render.fit(text_lines), render.keyboard(buttons, width=1))


def cmd_help(ctx: Ctx, args: list[str]) -> None:
    lang = ctx.here_lang
    lines = []
    table = ctx.table
    if table is not None and table.open:
        title = render.game_title(table.game, lang)
        if table.status == "lobby":
            lines.append(render.t("tables.help.lobby", lang, game=title))
        else:
            lines.append(render.t("tables.help.playing", lang, game=title))
        lines += game_help(table, lang)
    lines.append(render.t("tables.help.commands", lang, games=game_list(lang)))
    ctx.send(ctx.cmd.chat_id, render.fit(lines))


def game_help(table: Table, lang: str) -> list[str]:
    """How to play, short: the game's summary and the current phase's (from the public view)."""
    out = []
    key = f"tables.help.game.{table.game}"
    if render.has_text(key, lang):
        out.append(render.t(key, lang))
    if table.status == "playing" and table.match is not None:
        match = load_match(table.match)
        phase = get_game(match.game).view(match.state, None).get("phase")
        phase_key = f"{key}.{phase}"
        if isinstance(phase, str) and render.has_text(phase_key, lang):
            out.append(render.t(phase_key, lang))
    return out


def cmd_history(ctx: Ctx, args: list[str]) -> None:
    """The whole log this chat may see, a page at a time (history.py): public lines in the group, a
    seat's own in private (one message per open game, newest page first)."""
    tables: list[tuple[Table, int | None]] = []
    if ctx.cmd.chat_type != "private":
        table = _group_table(ctx)
        if table is None:
            return
        tables.append((table, None))
    else:
        for table_id in ctx.dir.user_tables(ctx.cmd.user_id):
            raw = ctx.dir.load_table(table_id)
            if raw is not None:
                t = Table.model_validate(raw)
                seat = t.seat_of(ctx.cmd.user_id)
                if t.status == "playing" and seat is not None:
                    tables.append((t, seat))
    shown = [history.show(ctx, table, seat, ctx.cmd.chat_id) for table, seat in tables[:3]]
    if not any(shown):
        ctx.refuse("tables.error.no_history", "no_history")


def cmd_language(ctx: Ctx, args: list[str]) -> None:
    current = ctx.here_lang
    wanted = args[0].lower() if args else ""
    if wanted.startswith(("pt", "portugu")):
        lang = "pt_BR"
    elif wanted.startswith(("en", "ingl")):
        lang = "en"
    elif not wanted:
        lang = "en" if current == "pt_BR" else "pt_BR"
    else:
        ctx.refuse("tables.hint.language", "bad_args")
        return
    ctx.result.chat_lang[ctx.cmd.chat_id] = lang
    ctx.send(ctx.cmd.chat_id, render.t("tables.language.set", lang))
    table = ctx.table
    if table is not None and table.open and ctx.cmd.chat_type != "private":
        redraw_group(ctx, lang)


class _Lang:
    """A directory view that answers the new language for one chat (used right after /idioma,
    before the plumbing has saved it)."""

    def __init__(self, inner, chat_id: int, lang: str) -> None:
        self.inner, self.chat_id, self.lang = inner, chat_id, lang

    def chat_lang(self, chat_id: int) -> str | None:
        return self.lang if chat_id == self.chat_id else self.inner.chat_lang(chat_id)

    def __getattr__(self, name: str):
        return getattr(self.inner, name)


def redraw_group(ctx: Ctx, lang: str) -> None:
    """Redraw the lobby or status message in the group's new language."""
    table = ctx.table
    assert table is not None
    ctx.dir = _Lang(ctx.dir, table.chat_id, lang)
    if table.status == "lobby":
        lobby.show_lobby(ctx)
    elif table.match is not None:
        match = table.load()
        ctx.touch()
        play.show_status(ctx, get_game(match.game), match)


HANDLERS: dict[str, Callable[[Ctx, list[str]], None]] = {
    "start": cmd_start,
    "novojogo": cmd_new,
    "cancelar": cmd_cancel,
    "sair": cmd_leave,
    "desfazer": cmd_undo,
    "lembrar": cmd_remind,
    "lembretes": cmd_reminders,
    "status": cmd_status,
    "jogos": cmd_games,
    "ajuda": cmd_help,
    "historico": cmd_history,
    "idioma": cmd_language,
    "regras": cards.cmd_rules,
    "carta": cards.cmd_card,
    "ranking": standings.cmd_ranking,
    "estatisticas": standings.cmd_statistics,
    "partidas": finished.cmd_games,
    "exportar": finished.cmd_export,
}
