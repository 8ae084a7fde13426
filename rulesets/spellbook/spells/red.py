"""Red spells: Sacrifício, Erupção, Flama."""

from __future__ import annotations

from rulesets.core import Rng
from rulesets.spellbook import materia as mt
from rulesets.spellbook.data import NRUNE, level_runes
from rulesets.spellbook.spells import phase_action
from rulesets.spellbook.state import Log, State
from rulesets.spellbook.steps import push


# Sacrifício (Manhã): discard 1 materia with the level's rune (lower levels' runes too), draw 4.
def sacrifice_options(st: State, p: int, level: int, rune: int) -> list[str]:
    runes = level_runes("sacrifice", level)
    return ["sacrifice"] if any(k % NRUNE in runes for k in st.players[p].pool) else []


def sacrifice(st: State, p: int, option: str, level: int, rune: int, card: int, rng: Rng, log: Log) -> None:
    push(st, {"do": "discard", "n": 1, "runes": sorted(level_runes("sacrifice", level))},
         {"do": "draw", "n": 4})


# Erupção (Manhã): draw until the pool holds 4 / 5 / 6; nothing if it already does.
ERUPTION_TARGETS = (4, 5, 6)


def eruption_options(st: State, p: int, level: int, rune: int) -> list[str]:
    have = len(st.players[p].pool)
    return [f"eruption_{t}" for t in ERUPTION_TARGETS[: level - 2] if have < t]


def eruption(st: State, p: int, option: str, level: int, rune: int, card: int, rng: Rng, log: Log) -> None:
    target = int(option.rsplit("_", 1)[1])
    mt.draw_to_pool(st, p, target - len(st.players[p].pool), rng, log)


# Flama (Manhã): draw 4; then every other player, from the left, takes 1 from the Altar
# (unless at 9 or the Altar is empty). Solo: 1 Altar token goes to the opponent's bottom area.
def flame_options(st: State, p: int, level: int, rune: int) -> list[str]:
    return ["flame"] if mt.room(st, p) > 0 else []


def flame(st: State, p: int, option: str, level: int, rune: int, card: int, rng: Rng, log: Log) -> None:
    mt.draw_to_pool(st, p, 4, rng, log)
    n = len(st.players)
    if n == 1:
        push(st, {"do": "feed_bottom"})
    else:
        push(st, *({"do": "take", "n": 1, "seat": (p + i) % n} for i in range(1, n)))


phase_action("sacrifice", ("sacrifice",), sacrifice_options, sacrifice)
phase_action("eruption", tuple(f"eruption_{t}" for t in ERUPTION_TARGETS), eruption_options, eruption)
phase_action("flame", ("flame",), flame_options, flame)
