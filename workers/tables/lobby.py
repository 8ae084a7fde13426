"""The lobby: `/novojogo <jogo>` opens a table in the group, players join through a deep
link to the bot's private chat, the creator (or a group admin) sets the options and starts.

The lobby message is one group message edited in place. Its buttons:
    Entrar   a URL button, https://t.me/<bot>?start=j<table id>: Telegram opens the private
             chat and sends "/start j<table id>", which joins — so the bot can always write
             to every player privately
    Sair     leave the table
    Opções   switch the message to the options (each press cycles one option's value)
    Remover jogador  (creator or group admin) one button per seated player: removes them
    🤖 + Bot  (creator or group admin) one button per AI level: seats a bot of that level
             ("Bot Médio 1"; workers/tables/bots.py), who counts as a player
    Começar  deal the game (creator or group admin; within the game's player counts, bots
             included — a table of bots alone is a game the group watches)

Only members of the group take seats (the plumbing asks Telegram and fills
`Command.is_chat_member`). Lobbies are bounded: a user has at most MAX_OPEN_LOBBIES waiting
to start, a group opens at most MAX_TABLES_PER_HOUR tables an hour, and a lobby nobody
touches for LOBBY_IDLE_HOURS is cancelled by a reminder tick.
"""

from __future__ import annotations

import enum
import hashlib
import os
import types
import typing
from typing import Any

import annotated_types

from rulesets.core import Game
from rulesets.registry import available, get_game
from workers.names import clean_name
from workers.protocol import TABLE_ID_CHARS, Button, Reminder, ascii_int, callback, join_payload
from workers.tables import bots, play, reminders, render
from workers.tables.context import Ctx
from workers.tables.model import SeatInfo, Shown, Table

# The bot's @username, for the deep link. The plumbing sets it from getMe at start-up
# (`set_bot_username`), or from the environment.
BOT_USERNAME = os.environ.get("TELEGRAM_BOT_USERNAME", "BoardGamesBot")

# Options that only make sense for some player counts, when the game's Options model does
# not say so itself (json_schema_extra={"players": [min, max]} on the field).
OPTION_PLAYERS: dict[tuple[str, str], tuple[int, int]] = {
    ("spellbook", "difficulty"): (1, 1),  # the solo opponent's head start
}

LEAVE, OPTIONS, BACK, START, OPTION, REMOVE, ADD_BOT = "Lx", "Lo", "Lb", "Ls", "Lo", "Lr", "La"
LEAVE_PRIVATE = "Lp"  # Sair in the player's private chat (the join confirmation, /sair there)

MAX_OPEN_LOBBIES = 3  # lobbies one user opened that wait to start
MAX_TABLES_PER_HOUR = 10  # tables opened in one group within an hour
LOBBY_IDLE_HOURS = 48  # a lobby with no change for this long is cancelled
IDLE_KEY = reminders.IDLE_KEY


def set_bot_username(name: str) -> None:
    global BOT_USERNAME
    BOT_USERNAME = name.lstrip("@")


def join_url(table_id: str) -> str:
    return f"https://t.me/{BOT_USERNAME}?start={join_payload(table_id)}"


def new_id(chat_id: int, update_id: int) -> str:
    """The table's id, derived from the command that opened it (not Directory.new_table_id)
    so that handling that command again gives the same table: 12 base-36 characters."""
    n = int(hashlib.sha256(f"table:{chat_id}:{update_id}".encode()).hexdigest(), 16)
    out = ""
    for _ in range(12):
        n, r = divmod(n, 36)
        out += TABLE_ID_CHARS[r]
    return out


def may_manage(ctx: Ctx) -> bool:
    """Starting, cancelling and settings: the table's creator or an admin of the group."""
    assert ctx.table is not None
    return ctx.cmd.user_id == ctx.table.creator or ctx.cmd.is_chat_admin


# --------------------------------------------------------------------------- options


