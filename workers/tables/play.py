"""A game in progress: moves, stand-ins, and what every chat shows after them.

One move costs as few Bot API calls as the situation allows:
- the mover's private message is edited in place (their next prompt, or a short note with
  what happened when their turn is over); the note is a view, sent on the outbox's view lane
  behind every prompt and only while the bot has room (workers/views.py);
- a player whose turn *starts* gets a new message (an edit would not notify them), which
  supersedes their last turn's note if that is still waiting;
- a waiting player whose prompt did not change is left alone (their buttons stay valid:
  a prompt's buttons carry the version at which that prompt was drawn, not the latest one);
- the group's status message is edited once per turn — when the table starts waiting on
  someone new, at a checkpoint (information revealed / a decision sequence ended), at the end
  — and the public events of that turn are folded into it as a digest; never one message per
  event. It is a view too: while it waits for room, a newer drawing replaces it.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from rulesets.core import Event, Game, IllegalMove, Match, act, can_undo, contract, new_match, undo
from rulesets.registry import get_game
from workers.protocol import Button, ascii_int, callback
from workers.tables import cards, picture, ratings, record, reminders, render, summary
from workers.tables.context import Ctx
from workers.tables.model import Shown

DIGEST_LINES = 12  # public events of one turn shown in the status message
MOVE_LINES = 8  # events shown to the mover under their answered prompt
UNDO = "U"
RESEND = "R"
CARDS = "I"  # ℹ️: open / close the texts of the cards a prompt offers or shows
BOARD = "B"  # 🎩: a picture of the player's own board (games that draw one)


@dataclass
class Turn:
    """What one command did to the match; decides which chats must be updated."""

    before: set[int]  # seats the table waited on before
    actor: int | None = None  # the human who acted (None: start, tick, leave)
    acted: set[int] = field(default_factory=set)
    events: list[Event] = field(default_factory=list)
    checkpoint: bool = False
    force_status: bool = False
    undone: bool = False

    def record(self, match: Match, seat: int, events: list[Event]) -> None:
        self.acted.add(seat)
        self.events.extend(events)
        self.checkpoint = self.checkpoint or match.log[-1].checkpoint


def waiting(game: Game, match: Match) -> set[int]:
    return set() if game.is_over(match.state) else set(game.to_act(match.state))


def derived(*parts: object) -> int:
    """A number derived from the table and the moment in the game: the stand-in's 'dice'."""
    return int(hashlib.sha256(":".join(map(str, parts)).encode()).hexdigest()[:12], 16)


# --------------------------------------------------------------------------- start


def start(ctx: Ctx) -> bool:
    """Deal the game for the seated players. False (and a toast) if the rules refuse."""
    table = ctx.table
    assert table is not None
    game = get_game(table.game)
    seed = derived("seed", table.id, ctx.cmd.update_id)
    try:
        match = new_match(game, table.options, len(table.seats), seed)
    except IllegalMove as exc:
        ctx.refuse(exc.reason, "options")
        return False
    except ValueError:  # pydantic's ValidationError is a ValueError
        ctx.refuse("tables.error.bad_options", "options")
        return False
    ctx.touch()
    table.status = "playing"
    table.started_at = ctx.now
    for seat in table.seats:
        seat.last_active = ctx.now
    turn = Turn(before=set(), force_status=True, checkpoint=True)
    turn.events.extend(match.log[0].events)
    table.digest_from = table.digest_to = 0
    table.store(match)
    refresh(ctx, game, match, turn)
    return True


# --------------------------------------------------------------------------- moves


def _seat_for_press(ctx: Ctx) -> int | None:
    """The presser's seat, if the press may come from them at all (their private chat)."""
    table = ctx.table
    assert table is not None
    seat = table.seat_of(ctx.cmd.user_id)
    if seat is None:
        ctx.refuse("tables.error.not_player", "not_player")
        return None
    if ctx.cmd.chat_type != "private" or ctx.cmd.chat_id != ctx.cmd.user_id:
        ctx.refuse("tables.error.forged", "forged")  # prompts only ever live in private chats
        return None
    if table.seats[seat].left:
        ctx.refuse("tables.error.left", "left")
        return None
    return seat


