"""The table logic's side of the games' pictures: which view each one is drawn from, and in which
language. The drawing itself belongs to each game (`Game.picture`, `Game.seat_picture`, in the
game's folder, with the toolkit in `rulesets/core/drawing.py`); nothing here knows a game.

- The group's picture is drawn from `Game.view(state, None)` only, so it cannot show anything the
  group may not see; a seat's private picture from `Game.view(state, seat)` only.
- Labels are rendered by `say`, a Msg -> text function in the viewer's language (with the players'
  names), so rulesets never import `locales`.
"""

from __future__ import annotations

from collections import OrderedDict
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


# The last pictures drawn, by the fingerprint of what they are drawn from (game, view, names,
# language): a command retried by the plumbing, a /status re-post or a view another chat already
# got costs no drawing. Same input, same bytes, so the cache changes nothing but the time.
RECENT = 32
_recent: OrderedDict[str, bytes | None] = OrderedDict()


def table(game: Game, public: dict[str, Any], names: Sequence[str], lang: str, key: str | None = None) -> bytes | None:
    """The group's picture, from the public view `game.view(state, None)`; `key`: the fingerprint
    of (game, view, names, lang) when the caller has it."""
    if not draws_table(game):
        return None
    if key is not None and key in _recent:
        _recent.move_to_end(key)
        return _recent[key]
    data = game.picture(public, names, say(lang, names))
    if key is not None:
        _recent[key] = data
        while len(_recent) > RECENT:
            _recent.popitem(last=False)
    return data


def spec(game: str, public: dict[str, Any], names: Sequence[str], lang: str, key: str) -> dict[str, Any]:
    """The group's picture to be drawn when its message is sent (protocol.Outbound.picture): the
    view it is drawn from — the public one — and its fingerprint, which tells an unchanged picture
    (a caption-only edit) without drawing it."""
    return {"game": game, "view": public, "names": list(names), "lang": lang, "key": key}


def draw(spec: dict[str, Any]) -> bytes | None:
    """Draw a picture described by `spec` (the outbox calls this when it sends the message)."""
    from rulesets.registry import get_game

    return table(get_game(spec["game"]), spec["view"], spec["names"], spec["lang"], key=spec["key"])


def private(game: Game, view: dict[str, Any], seat: int, names: Sequence[str], lang: str,
            subject: str) -> bytes | None:
    """A seat's picture (its board, or a prompt's picture), from `game.view(state, seat)`."""
    return game.seat_picture(view, seat, names, say(lang, names), subject)