def _values(annotation: Any, metadata: list[Any]) -> list[Any] | None:
    """The finite list of values a lobby button can cycle through, if there is one."""
    origin = typing.get_origin(annotation)
    if origin is typing.Literal:
        return list(typing.get_args(annotation))
    if origin in (typing.Union, types.UnionType):
        return None
    if annotation is bool:
        return [False, True]
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return [m.value for m in annotation]
    if annotation is int:
        low = high = None
        for m in metadata:
            if isinstance(m, annotated_types.Ge):
                low = m.ge
            elif isinstance(m, annotated_types.Gt):
                low = m.gt + 1
            elif isinstance(m, annotated_types.Le):
                high = m.le
            elif isinstance(m, annotated_types.Lt):
                high = m.lt - 1
        if low is not None and high is not None and 0 < high - low + 1 <= 12:
            return list(range(int(low), int(high) + 1))
    return None


def adjustable(game: Game, players: int) -> list[tuple[str, list[Any], Any]]:
    """(field, values, default) of the options a lobby can set for this many players."""
    out = []
    for name, info in game.Options.model_fields.items():
        values = _values(info.annotation, list(info.metadata))
        if not values:
            continue
        extra = info.json_schema_extra if isinstance(info.json_schema_extra, dict) else {}
        bounds = extra.get("players") or OPTION_PLAYERS.get((game.name, name))
        if bounds and not bounds[0] <= players <= bounds[1]:
            continue
        out.append((name, values, info.default))
    return out


def _option_text(game: str, field: str, value: Any, lang: str) -> tuple[str, str]:
    """(label of the option, label of its value), from the game's domain or ours."""
    def look(*keys: str) -> str | None:
        for key in keys:
            if render.has_text(key, lang):
                return render.plain(key, lang)
        return None

    v = str(value).lower() if isinstance(value, bool) else str(value)
    name = look(f"{game}.option.{field}", f"tables.option.{game}.{field}") or field
    shown = look(f"{game}.option.{field}.{v}", f"tables.option.{game}.{field}.{v}",
                 *(["core.yes" if value else "core.no"] if isinstance(value, bool) else [])) or v
    return name, shown


def _current(table: Table, field: str, default: Any) -> Any:
    return table.options.get(field, default)


# --------------------------------------------------------------------------- message


def lobby_view(ctx: Ctx) -> tuple[str, list[list[Button]]]:
    table = ctx.table
    assert table is not None
    lang = ctx.group_lang
    game = get_game(table.game)
    title = render.game_title(table.game, lang)
    names = [render.name(s.name) for s in table.seats]
    options = adjustable(game, max(1, len(table.seats)))
    lines = [render.t("tables.lobby.title", lang, game=title),
             render.t("tables.lobby.players", lang, count=len(table.seats), max=game.max_players,
                      names=render.join(names, lang) if names else render.t("tables.lobby.nobody", lang))]
    for field, _, default in options:
        label, value = _option_text(table.game, field, _current(table, field, default), lang)
        lines.append(render.t("tables.lobby.option", lang, label=label, value=value))
    v = table.version

    def cb(arg: str) -> str:
        return callback(table.id, v, arg)

    if table.lobby_view == "options" and options:
        lines.append(render.t("tables.lobby.options_hint", lang))
        buttons = []
        for i, (field, _, default) in enumerate(options):
            label, value = _option_text(table.game, field, _current(table, field, default), lang)
            buttons.append([Button(text=render.label(f"{label}: {value} ▸"), callback_data=cb(f"{OPTION}{i}"))])
        buttons.append([Button(text=render.plain("tables.button.back", lang), callback_data=cb(BACK))])
        return render.fit(lines), buttons
    if table.lobby_view == "bots" and can_add_bot(table):
        lines.append(render.t("tables.bots.lobby_hint", lang))
        buttons = [[Button(text=render.plain("tables.bots.button.level", lang, level=bots.level_label(level, lang)),
                           callback_data=cb(f"{ADD_BOT}{i}"))] for i, level in enumerate(bots.LEVELS)]
        buttons.append([Button(text=render.plain("tables.button.back", lang), callback_data=cb(BACK))])
        return render.fit(lines), buttons
    if table.lobby_view == "remove" and table.seats:
        lines.append(render.t("tables.lobby.remove_hint", lang))
        buttons = [[Button(text=render.label(render.plain("tables.button.remove_seat", lang, name=s.name)),
                           callback_data=cb(f"{REMOVE}{i}"))] for i, s in enumerate(table.seats)]
        buttons.append([Button(text=render.plain("tables.button.back", lang), callback_data=cb(BACK))])
        return render.fit(lines), buttons
    lines.append(render.t("tables.lobby.hint", lang, min=game.min_players, max=game.max_players))
    if can_add_bot(table):
        lines.append(render.t("tables.bots.lobby_line", lang))
    first = [Button(text=render.plain("tables.button.join", lang), url=join_url(table.id)),
             Button(text=render.plain("tables.button.leave", lang), callback_data=cb(LEAVE))]
    second = [Button(text=render.plain("tables.button.start", lang), callback_data=cb(START))]
    if options:
        second.insert(0, Button(text=render.plain("tables.button.options", lang), callback_data=cb(OPTIONS)))
    rows = [first, second]
    third = []
    if can_add_bot(table):
        third.append(Button(text=render.plain("tables.bots.button.add", lang), callback_data=cb(ADD_BOT)))
    if table.seats:
        third.append(Button(text=render.plain("tables.button.remove", lang), callback_data=cb(REMOVE)))
    if third:
        rows.append(third)
    return render.fit(lines), rows


