"""Blue spells: Transmutação, Agilidade, Miragem."""

from __future__ import annotations

from rulesets.core import Rng
from rulesets.spellbook.data import NRUNE, SPELL_COLOUR
from rulesets.spellbook.spells import on_learn, phase_action
from rulesets.spellbook.state import Log, State
from rulesets.spellbook.steps import push


# Transmutação (Noite, levels 4-5): learn a spell where up to 1 / 2 materia with the card's
# rune each count as one wild, instead of the 3-identical-runes wild (the primary Learn action).
def transmutation_options(st: State, p: int, level: int, rune: int) -> list[str]:
    from rulesets.spellbook.learning import learnable

    if level >= 4 and learnable(st, p, {"m": "t", "k": level - 3, "r": rune}):
        return ["transmutation"]
    return []


def transmutation(st: State, p: int, option: str, level: int, rune: int, card: int, rng: Rng, log: Log) -> None:
    push(st, {"do": "learn", "m": "t", "k": level - 3, "r": rune})


phase_action("transmutation", ("transmutation",), transmutation_options, transmutation)


# Agilidade: levels 3-4 (instant) take 1 Morning action available to you right away;
# level 5 (permanent) two Morning actions every Day (day.morning_actions).
@on_learn("swiftness")
def swiftness(st: State, p: int, level: int, rune: int, rng: Rng, log: Log) -> None:
    if level < 5:
        push(st, {"do": "bonus_morning"})


def extra_morning(st: State, p: int) -> bool:
    return st.has(p, "swiftness") == 5


# Miragem (permanent): see altar.mirage; how many to draw for a token taken from the Altar.
def mirage_draws(st: State, p: int, k: int) -> int:
    level = st.has(p, "mirage")
    if not level or k % NRUNE != st.players[p].tok[SPELL_COLOUR["mirage"]] % NRUNE:
        return 0
    return 1 if level == 3 else 2
