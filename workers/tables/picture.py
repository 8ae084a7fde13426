"""The table logic's side of the games' pictures: which view each one is drawn from, and in which
language. The drawing itself belongs to each game (`Game.picture`, `Game.seat_picture`, in the
game's folder, with the toolkit in `rulesets/core/drawing.py`); nothing here knows a game.

- The group's picture is drawn from `Game.view(state, None)` only, so it cannot show anything the
  group may not see; a seat's private picture from `Game.view(state, seat)` only.
- Labels are rendered by `say`, a Msg -> text function in the viewer's language (with the players'
  names), so rulesets never import `locales`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import locales
from rulesets.core import Game, Msg
from rulesets.core.contract import BOARD, TABLE, Say


def say(lang: str, names: Sequence[str]) -> Say:
    def render(m: Msg) -> str:
        return locales.render(m, lang, names)

    return render


def draws_table(game: Game) -> bool:
    return TABLE in game.pictures


def draws_board(game: Game) -> bool:
    return BOARD in game.pictures


def table(game: Game, public: dict[str, Any], names: Sequence[str], lang: str) -> bytes | None:
    """The group's picture, from the public view `game.view(state, None)`."""
    return game.picture(public, names, say(lang, names)) if draws_table(game) else None


def private(game: Game, view: dict[str, Any], seat: int, names: Sequence[str], lang: str,
            subject: str) -> bytes | None:
    """A seat's picture (its board, or a prompt's picture), from `game.view(state, seat)`."""
    return game.seat_picture(view, seat, names, say(lang, names), subject)