def _live_prompt(ctx: Ctx, seat: int, version: int) -> tuple[Match, Game, Shown] | None:
    """The match, game and prompt record when `version` is the seat's current prompt and the table waits
    on the seat; otherwise None, after telling the presser the button is stale."""
    table = ctx.table
    assert table is not None
    shown = table.seats[seat].shown
    if shown is None or shown.kind != "prompt" or shown.version != version:
        ctx.refuse("tables.error.stale", "stale")
        return None
    match = table.load()
    game = get_game(match.game)
    if seat not in waiting(game, match):
        ctx.refuse("tables.error.stale", "stale")
        return None
    return match, game, shown


def choice_arg(seat: int, index: int) -> str:
    """A prompt button's arg: "<seat>.<choice index>" (the seat makes a forwarded button
    recognisable as someone else's)."""
    return f"{seat}.{index}"


def parse_choice_arg(arg: str) -> tuple[int, int] | None:
    seat, dot, index = arg.partition(".")
    owner, i = ascii_int(seat, 2), ascii_int(index, 3)
    if dot and owner is not None and i is not None:
        return owner, i
    return None


def press(ctx: Ctx, version: int, owner: int, index: int) -> None:
    """A prompt button: the `index`-th choice of seat `owner`'s current prompt."""
    table = ctx.table
    assert table is not None
    seat = _seat_for_press(ctx)
    if seat is None:
        return
    if seat != owner:
        ctx.refuse("tables.error.not_yours", "foreign")
        return
    current = _live_prompt(ctx, seat, version)
    if current is None:
        return
    match, game, _ = current
    prompt = game.prompt(match.state, seat)
    if not 0 <= index < len(prompt.choices):
        ctx.refuse("tables.error.forged", "forged")
        return
    turn = Turn(before=waiting(game, match), actor=seat)
    try:
        match, events = act(match, seat, prompt.choices[index].id, inplace=True)
    except IllegalMove as exc:
        ctx.refuse(exc.reason, "illegal")
        return
    ctx.touch()
    ctx.metric("moves_applied")
    info = table.seats[seat]
    info.moves += 1
    info.think += max(0.0, ctx.now - (info.waiting_since if info.waiting_since is not None else ctx.now))
    info.last_active = ctx.now
    turn.record(match, seat, events)
    table.store(match)
    refresh(ctx, game, match, turn)
    ctx.answer(_done_toast(ctx, game, match, seat))


def _done_toast(ctx: Ctx, game: Game, match: Match, seat: int) -> str:
    """The press's answer (free: it rides the webhook's reply). When the mover's turn is over it
    says what their note will say — "✔ Feito. Aguardando Bia." — since the note itself is a view
    that may wait a while for room (workers/views.py)."""
    table = ctx.table
    assert table is not None
    shown = table.seats[seat].shown
    if shown is None or shown.kind != "note" or game.is_over(match.state) or not waiting(game, match):
        return ""
    return render.plain("tables.play.waiting_on", ctx.seat_lang(seat), names=_waiting_names(ctx, game, match, seat))


def _waiting_names(ctx: Ctx, game: Game, match: Match, seat: int) -> str:
    """Who the table waits on, as the seat's note and toast name them ("Bia e Caio")."""
    table = ctx.table
    assert table is not None
    names = [render.name(table.seats[s].name) for s in sorted(waiting(game, match))]
    return render.join(names, ctx.seat_lang(seat))


