"""Purple spells: Levitação, Partilha, Adivinhação."""

from __future__ import annotations

from rulesets.core import Rng
from rulesets.spellbook import altar
from rulesets.spellbook import materia as mt
from rulesets.spellbook.data import NRUNE, level_runes
from rulesets.spellbook.spells import phase_action
from rulesets.spellbook.state import Log, State
from rulesets.spellbook.steps import Task, automatic, push


# Levitação (Manhã): take 2 Altar materia of one rune, the level's rune or a lower level's.
def levitation_options(st: State, p: int, level: int, rune: int) -> list[str]:
    runes = level_runes("levitation", level)
    if mt.room(st, p) > 0 and any(k % NRUNE in runes for k in st.altar):
        return ["levitation"]
    return []


def levitation(st: State, p: int, option: str, level: int, rune: int, card: int, rng: Rng, log: Log) -> None:
    push(st, {"do": "take", "n": 2, "runes": sorted(level_runes("levitation", level)), "same": "rune"})


# Partilha (Manhã): level 3 take 1 then draw 1; level 4 take 2; level 5 take 3. Then every other
# player, from the left, draws 1 (unless at 9). Solo: 1 bag token to the opponent's bottom area.
def sharing_options(st: State, p: int, level: int, rune: int) -> list[str]:
    return [f"sharing_{lv}" for lv in range(3, level + 1)] if mt.room(st, p) > 0 else []


def sharing(st: State, p: int, option: str, level: int, rune: int, card: int, rng: Rng, log: Log) -> None:
    used = int(option.rsplit("_", 1)[1])
    steps: list[dict] = [{"do": "take", "n": used - 2}]
    if used == 3:
        steps.append({"do": "draw", "n": 1})
    steps.append({"do": "others_draw"})
    push(st, *steps)


# Adivinhação (Manhã): put 2 bag tokens on the Altar (it may pass 10 during a Day), then
# level 3 take 2 and discard 1; level 4 take up to 2 of one colour; level 5 take 2.
def divination_options(st: State, p: int, level: int, rune: int) -> list[str]:
    return [f"divination_{lv}" for lv in range(3, level + 1)] if mt.room(st, p) > 0 else []


def divination(st: State, p: int, option: str, level: int, rune: int, card: int, rng: Rng, log: Log) -> None:
    used = int(option.rsplit("_", 1)[1])
    altar.add_from_bag(st, 2, rng, log)
    if used == 3:
        push(st, {"do": "take", "n": 2}, {"do": "discard", "n": 1})
    elif used == 4:
        push(st, {"do": "take", "n": 2, "same": "colour", "upto": 1})
    else:
        push(st, {"do": "take", "n": 2})


phase_action("levitation", ("levitation",), levitation_options, levitation)
phase_action("sharing", ("sharing_3", "sharing_4", "sharing_5"), sharing_options, sharing)
phase_action("divination", ("divination_3", "divination_4", "divination_5"), divination_options, divination)


@automatic("others_draw")
def others_draw(st: State, task: Task, rng: Rng, log: Log) -> None:
    """Partilha's 'todos os outros jogadores compram 1', from the actor's left, clockwise."""
    n = len(st.players)
    if n == 1:
        from rulesets.spellbook.solo import feed_bottom_from_bag

        feed_bottom_from_bag(st, rng, log)
        return
    p = st.cur
    for i in range(1, n):
        mt.draw_to_pool(st, (p + i) % n, 1, rng, log)
