"""The 21 spells, one module per colour. Each phase spell registers a `PhaseAction`:

    options(st, p, level, rune) -> option ids seat p may take now with that card
    start(st, p, option, level, rune, card, rng, log) -> performs it / pushes its steps

`level` and `rune` are the card's (another player's card when Clone copies it); `card` is the
colour of the card whose token a self-lowering spell (Crescimento, Tempestade) moves down:
its own, or Clone's when copied. Instants register in ON_LEARN.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rulesets.core import Rng
from rulesets.spellbook.state import Log, State

Options = Callable[[State, int, int, int], list[str]]
Start = Callable[[State, int, str, int, int, int, Rng, Log], None]
OnLearn = Callable[[State, int, int, int, Rng, Log], None]


@dataclass(frozen=True)
class PhaseAction:
    spell: str
    options: Options
    start: Start


ACTIONS: dict[str, PhaseAction] = {}
OPTION_SPELL: dict[str, str] = {}  # option id -> spell id
ON_LEARN: dict[str, OnLearn] = {}


def phase_action(spell: str, option_ids: tuple[str, ...], options: Options, start: Start) -> None:
    ACTIONS[spell] = PhaseAction(spell, options, start)
    for option in option_ids:
        OPTION_SPELL[option] = spell


def on_learn(spell: str):
    def register(fn: OnLearn) -> OnLearn:
        ON_LEARN[spell] = fn
        return fn
    return register


def load_all() -> None:
    from rulesets.spellbook.spells import black, blue, green, purple, red, white, yellow  # noqa: F401