def take_back(ctx: Ctx, seat: int, version: int | None) -> None:
    """Undo the seat's last action within the engine's policy (`/desfazer` or the ↩ button)."""
    table = ctx.table
    assert table is not None
    shown = table.seats[seat].shown
    if version is not None and (shown is None or shown.version != version):
        ctx.refuse("tables.error.stale", "stale")
        return
    match = table.load()
    game = get_game(match.game)
    if not may_undo(ctx, match, seat):
        ctx.refuse("tables.error.cannot_undo", "cannot_undo")
        return
    turn = Turn(before=waiting(game, match), actor=seat, undone=True)
    match, _ = undo(match, seat)
    ctx.touch()
    ctx.metric("undone")
    table.seats[seat].last_active = ctx.now
    if table.digest_to > len(match.log):  # the status showed the undone action: redraw it
        table.digest_to = len(match.log)
        table.digest_from = min(table.digest_from, table.digest_to)
        turn.force_status = True
    table.store(match)
    refresh(ctx, game, match, turn)
    if ctx.cmd.kind == "callback":
        ctx.answer(render.plain("tables.play.undone", ctx.user_lang))


def may_undo(ctx: Ctx, match: Match, seat: int) -> bool:
    """The engine's undo policy (the seat's own last action, nothing drawn, no checkpoint since), and that
    last action was not the AI's: a move the AI made on a seat (a player's turn the others handed to it)
    is not the person's to take back."""
    table = ctx.table
    assert table is not None
    return can_undo(match, seat) and table.ai_log != len(match.log)


def resend(ctx: Ctx, seat: int) -> None:
    """Send the seat's prompt again as a new message (it was lost, or scrolled far away)."""
    table = ctx.table
    assert table is not None
    match = table.load()
    game = get_game(match.game)
    if seat not in waiting(game, match) or table.seats[seat].played_by:
        ctx.refuse("tables.error.not_waiting_on_you", "not_waiting")
        return
    ctx.touch()
    info = table.seats[seat]
    if info.shown is not None and info.shown.kind == "prompt":
        ctx.delete(info.user_id, info.shown.slot)  # its buttons would be stale: remove it
    info.shown = None
    show_seat(ctx, game, match, seat, want=True, actor=None, lines=[])
    ctx.answer("")


def explain(ctx: Ctx, seat: int, version: int) -> None:
    """ℹ️ on a prompt: the same message redrawn with (or without) the texts of its cards, in place and
    with the same buttons, which stay valid (they keep the version they were drawn at). A prompt with a
    single short card is answered with an alert instead, and nothing is redrawn."""
    table = ctx.table
    assert table is not None
    current = _live_prompt(ctx, seat, version)
    if current is None:
        return
    match, game, shown = current
    refs = game.prompt(match.state, seat).cards
    if not refs:
        ctx.refuse("tables.error.forged", "forged")
        return
    lang = ctx.seat_lang(seat)
    alert = None if shown.explain else cards.alert_text(game, match.state, refs, lang)
    if alert is not None:
        ctx.answer(alert, alert=True)
        return
    ctx.touch()
    body, buttons, digest, _ = prompt_view(ctx, game, match, seat, explain=not shown.explain)
    text_lines = body[:1] + shown.recap + body[1:]
    table.seats[seat].shown = shown.model_copy(update={"digest": digest, "explain": not shown.explain})
    photo = seat_photo(ctx, game, match, seat, shown.picture) if shown.picture else None
    ctx.send(table.seats[seat].user_id, render.fit(text_lines), _with_version(ctx, buttons, version),
             slot=shown.slot, silent=True, photo=photo)
    ctx.answer("")


def leave(ctx: Ctx, seat: int) -> None:
    """`/sair` during a game: the médio AI takes the seat to the end (workers/tables/bots.py), the group is
    told. When no person is left playing, the table closes."""
    table = ctx.table
    assert table is not None
    ctx.touch()
    info = table.seats[seat]
    info.left = True
    info.waiting_since = None
    ctx.result.cancel_reminders.append(reminders.key(seat))
    ctx.result.user_tables_remove.setdefault(info.user_id, []).append(table.id)
    lang = ctx.seat_lang(seat)
    if info.shown is not None:
        ctx.send(info.user_id, render.t("tables.play.you_left", lang), slot=info.shown.slot)
        info.shown = None
    else:
        ctx.send(info.user_id, render.t("tables.play.you_left", lang))
    if not table.humans():
        close(ctx, "cancelled", render.t("tables.play.everyone_left", ctx.group_lang))
        return
    ctx.send(table.chat_id, render.t("tables.play.left_group", ctx.group_lang, name=info.name), silent=True)
    match = table.load()
    game = get_game(match.game)
    refresh(ctx, game, match, Turn(before=waiting(game, match), force_status=True))