def can_add_bot(table: Table) -> bool:
    """A seat is free and the AI knows the game."""
    return bots.offers_bots(table.game) and len(table.seats) < get_game(table.game).max_players


def show_lobby(ctx: Ctx, *, new_message: bool = False) -> None:
    """Draw the lobby message (edited in place), unless it already shows exactly this."""
    table = ctx.table
    assert table is not None
    ctx.touch()
    # any change (or re-post) of the lobby restarts its idle clock
    table.lobby_active_at = ctx.now
    ctx.result.reminders.append(Reminder(table_id=table.id, key=IDLE_KEY, due=ctx.now + LOBBY_IDLE_HOURS * 3600))
    text, rows = lobby_view(ctx)
    digest = render.fingerprint(text, render.buttons_fingerprint(rows))
    old = table.lobby
    if old is not None and not new_message and old.digest == digest:
        return
    if old is not None and new_message:
        ctx.delete(table.chat_id, old.slot)
        table.status_gen += 1
    slot = "lobby" if table.status_gen == 0 else f"lobby.{table.status_gen}"
    if old is not None and not new_message:
        slot = old.slot
    table.lobby = Shown(slot=slot, version=table.version, digest=digest, kind="lobby")
    if new_message:
        table.status_posted_at = ctx.now
    ctx.send(table.chat_id, text, rows, slot=slot, silent=old is not None and not new_message)


# --------------------------------------------------------------------------- commands


def new_table(ctx: Ctx, args: list[str]) -> None:
    """`/novojogo <jogo>` in a group."""
    cmd = ctx.cmd
    if cmd.chat_type == "private":
        ctx.refuse("tables.error.group_only", "out_of_place")
        return
    if ctx.table is not None and ctx.table.open:
        ctx.refuse("tables.error.table_exists", "table_exists",
                   game=render.game_title(ctx.table.game, ctx.here_lang))
        return
    if not cmd.route.startswith("chat:"):
        # a group command queued for a table that closed meanwhile: a new table is only ever
        # saved from the chat's own route (its result would land under the old table's key)
        ctx.refuse("tables.error.just_closed", "out_of_place")
        return
    games = available()
    wanted = args[0].lower() if args else (games[0] if len(games) == 1 else "")
    if wanted not in games:
        ctx.refuse("tables.error.which_game", "unknown_game", games=", ".join(games))
        return
    if open_lobbies(ctx, cmd.user_id) >= MAX_OPEN_LOBBIES:
        ctx.refuse("tables.error.too_many_lobbies", "too_many_lobbies", count=MAX_OPEN_LOBBIES)
        return
    if ctx.dir.tables_opened(cmd.chat_id, ctx.now - 3600) >= MAX_TABLES_PER_HOUR:
        ctx.refuse("tables.error.too_many_tables", "too_many_tables", count=MAX_TABLES_PER_HOUR)
        return
    table_id = new_id(cmd.chat_id, cmd.update_id)
    ctx.table = Table(id=table_id, game=wanted, chat_id=cmd.chat_id, creator=cmd.user_id, created_at=ctx.now,
                      version=0)
    ctx.metric("tables_opened")
    ctx.result.set_active[cmd.chat_id] = table_id
    ctx.result.user_lobbies_add[cmd.user_id] = [table_id]
    ctx.result.table_opened[cmd.chat_id] = table_id
    show_lobby(ctx, new_message=True)


