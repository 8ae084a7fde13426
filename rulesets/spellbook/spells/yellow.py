"""Yellow spells: Abundância, Conhecimento, Comunhão (scoring parts are in scoring.py)."""

from __future__ import annotations

from rulesets.core import Rng
from rulesets.spellbook import materia as mt
from rulesets.spellbook.spells import on_learn
from rulesets.spellbook.state import Log, State
from rulesets.spellbook.steps import push


# Abundância (instant): draw 2 / 3 / 4 when learned.
@on_learn("abundance")
def abundance(st: State, p: int, level: int, rune: int, rng: Rng, log: Log) -> None:
    mt.draw_to_pool(st, p, level - 1, rng, log)


# Comunhão level 3 (instant): store 3 Altar materia when learned. Level 5 (permanent) is in
# learning.finish: each time a spell is learned, store 2 of the materia discarded for it.
@on_learn("communion")
def communion(st: State, p: int, level: int, rune: int, rng: Rng, log: Log) -> None:
    if level == 3:
        push(st, {"do": "take", "n": 3, "to": "fam"})


def keeps_discards(st: State, p: int) -> bool:
    return st.has(p, "communion") == 5