def stand_in_turn(ctx: Ctx, seat: int) -> None:
    """The others voted: the médio AI plays this seat's current turn (until the table no longer waits on
    it); the group and the player are told. Their next turn is theirs again."""
    table = ctx.table
    assert table is not None
    match = table.load()
    game = get_game(match.game)
    info = table.seats[seat]
    ctx.touch()
    info.covered = True
    turn = Turn(before=waiting(game, match), force_status=True)
    ctx.send(table.chat_id, render.t("tables.vote.group", ctx.group_lang, name=info.name), silent=True)
    lang = ctx.seat_lang(seat)
    if info.shown is not None and info.shown.kind == "prompt":
        ctx.send(info.user_id, render.t("tables.vote.private", lang), slot=info.shown.slot)
        info.shown = None
    refresh(ctx, game, match, turn)


# --------------------------------------------------------------------------- views


def others(ctx: Ctx, seat: int) -> str:
    table = ctx.table
    assert table is not None
    lang = ctx.seat_lang(seat)
    names = [render.name(s.name) for i, s in enumerate(table.seats) if i != seat]
    if not names:
        return render.t("tables.play.header_solo", lang, game=render.game_title(table.game, lang))
    return render.t("tables.play.header", lang, game=render.game_title(table.game, lang),
                    others=render.join(names, lang))


def prompt_view(ctx: Ctx, game: Game, match: Match, seat: int,
                explain: bool = False) -> tuple[list[str], list[Button], str, str | None]:
    """The seat's prompt: text lines, buttons (callback data added later), fingerprint, and the
    subject of its private picture (`Prompt.picture`: the message is then a photo). `explain`: with
    the texts of the cards it offers or shows (the ℹ️ button opens and closes them)."""
    table = ctx.table
    assert table is not None
    lang, names = ctx.seat_lang(seat), table.names()
    prompt = game.prompt(match.state, seat)
    lines = [others(ctx, seat), "<b>" + render.game_text(prompt.title, lang, names) + "</b>"]
    lines += [render.game_text(m, lang, names) for m in prompt.info]
    buttons = [Button(text=render.label(render.game_plain(c.label, lang, names)), callback_data=choice_arg(seat, i))
               for i, c in enumerate(prompt.choices)]
    if prompt.cards:
        if explain:
            lines += cards.explanation(game, match.state, prompt.cards, lang, names)
        key = "tables.button.cards_hide" if explain else "tables.button.cards"
        buttons.append(Button(text=render.plain(key, lang), callback_data=CARDS))
    if may_undo(ctx, match, seat):
        buttons.append(Button(text=render.plain("tables.button.undo", lang), callback_data=UNDO))
    if picture.draws_board(game):
        buttons.append(Button(text=render.plain("tables.button.board", lang), callback_data=BOARD))
    # The ↩ button is left out of the fingerprint: another player's move takes it away (only one's own
    # last move can be taken back), and redrawing every waiting prompt for that would cost an edit each
    # (a tenth of Trickerion's requests, in its secret assignment); a press on it then is answered.
    kept = [b.text for b in buttons if b.callback_data != UNDO]
    return lines, buttons, render.fingerprint(lines, kept, prompt.picture), prompt.picture


def note_view(ctx: Ctx, game: Game, match: Match, seat: int) -> tuple[list[str], list[Button]]:
    """The seat's message when the table does not wait on them."""
    table = ctx.table
    assert table is not None
    lang = ctx.seat_lang(seat)
    lines = [others(ctx, seat)]
    if game.is_over(match.state):
        lines.append(render.t("tables.play.over_private", lang))
        return lines, []
    lines.append(render.t("tables.play.waiting_on", lang, names=_waiting_names(ctx, game, match, seat)))
    buttons = []
    if may_undo(ctx, match, seat):
        buttons.append(Button(text=render.plain("tables.button.undo", lang), callback_data=UNDO))
    return lines, buttons