def open_lobbies(ctx: Ctx, user_id: int) -> int:
    """Lobbies the user opened that still wait to start (the index may hold closed ones)."""
    count = 0
    for table_id in ctx.dir.user_lobbies(user_id):
        doc = ctx.dir.load_table(table_id)
        if doc is not None and doc.get("status") == "lobby" and doc.get("creator") == user_id:
            count += 1
    return count


def expire_idle(ctx: Ctx) -> None:
    """"/_tick idle": cancel a lobby nobody touched for LOBBY_IDLE_HOURS, in one line."""
    table = ctx.table
    if table is None or table.status != "lobby":
        ctx.metric("tick:ignored")
        return
    due = (table.lobby_active_at or table.created_at) + LOBBY_IDLE_HOURS * 3600
    if ctx.now < due:  # touched since this tick was scheduled
        ctx.result.reminders.append(Reminder(table_id=table.id, key=IDLE_KEY, due=due))
        ctx.metric("tick:quiet")
        return
    lang = ctx.group_lang
    text = render.t("tables.lobby.expired", lang, game=render.game_title(table.game, lang), count=LOBBY_IDLE_HOURS)
    if table.lobby is not None:  # the lobby message says it (its buttons go)
        ctx.send(table.chat_id, text, slot=table.lobby.slot, silent=True)
        table.lobby = None
    else:
        ctx.send(table.chat_id, text, silent=True)
    ctx.metric("lobbies_expired")
    play.close(ctx, "cancelled", None)


def join(ctx: Ctx) -> None:
    """"/start j<table id>" in the private chat: the deep link of the Entrar button."""
    table, cmd = ctx.table, ctx.cmd
    if table is None or not table.open:
        ctx.refuse("tables.error.table_gone", "table_gone")
        return
    if table.seat_of(cmd.user_id) is not None:
        ctx.refuse("tables.error.already_in", "already_in")
        return
    if table.status != "lobby":
        ctx.refuse("tables.error.already_started", "already_started")
        return
    if cmd.is_chat_member is not True:
        if cmd.is_chat_member is None:
            ctx.refuse("tables.error.member_unknown", "member_unknown")
        else:
            ctx.refuse("tables.error.not_member", "not_member")
        return
    game = get_game(table.game)
    if len(table.seats) >= game.max_players:
        ctx.refuse("tables.error.full", "full", max=game.max_players)
        return
    ctx.touch()
    lang = ctx.user_lang
    # the confirmation carries a Sair button: whoever joined through the link from outside the group
    # can leave from here too (its own slot per join, so that leaving edits this very message)
    slot = f"joined.{cmd.update_id}"
    table.seats.append(SeatInfo(user_id=cmd.user_id, name=clean_name(cmd.user_name, str(cmd.user_id)), lang=lang,
                                joined_at=ctx.now, last_active=ctx.now, joined_slot=slot))
    ctx.result.user_tables_add.setdefault(cmd.user_id, []).append(table.id)
    ctx.send(cmd.user_id, render.t("tables.lobby.joined", lang, game=render.game_title(table.game, lang)),
             [[leave_button(ctx, lang)]], slot=slot)
    show_lobby(ctx)


def leave_button(ctx: Ctx, lang: str) -> Button:
    table = ctx.table
    assert table is not None
    return Button(text=render.plain("tables.button.leave_table", lang, game=render.game_title(table.game, lang)),
                  callback_data=callback(table.id, table.version, LEAVE_PRIVATE))


