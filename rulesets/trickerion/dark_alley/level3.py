"""Level-3 tricks (fame threshold 36, in Dahlgaard's Residence with the Dark Alley) and their end-game
bonuses (PT p.20, appendix p.22), each capped at 20. Every bonus needs its own trick's component
requirements met (PT p.20: "Se os requisitos de Componentes do Truque forem atendidos, seu proprietário
recebe Pontos de Fama"); the tricks that Dama de Ferro (T35), Autômato (T47) and Homem Teletransportado
(T36) count need not meet theirs ("mesmo que você não cumpra com seus Requisitos", p.22)."""

from __future__ import annotations

from rulesets.core import msg
from rulesets.core.contract import ScoreLine

from ..data import COMPONENTS, TRICKS
from ..rules import effective, meets
from ..state import State
from .facts import ALLEY, SPECIALS


def _tier(p, tier: str) -> int:
    return sum(effective(p, c) for c in p.comps if COMPONENTS[c].tier == tier)


def bonus(state: State, s: int, tid: str) -> int:
    p, b = state.p[s], TRICKS[tid].end_game_bonus
    if not meets(p, tid):
        return 0
    if "if" in b:
        cond, value = b["if"], b["value"]
        ok = {"has_all_specialists": lambda: all(v in p.specs for v in value),
              "has_specialist": lambda: value in p.specs,
              "tricks_owned_at_least": lambda: len(p.tricks) >= value}[cond]()
        points = b["fame"] if ok else 0
    else:
        per = b["per"]
        count = {
            "advanced_components_in_workshop": lambda: _tier(p, "advanced"),
            "superior_components_in_workshop": lambda: _tier(p, "superior"),
            "basic_components_in_workshop": lambda: _tier(p, "basic"),
            "apprentices_owned": lambda: len(p.apps),
            "unspent_coins": lambda: p.coins // b.get("divisor", 1),
            "unspent_shards": lambda: p.shards,
            "tricks_owned": lambda: sum(1 for o in p.tricks if TRICKS[o.t].level == b["level"]),
            "trick_markers_on_own_trick_cards_in_workshop": lambda: sum(o.on for o in p.tricks),
            "special_assignment_cards_in_hand": lambda: sum(1 for c in p.hand if c in SPECIALS),
        }[per]()
        points = b["fame"] * count
    return min(ALLEY["scoring"]["level3_cap"], points)


def score_lines(state: State, s: int) -> list[ScoreLine]:
    return [ScoreLine(label=msg("trickerion.score.level3", trick=msg(f"trickerion.trick.{o.t}")),
                      points=bonus(state, s, o.t))
            for o in state.p[s].tricks if TRICKS[o.t].level == 3]