def _with_version(ctx: Ctx, buttons: list[Button], version: int | None = None) -> list[list[Button]]:
    table = ctx.table
    assert table is not None
    v = table.version if version is None else version
    return render.keyboard([Button(text=b.text, callback_data=callback(table.id, v, b.callback_data or ""))
                            for b in buttons])


def _event_lines(ctx: Ctx, events: list[Event], seat: int | None, lang: str, limit: int) -> list[str]:
    table = ctx.table
    assert table is not None
    visible = [e for e in events if e.visible_to(seat) and not e.summary]  # a summary is a message of its own
    lines = ["• " + render.game_text(e.text, lang, table.names()) for e in visible[-limit:]]
    if len(visible) > limit:
        lines.insert(0, render.t("tables.play.more_events", lang, count=len(visible) - limit))
    return lines


def show_seat(ctx: Ctx, game: Game, match: Match, seat: int, *, want: bool, actor: int | None,
              lines: list[str]) -> bool:
    """Bring the seat's private message up to date. `lines`: what just happened, for them.
    Returns whether `lines` were shown."""
    table = ctx.table
    assert table is not None
    info = table.seats[seat]
    shown = info.shown
    if want:
        opened = shown is not None and shown.kind == "prompt" and shown.explain and seat != actor
        body, buttons, digest, subject = prompt_view(ctx, game, match, seat, explain=opened)
        if shown is not None and shown.kind == "prompt" and digest == shown.digest and seat != actor and not lines:
            return False  # unchanged: leave it (its buttons stay valid, its card texts open if they were)
        if opened:  # the prompt changed: drawn afresh, with the card texts closed
            body, buttons, digest, subject = prompt_view(ctx, game, match, seat)
        text_lines = body[:1] + lines + body[1:] if lines else body
        if shown is not None and shown.kind == "prompt":
            slot = shown.slot
            notify = False
        elif shown is not None and seat == actor:
            slot = shown.slot  # they just acted here (an undo from their note): edit in place
            notify = False
        else:
            info.gen += 1  # their turn starts: a new message, so Telegram notifies them
            slot = f"prompt.{info.gen}"
            notify = True
        if subject is None and shown is not None and shown.slot == slot:
            subject = shown.picture  # a photo stays one: turning it back into text costs a delete and a send
        photo = seat_photo(ctx, game, match, seat, subject) if subject else None
        info.shown = Shown(slot=slot, version=table.version, digest=digest, kind="prompt", recap=lines,
                           picture=subject if photo else None)
        # the new turn message takes over from the last one: its note, if still unsent, loses its buttons
        ctx.send(info.user_id, render.fit(text_lines), _with_version(ctx, buttons), slot=slot, silent=not notify,
                 photo=photo, supersedes=shown.slot if shown is not None and shown.slot != slot else None)
        return True
    if shown is None or (shown.kind != "prompt" and seat != actor):
        return False
    body, buttons = note_view(ctx, game, match, seat)
    text_lines = body[:1] + lines + body[1:]
    digest = render.fingerprint(text_lines, [b.text for b in buttons], shown.picture)
    if shown.kind == "note" and digest == shown.digest:
        return False
    photo = seat_photo(ctx, game, match, seat, shown.picture) if shown.picture else None
    info.shown = Shown(slot=shown.slot, version=table.version, digest=digest, kind="note",
                       picture=shown.picture if photo else None)
    # a note is a view: it rides the outbox's view lane, behind every prompt (workers/views.py)
    ctx.send(info.user_id, render.fit(text_lines), _with_version(ctx, buttons), slot=shown.slot, silent=True,
             photo=photo, background=True)
    return True


def seat_photo(ctx: Ctx, game: Game, match: Match, seat: int, subject: str) -> bytes | None:
    """A seat's private picture, drawn from that seat's own view only."""
    table = ctx.table
    assert table is not None
    return picture.private(game, game.view(match.state, seat), seat, table.names(), ctx.seat_lang(seat), subject)


