"""A finished game's replay in the chat: one message, edited in place by ⏮ ◀ ▶ ⏭ (and ⏪ ⏩ from round
to round when the game reports its rounds), showing the group's picture of the position and the log
lines of that step.

The group's view only: every frame is drawn from `Game.view(state, None)` (the picture) or
`Game.table(state, None)` (the text) and the events with no audience — so the replay shows what the
group saw during the game, and at the end what the rules reveal then, never a private line or card.

Steps: the setup, then every log entry with a public event (an entry whose events are all private —
a secret choice — is shown with the next public one), and always the last entry: the last step is
the saved final position. A button is "~S<table id>.<step>.<n>", n naming the message (its slot
"replay.<n>", n = the update id of the press that opened it), so each press edits the message it sits
on. Nothing here changes a table: the position is rebuilt from the archived log at each press.
"""

from __future__ import annotations

from typing import Any

from rulesets.core import Game, Match, load_match
from rulesets.core.summary import positions
from rulesets.registry import get_game
from workers.protocol import Button, ascii_int, chat_callback
from workers.tables import picture, render
from workers.tables.context import Ctx
from workers.tables.record import GameRecord
from workers.tables.summary import seat_name

STEP = "S"
EVENT_LINES = 8


def steps(match: Match) -> list[int]:
    """The log indexes the replay stops at."""
    last = len(match.log) - 1
    out = [0] + [i for i, entry in enumerate(match.log[1:], start=1)
                 if i == last or any(e.audience is None for e in entry.events)]
    return out if out[-1] == last else out + [last]


def parse(rest: str) -> tuple[str, int, int] | None:
    """(table id, step, message number) from "<table id>.<step>.<n>"."""
    parts = rest.split(".")
    if len(parts) != 3 or not 1 <= len(parts[0]) <= 16:
        return None
    step, n = ascii_int(parts[1], 5), ascii_int(parts[2], 12)
    return None if step is None or n is None else (parts[0], step, n)


def position(match: Match, index: int) -> Any:
    """The state after log entry `index` (replayed from the log with its recorded draws)."""
    for i, state in positions(match):
        if i == index:
            return state
    raise IndexError(index)


def round_at(record: GameRecord, index: int) -> int | None:
    current = None
    for rnd, start in record.round_starts:
        if start <= index:
            current = rnd
    return current


def _jumps(record: GameRecord, stops: list[int], k: int) -> list[tuple[int, str, int]]:
    """(target step, label key, round) for ⏪ and ⏩: to the start of this round (or the previous one,
    from its start), and to the start of the next."""
    index = stops[k]

    def step_of(start: int) -> int:
        return next((j for j, i in enumerate(stops) if i >= start), len(stops) - 1)

    out = []
    earlier = [(r, s) for r, s in record.round_starts if step_of(s) < k]
    if earlier:
        rnd, start = earlier[-1]
        out.append((step_of(start), "tables.button.replay_round_back", rnd))
    later = [(r, s) for r, s in record.round_starts if s > index and step_of(s) > k]
    if later:
        rnd, start = later[0]
        out.append((step_of(start), "tables.button.replay_round_next", rnd))
    return out


def frame(game: Game, record: GameRecord, match: Match, k: int, lang: str,
          n: int) -> tuple[str, bytes | None, list[list[Button]]]:
    """Step k's message: text (a caption when there is a picture), picture, buttons."""
    stops = steps(match)
    k = min(max(0, k), len(stops) - 1)
    index = stops[k]
    state = position(match, index)
    names = [seat_name(s.name, s.bot, lang) for s in record.seats]
    head = render.t("tables.replay.header", lang, game=render.game_title(record.game, lang), step=k + 1,
                    steps=len(stops))
    rnd = round_at(record, index)
    if rnd is not None:
        head = render.t("tables.replay.header_round", lang, head=head, round=rnd)
    lines = [head]
    if index == stops[-1]:
        lines.append(render.t("tables.replay.final", lang))
    earlier = stops[k - 1] if k > 0 else -1
    events = [e for entry in match.log[earlier + 1: index + 1] for e in entry.events if e.audience is None]
    lines += ["• " + render.game_text(e.text, lang, names) for e in events[-EVENT_LINES:]]
    photo = None
    if picture.draws_table(game):
        photo = picture.table(game, game.view(state, None), names, lang)
        text = render.fit(lines, render.CAPTION_LIMIT)
    else:
        table = [render.game_text(m, lang, names) for m in game.table(state, None)]
        text = render.fit(lines + [""] + table)

    def button(key: str, target: int, **params: object) -> Button:
        return Button(text=render.plain(key, lang, **params), callback_data=chat_callback(
            f"{STEP}{record.id}.{target}.{n}"))

    nav = []
    if k > 0:
        nav += [button("tables.button.replay_first", 0), button("tables.button.replay_back", k - 1)]
    if k < len(stops) - 1:
        nav += [button("tables.button.replay_next", k + 1), button("tables.button.replay_last", len(stops) - 1)]
    rows = [nav] if nav else []
    jumps = [button(key, target, round=rnd) for target, key, rnd in _jumps(record, stops, k)]
    if jumps:
        rows.append(jumps)
    return text, photo, rows


def show_step(ctx: Ctx, record: GameRecord, step: int, n: int) -> None:
    match = load_match(record.match)
    game = get_game(record.game)
    text, photo, rows = frame(game, record, match, step, ctx.here_lang, n)
    ctx.send(ctx.cmd.chat_id, text, rows, slot=f"replay.{n}", silent=True, photo=photo)
    ctx.answer("")


def open_replay(ctx: Ctx, record: GameRecord) -> None:
    """A new replay message at the setup, in the chat where the replay was asked for."""
    show_step(ctx, record, 0, ctx.cmd.update_id)