def leave(ctx: Ctx) -> None:
    """Sair / `/sair` before the game starts."""
    table, cmd = ctx.table, ctx.cmd
    assert table is not None
    seat = table.seat_of(cmd.user_id)
    if seat is None:
        ctx.refuse("tables.error.not_player", "not_player")
        return
    ctx.touch()
    info = table.seats.pop(seat)
    ctx.result.user_tables_remove.setdefault(cmd.user_id, []).append(table.id)
    show_lobby(ctx)
    if info.joined_slot is not None:  # the private confirmation loses its Sair button
        lang = ctx.chat_lang(info.user_id, info.lang)
        ctx.send(info.user_id, render.t("tables.lobby.left_private", lang, game=render.game_title(table.game, lang)),
                 slot=info.joined_slot, silent=True)
    if cmd.kind == "callback":
        ctx.answer(render.plain("tables.lobby.left", ctx.user_lang))


def leave_private(ctx: Ctx) -> None:
    """Sair pressed in the player's private chat: leave the lobby, wherever they joined from."""
    table, cmd = ctx.table, ctx.cmd
    assert table is not None
    if cmd.chat_type != "private" or cmd.chat_id != cmd.user_id:
        ctx.refuse("tables.error.forged", "forged")
        return
    if table.seat_of(cmd.user_id) is None:
        ctx.refuse("tables.error.not_player", "not_player")
        return
    if table.status != "lobby":
        ctx.refuse("tables.error.leave_started", "stale")
        return
    leave(ctx)


def press(ctx: Ctx, version: int, arg: str) -> None:
    """A lobby button."""
    table, cmd = ctx.table, ctx.cmd
    assert table is not None
    if arg == LEAVE_PRIVATE:
        leave_private(ctx)
        return
    if cmd.chat_id != table.chat_id:
        ctx.refuse("tables.error.forged", "forged")
        return
    if table.status != "lobby" or table.lobby is None or version != table.lobby.version:
        ctx.refuse("tables.error.stale", "stale")
        return
    if arg == LEAVE:
        leave(ctx)
    elif arg == START:
        start(ctx)
    elif arg == REMOVE or (arg.startswith(REMOVE) and ascii_int(arg[len(REMOVE):], 2) is not None):
        remove(ctx, arg)
    elif arg == ADD_BOT or (arg.startswith(ADD_BOT) and ascii_int(arg[len(ADD_BOT):], 1) is not None):
        add_bot(ctx, arg)
    elif arg in (OPTIONS, BACK) or (arg.startswith(OPTION) and ascii_int(arg[len(OPTION):], 2) is not None):
        options(ctx, arg)
    else:
        ctx.refuse("tables.error.forged", "forged")


def options(ctx: Ctx, arg: str) -> None:
    table = ctx.table
    assert table is not None
    if not may_manage(ctx):
        ctx.refuse("tables.error.only_manager", "not_manager")
        return
    game = get_game(table.game)
    choices = adjustable(game, max(1, len(table.seats)))
    if arg == BACK and table.lobby_view in ("remove", "bots"):
        ctx.touch()
        table.lobby_view = "main"
    elif arg == OPTIONS or arg == BACK:
        if not choices:
            ctx.refuse("tables.error.forged", "forged")
            return
        ctx.touch()
        table.lobby_view = "options" if arg == OPTIONS else "main"
    else:
        i = ascii_int(arg[len(OPTION):], 2)
        assert i is not None  # press() let only digits through
        if not 0 <= i < len(choices) or table.lobby_view != "options":
            ctx.refuse("tables.error.forged", "forged")
            return
        field, values, default = choices[i]
        current = _current(table, field, default)
        nxt = values[(values.index(current) + 1) % len(values)] if current in values else values[0]
        ctx.touch()
        table.options[field] = nxt
    show_lobby(ctx)
    ctx.answer("")