def show_board(ctx: Ctx, seat: int, version: int) -> None:
    """🎩: a picture of the player's own board, as one new message in their private chat (the prompt
    it was pressed on stays as it is, its buttons valid). Only on prompts: a note keeps no buttons
    but ↩, so a finished turn's message does not look like one waiting for a press."""
    table = ctx.table
    assert table is not None
    shown = table.seats[seat].shown
    if shown is None or shown.version != version:
        ctx.refuse("tables.error.stale", "stale")
        return
    match = table.load()
    game = get_game(match.game)
    photo = seat_photo(ctx, game, match, seat, contract.BOARD) if picture.draws_board(game) else None
    if photo is None:
        ctx.refuse("tables.error.forged", "forged")
        return
    ctx.touch()  # (so that the same press delivered twice sends one picture)
    lang = ctx.seat_lang(seat)
    ctx.send(table.seats[seat].user_id, render.t("tables.play.board", lang, game=render.game_title(table.game, lang)),
             silent=True, photo=photo)
    ctx.answer("")


def status_lines(ctx: Ctx, game: Game, match: Match, lang: str, with_table: bool,
                 pictured: bool = False) -> list[str]:
    """The status text: who the table waits on, the last turn's public events and the table.
    `pictured`: it is the caption of the table's picture, which carries the detail, so of the
    table's lines only the first (the game's headline: round, phase, whose Day) is kept."""
    table = ctx.table
    assert table is not None
    names = table.names()
    lines = [render.t("tables.status.header", lang, game=render.game_title(table.game, lang))]
    if game.is_over(match.state):
        lines.append(render.t("tables.status.over", lang))
    else:
        now_waiting = sorted(waiting(game, match))
        who = [render.Safe(render.name(names[s]) + seat_mark(ctx, s, lang)) for s in now_waiting]
        lines.append(render.t("tables.status.waiting", lang, names=render.join(who, lang)))
    recent = [e for entry in match.log[table.digest_from:table.digest_to] for e in entry.events]
    digest = _event_lines(ctx, recent, None, lang, DIGEST_LINES)
    if digest:
        lines.append(render.t("tables.status.recent", lang))
        lines += digest
    if with_table:
        table_lines = game.table(match.state, None)
        lines.append("")
        lines += [render.game_text(m, lang, names) for m in (table_lines[:1] if pictured else table_lines)]
    return lines


def seat_mark(ctx: Ctx, seat: int, lang: str) -> str:
    """After a seat's name: who plays it, when its person does not (left: the médio AI to the end; covered:
    the médio AI for this turn)."""
    table = ctx.table
    assert table is not None
    info = table.seats[seat]
    if info.left:
        return render.t("tables.status.stand_in_mark", lang)
    if info.covered:
        return render.t("tables.bots.covered_mark", lang)
    return ""


def show_status(ctx: Ctx, game: Game, match: Match, *, new_message: bool = False) -> None:
    """Draw the group's status message (edited in place unless `new_message`)."""
    table = ctx.table
    assert table is not None
    lang = ctx.group_lang
    public = game.view(match.state, None)
    drawable = picture.draws_table(game)
    picture_key = render.fingerprint(table.game, public, table.names(), lang) if drawable else None
    limit = render.CAPTION_LIMIT if drawable else render.TEXT_LIMIT
    text = render.fit(status_lines(ctx, game, match, lang, with_table=True, pictured=drawable), limit)
    digest = render.fingerprint(text, picture_key)
    old = table.status_msg
    if old is not None and not new_message and digest == old.digest:
        return  # an unchanged view sends nothing
    # the picture goes with every update of the photo message, drawn from the public view when the
    # outbox sends it (a drawing the view lane replaces before it goes out is never drawn; an
    # unchanged one is a caption edit, not drawn either)
    spec = picture.spec(table.game, public, table.names(), lang, picture_key) if picture_key else None
    if old is None or new_message:
        if old is not None:
            ctx.delete(table.chat_id, old.slot)
        table.status_gen += 1 if old is not None else 0
        slot = "status" if table.status_gen == 0 else f"status.{table.status_gen}"
        table.status_posted_at = ctx.now
        silent = False
    else:
        slot = old.slot
        silent = True
    table.status_msg = Shown(slot=slot, version=table.version, digest=digest, kind="status")
    table.status_at = ctx.now
    # a new status message is pinned (when the bot may pin), so the group finds it above the chat;
    # the status is a view: it rides the outbox's view lane, its newest drawing winning. A new one
    # (the game has started, or /mesa asked for it) is what the group waits for: a prompt, sent at once.
    ctx.send(table.chat_id, text, slot=slot, silent=silent, picture=spec, pin=old is None or new_message,
             background=not (old is None or new_message))


