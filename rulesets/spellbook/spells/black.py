"""Black spells: Oferenda, Foco, Banquete."""

from __future__ import annotations

from collections import Counter

from rulesets.core import Rng
from rulesets.spellbook import materia as mt
from rulesets.spellbook.data import NRUNE
from rulesets.spellbook.spells import phase_action
from rulesets.spellbook.state import Log, State
from rulesets.spellbook.steps import push


# Oferenda (Meio-Dia): store 2 / 3 / 4 pool materia of one colour (only the colour matters).
def offering_options(st: State, p: int, level: int, rune: int) -> list[str]:
    if mt.familiar_room(st, p) <= 0 or not st.players[p].pool:
        return []
    most = max(Counter(k // NRUNE for k in st.players[p].pool).values())
    return [f"offering_{n}" for n in range(2, min(level - 1, most) + 1)]


def offering(st: State, p: int, option: str, level: int, rune: int, card: int, rng: Rng, log: Log) -> None:
    n = int(option.rsplit("_", 1)[1])
    push(st, {"do": "store", "n": n, "same": "colour", "min": n})


# Foco (Noite): with the card's rune, store 1 / 2 / 3 pool materia, or (levels 4 / 5) take
# 1 / 2 from the Altar.
def focus_options(st: State, p: int, level: int, rune: int) -> list[str]:
    in_pool = sum(1 for k in st.players[p].pool if k % NRUNE == rune)
    out = []
    if mt.familiar_room(st, p) > 0:
        out += [f"focus_s{n}" for n in range(1, min(level - 2, in_pool) + 1)]
    if mt.room(st, p) > 0:
        on_altar = sum(1 for k in st.altar if k % NRUNE == rune)
        out += [f"focus_t{n}" for n in range(1, min(level - 3, on_altar) + 1)]
    return out


def focus(st: State, p: int, option: str, level: int, rune: int, card: int, rng: Rng, log: Log) -> None:
    n = int(option[-1])
    if option.startswith("focus_s"):
        push(st, {"do": "store", "n": n, "runes": [rune]})
    else:
        push(st, {"do": "take", "n": n, "runes": [rune]})


# Banquete (Meio-Dia): level 3 take 1 Altar materia of a colour already on your Familiar;
# level 4 store 1 Altar materia. Level 5 only scores (levels 3-4 stay usable).
def feast_options(st: State, p: int, level: int, rune: int) -> list[str]:
    out = []
    colours = {k // NRUNE for k in st.players[p].fam}
    if mt.room(st, p) > 0 and any(k // NRUNE in colours for k in st.altar):
        out.append("feast_take")
    if level >= 4 and st.altar and mt.familiar_room(st, p) > 0:
        out.append("feast_store")
    return out


def feast(st: State, p: int, option: str, level: int, rune: int, card: int, rng: Rng, log: Log) -> None:
    if option == "feast_take":
        push(st, {"do": "take", "n": 1, "fcol": 1})
    else:
        push(st, {"do": "take", "n": 1, "to": "fam"})


phase_action("offering", ("offering_2", "offering_3", "offering_4"), offering_options, offering)
phase_action("focus", ("focus_s1", "focus_s2", "focus_s3", "focus_t1", "focus_t2"), focus_options, focus)
phase_action("feast", ("feast_take", "feast_store"), feast_options, feast)