def remove(ctx: Ctx, arg: str) -> None:
    """Remover jogador (creator or admin): "Lr" shows one button per seated player, "Lr<i>"
    removes seat i (the lobby's version check makes sure the list is the one they saw)."""
    table = ctx.table
    assert table is not None
    if not may_manage(ctx):
        ctx.refuse("tables.error.only_manager", "not_manager")
        return
    if arg == REMOVE:
        if not table.seats:
            ctx.refuse("tables.error.forged", "forged")
            return
        ctx.touch()
        table.lobby_view = "remove"
        show_lobby(ctx)
        ctx.answer("")
        return
    i = ascii_int(arg[len(REMOVE):], 2)
    if table.lobby_view != "remove" or i is None or not 0 <= i < len(table.seats):
        ctx.refuse("tables.error.forged", "forged")
        return
    ctx.touch()
    seat = table.seats.pop(i)
    table.lobby_view = "main"
    if seat.bot is None:  # a bot has neither an index entry nor a chat
        ctx.result.user_tables_remove.setdefault(seat.user_id, []).append(table.id)
        lang = ctx.chat_lang(seat.user_id, seat.lang)
        # the join confirmation (with its Sair button) becomes the notice, when there is one
        ctx.send(seat.user_id, render.t("tables.lobby.removed_private", lang,
                                        game=render.game_title(table.game, lang), name=ctx.cmd.user_name),
                 slot=seat.joined_slot)
    show_lobby(ctx)
    ctx.answer(render.plain("tables.lobby.removed", ctx.user_lang, name=seat.name))


def add_bot(ctx: Ctx, arg: str) -> None:
    """🤖 + Bot (creator or admin): "La" shows one button per AI level, "La<i>" seats a bot of level i
    (named in the group's language, "Bot Médio 1"). The list stays while seats are free, so several bots
    are added in a row."""
    table = ctx.table
    assert table is not None
    if not may_manage(ctx):
        ctx.refuse("tables.error.only_manager", "not_manager")
        return
    if not can_add_bot(table):
        ctx.refuse("tables.error.full", "full", max=get_game(table.game).max_players)
        return
    if arg == ADD_BOT:
        ctx.touch()
        table.lobby_view = "bots"
        show_lobby(ctx)
        ctx.answer("")
        return
    i = ascii_int(arg[len(ADD_BOT):], 1)
    if table.lobby_view != "bots" or i is None or not 0 <= i < len(bots.LEVELS):
        ctx.refuse("tables.error.forged", "forged")
        return
    ctx.touch()
    seat = bots.bot_seat(table, bots.LEVELS[i], ctx.group_lang, ctx.now)
    table.seats.append(seat)
    if not can_add_bot(table):
        table.lobby_view = "main"
    ctx.metric("bots_seated")
    show_lobby(ctx)
    ctx.answer(render.plain("tables.bots.added", ctx.user_lang, name=seat.name))


def start(ctx: Ctx) -> None:
    table = ctx.table
    assert table is not None
    if not may_manage(ctx):
        ctx.refuse("tables.error.only_manager", "not_manager")
        return
    game = get_game(table.game)
    if not game.min_players <= len(table.seats) <= game.max_players:
        ctx.refuse("tables.error.player_count", "player_count", min=game.min_players, max=game.max_players)
        return
    # options that do not apply to this many players are left out of the match
    allowed = {f for f, _, _ in adjustable(game, len(table.seats))}
    kept = {k: v for k, v in table.options.items() if k in allowed}
    saved = table.options
    table.options = kept
    first = len(ctx.result.outbound)
    if not play.start(ctx):
        table.options = saved
        return
    ctx.result.cancel_reminders.append(IDLE_KEY)
    ctx.result.user_lobbies_remove.setdefault(table.creator, []).append(table.id)
    # the lobby message becomes a record of who plays (shown before the status and prompts)
    lang = ctx.group_lang
    names = [render.name(s.name) for s in table.seats]
    text = render.t("tables.lobby.started", lang, game=render.game_title(table.game, lang),
                    names=render.join(names, lang))
    assert table.lobby is not None
    ctx.send(table.chat_id, text, slot=table.lobby.slot, silent=True)
    ctx.result.outbound.insert(first, ctx.result.outbound.pop())
    table.lobby = None
    for info in table.seats:  # the private confirmations lose their Sair button (the game is left in the group)
        if info.joined_slot is not None:
            seat_lang = ctx.chat_lang(info.user_id, info.lang)
            ctx.send(info.user_id, render.t("tables.lobby.joined_started", seat_lang,
                                            game=render.game_title(table.game, seat_lang)),
                     slot=info.joined_slot, silent=True)
            info.joined_slot = None
    ctx.answer("")