def refresh(ctx: Ctx, game: Game, match: Match, turn: Turn) -> None:
    """After the match changed: prompts, notes, private events, status, reminders, the end."""
    table = ctx.table
    assert table is not None
    after = waiting(game, match)
    over = game.is_over(match.state)
    table.acting = sorted(after)
    for seat, info in enumerate(table.seats):
        info.covered = info.covered and seat in after  # a handed-over turn lasts while the table waits on it
    first_out = len(ctx.result.outbound)
    private: dict[int, list[Event]] = {}
    for e in turn.events:
        for s in e.audience or []:
            private.setdefault(s, []).append(e)
    for seat, info in enumerate(table.seats):
        if info.played_by:
            continue  # nobody reads this seat's private chat for this table now
        lang = ctx.seat_lang(seat)
        if seat == turn.actor:
            lines = _event_lines(ctx, turn.events, seat, lang, MOVE_LINES)
            info.seen_to = len(match.log)
        elif seat in after and (info.shown is None or info.shown.kind != "prompt"):
            # their turn starts: the new message recaps what the others did since they last played
            recap = [e for entry in match.log[info.seen_to:] for e in entry.events if e.audience is None]
            lines = _event_lines(ctx, recap + private.get(seat, []), seat, lang, MOVE_LINES)
            info.seen_to = len(match.log)
        else:
            lines = _event_lines(ctx, private.get(seat, []), seat, lang, MOVE_LINES)
        shown = show_seat(ctx, game, match, seat, want=seat in after, actor=turn.actor, lines=lines)
        if not shown and seat != turn.actor and private.get(seat):
            ctx.send(info.user_id, render.fit([others(ctx, seat)] + lines), silent=True)
    _one_message_per_move(ctx, first_out, turn.actor)
    reminders.follow(ctx, after, turn.actor)
    send_summaries(ctx, turn.events)
    newcomers = {s for s in after - turn.before if s != turn.actor}
    if turn.force_status:
        table.digest_to = len(match.log)
        show_status(ctx, game, match, new_message=table.status_msg is None)
    elif not turn.undone and (newcomers or turn.checkpoint or over):
        # a new turn: the digest becomes what happened since the last status update
        table.digest_from, table.digest_to = table.digest_to, len(match.log)
        show_status(ctx, game, match, new_message=table.status_msg is None)
    if over:
        finish(ctx, game, match)


def _one_message_per_move(ctx: Ctx, first: int, actor: int | None) -> None:
    """A move whose press starts nobody's turn and changes nobody's prompt (a secret assignment's
    "Pronto", a simultaneous setup choice) would send its mover nothing but their "✔ Feito" note,
    a view that may wait behind the group's pictures while the message keeps its buttons. That
    note is then the one message the press is for: it rides the prompt lane (workers/outbox.py)."""
    table = ctx.table
    assert table is not None
    if actor is None:
        return
    mover = table.seats[actor].user_id
    made = ctx.result.outbound[first:]
    if any(not o.background and (o.slot or "").startswith("prompt") for o in made):
        return
    for o in made:
        if o.chat_id == mover and o.background and (o.slot or "").startswith("prompt"):
            o.background = False


