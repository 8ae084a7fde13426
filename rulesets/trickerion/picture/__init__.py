"""Trickerion's pictures, each a pure function of a view (`Game.view(state, seat)`), never of the state:

- `table(view, names, say)` — the group's table: header (round, phase, initiative), the Theater
  (performance cards, weekday track), Downtown, the Market, with the Dark Alley its spaces, special
  decks and the prophecy track, and one band per player.
- `card(view, seat, names, say, index)` — the performance card a trick marker is being placed on,
  with numbered slots (the buttons' numbers) and the links each direction would form.
- `board(view, seat, names, say)` — the seat's own board (players.py / board.py).

Modules: style (colours, pieces, icons), theater, town (header, Downtown, Market, Dark Alley,
prophecies), players (the bands), board (a player's own board). Every label comes from
`trickerion.picture.*` (locales/*/trickerion_picture.po) through `say`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rulesets.core import msg
from rulesets.core.contract import Say
from rulesets.core.drawing import canvas, encode, text

from . import board as own_board
from . import players, style, theater, town

WIDTH = 1280
MARGIN = 10
MAX_BYTES = 250_000
HEADER_H = 44
THEATER_H = theater.CARD_H + 46
PLACES_H = 196


def table(view: dict[str, Any], names: Sequence[str], say: Say) -> bytes:
    people = view.get("players", [])
    letters = style.letters([names[s] if s < len(names) else str(s + 1) for s in range(len(people))])
    order: list[int] = view.get("order") or list(range(len(people)))
    height = MARGIN + HEADER_H + THEATER_H + 8 + PLACES_H + 8 + players.BAND_H * len(people) + MARGIN
    image, d = canvas(WIDTH, height, style.PAPER)
    inner = WIDTH - 2 * MARGIN
    y = MARGIN
    town.header(image, d, MARGIN, y, inner, view, names, letters, say)
    y += HEADER_H
    _theater(image, d, MARGIN, y, inner, view, letters, say)
    y += THEATER_H + 8
    _places(image, d, MARGIN, y, inner, view, letters, say)
    y += PLACES_H + 8
    waiting = set(town.waiting_seat(view))
    spaces = view.get("spaces") or list(range(1, len(order) + 1))
    for i, s in enumerate(order):
        players.band(image, d, MARGIN, y, inner, s, people[s], names, letters, say, active=s in waiting,
                     position=spaces[i] if i < len(spaces) else None)
        y += players.BAND_H
    return encode(image, MAX_BYTES, style.PALETTE)


def card(view: dict[str, Any], names: Sequence[str], say: Say, index: int) -> bytes | None:
    """Performance card `index` from a seat's view, with the marker it is setting up (if any)."""
    image = theater.placement(view, index, names, say)
    return None if image is None else encode(image, MAX_BYTES, style.PALETTE)


def board(view: dict[str, Any], seat: int, names: Sequence[str], say: Say) -> bytes | None:
    """The seat's own board, from its own view."""
    image = own_board.draw(view, seat, names, say)
    return None if image is None else encode(image, MAX_BYTES, style.PALETTE)


def _theater(image, d, x: float, y: float, w: float, view: dict[str, Any], letters: Sequence[str], say: Say) -> None:
    style.panel(d, (x, y, x + w, y + THEATER_H - 4), fill=style.THEATER_BG)
    style.title(image, x + 12, y + 8, say(msg("trickerion.loc.theater")))
    text(image, (x + w - 12, y + 17), say(msg("trickerion.picture.deck", n=view.get("deck", 0))), 12, style.SOFT,
         anchor="rm")
    row = view.get("row", [])
    cx = x + 12
    for i, card in enumerate(row):
        if card is not None:
            theater.draw_card(image, d, cx, y + 34, i, card, letters, say)
        cx += theater.CARD_W + 8
    days_x = x + 12 + 5 * (theater.CARD_W + 8) + 4
    theater.draw_days(image, d, days_x, y + 34, x + w - 12 - days_x, view, letters, say)


def _places(image, d, x: float, y: float, w: float, view: dict[str, Any], letters: Sequence[str], say: Say) -> None:
    """Downtown, the Market, and with the Dark Alley its place and the prophecies, side by side."""
    panels: list[tuple[float, Any]] = [(1.22, town.downtown), (1.73, town.market)]
    if "special_decks" in view:
        panels.append((0.95, town.alley))
    if view.get("prophecies"):
        panels.append((1.05, lambda im, dr, box, v, lt, sy: town.prophecies(im, dr, box, v["prophecies"], sy)))
    total = sum(weight for weight, _ in panels)
    gap = 8
    room = w - gap * (len(panels) - 1)
    px = x
    for weight, fn in panels:
        pw = room * weight / total
        fn(image, d, (px, y, px + pw, y + PLACES_H), view, letters, say)
        px += pw + gap
