"""Localisable messages: what the rules say, without saying it in any language.

Rulesets never hold text. Every label, title, log line and score line is a `Msg`:
a catalogue key plus parameters. `locales.render` turns it into pt-BR or English.
A parameter may be another `Msg` (a spell name inside a log line), a list of them,
or a `Seat` (rendered as that player's name by whoever knows the names).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from rulesets.core.unchecked import unchecked


class Seat(BaseModel):
    """A reference to a player by seat number; the renderer knows the names."""

    model_config = ConfigDict(frozen=True)
    seat: int


class Msg(BaseModel):
    """A catalogue key and its parameters. Keys are namespaced: `<domain>.<path>`."""

    model_config = ConfigDict(frozen=True)
    key: str
    params: dict[str, Param] = {}

    @property
    def domain(self) -> str:
        return self.key.split(".", 1)[0]


Param = bool | int | str | Seat | Msg | list[Msg]
Msg.model_rebuild()


def msg(key: str, **params: Param) -> Msg:
    """Shorthand used all over the rulesets: `msg("spellbook.log.learned", spell=...)`.

    The rules build thousands of these a game; when every parameter already has one of Param's
    types (a quick look, no copy) the model is built without pydantic's validation, which costs
    ten times as much. Anything else (a tuple, a dict standing for a Seat) is validated as before."""
    for value in params.values():
        if type(value) not in _PLAIN and not (type(value) is list and all(type(v) is Msg for v in value)):
            return Msg(key=key, params=params)
    return unchecked(Msg, key=key, params=params)


_PLAIN = frozenset({bool, int, str, Seat, Msg})


def seat(n: int) -> Seat:
    return Seat(seat=n)