def send_summaries(ctx: Ctx, events: list[Event]) -> None:
    """A game's recap (Trickerion: the end of a round) goes to the group as one message per run of
    consecutive summary events: its first line as the heading. Public events only."""
    table = ctx.table
    assert table is not None
    lang, names = ctx.group_lang, table.names()
    runs: list[list[Event]] = []
    previous = False
    for e in events:
        if e.summary and e.audience is None:
            if not previous:
                runs.append([])
            runs[-1].append(e)
        previous = e.summary
    for run in runs:
        lines = ["<b>" + render.game_text(run[0].text, lang, names) + "</b>"]
        lines += ["• " + render.game_text(e.text, lang, names) for e in run[1:]]
        ctx.send(table.chat_id, render.fit(lines), silent=True)


# --------------------------------------------------------------------------- the end


def score_lines(ctx: Ctx, game: Game, match: Match, lang: str) -> list[str]:
    table = ctx.table
    assert table is not None
    names = table.names()
    final = game.score(match.state)
    lines = [render.t("tables.score.header", lang, game=render.game_title(table.game, lang))]
    winners = [render.name(names[s]) for s in final.winners]
    if not winners:  # a rival that is no seat (the solo opponent) may have won: said so, not "nobody won"
        winners = [render.name(render.game_plain(r.label, lang, names)) for r in final.rival_winners()]
    if not winners:
        lines.append(render.t("tables.score.nobody", lang))
    else:
        lines.append(render.t("tables.score.winners", lang, count=len(winners), names=render.join(winners, lang)))
    # the places the record keeps: the winners first, tied seats share one, a rival that scored more (the solo
    # opponent) counts above, who left comes last
    place = ratings.places(final, [seat.left for seat in table.seats])
    for s in sorted(final.seats, key=lambda x: (place[x.seat], -x.total, x.seat)):
        rank = place[s.seat]
        mark = render.t("tables.status.stand_in_mark", lang) if table.seats[s.seat].left else render.Safe("")
        lines.append(render.t("tables.score.seat", lang, rank=rank, name=names[s.seat], mark=mark,
                              count=s.total))
        lines += [render.t("tables.score.line", lang, label=render.game_plain(line.label, lang, names),
                           points=line.points) for line in s.lines]
    for rival in final.rivals:
        lines.append(render.t("tables.score.rival", lang, name=render.game_plain(rival.label, lang, names),
                              count=rival.total))
        lines += [render.t("tables.score.line", lang, label=render.game_plain(line.label, lang, names),
                           points=line.points) for line in rival.lines]
    lines += ["<i>" + render.game_text(n, lang, names) + "</i>" for n in final.notes]
    return lines


def finish(ctx: Ctx, game: Game, match: Match) -> None:
    table = ctx.table
    assert table is not None
    ctx.send(table.chat_id, render.fit(score_lines(ctx, game, match, ctx.group_lang)))
    close(ctx, "over", None)
    # what the game leaves behind (record, ratings, statistics), and its summary picture
    summary.post(ctx, game, match, record.ending(ctx, game, match))


def close(ctx: Ctx, status: str, group_text: str | None) -> None:
    """The table ends (over or cancelled): indexes, reminders, live buttons."""
    table = ctx.table
    assert table is not None
    ctx.touch()
    table.status = status  # type: ignore[assignment]
    table.ended_at = ctx.now
    ctx.result.set_active[table.chat_id] = None
    # every index that points to the table lets go of it (the key itself then expires:
    # workers/retention.py)
    ctx.result.user_lobbies_remove.setdefault(table.creator, []).append(table.id)
    ctx.result.cancel_reminders.append(reminders.IDLE_KEY)
    for seat, info in enumerate(table.seats):
        ctx.result.cancel_reminders.append(reminders.key(seat))
        if info.bot:
            continue  # a bot sits in no index and has no chat
        ctx.result.user_tables_remove.setdefault(info.user_id, []).append(table.id)
        info.waiting_since = None
        if status == "cancelled" and info.shown is not None and info.shown.kind == "prompt":
            ctx.send(info.user_id, render.t("tables.cancel.done_private", ctx.seat_lang(seat)), slot=info.shown.slot)
            info.shown = None
    if group_text:
        ctx.send(table.chat_id, group_text)
