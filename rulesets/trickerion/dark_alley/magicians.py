"""The Dark Alley side of the magician cards (PT appendix p.21). Implemented here:

    O Mecanizador (M04)  Aprimoramento Mecânico: once per round, +1 AP to an apprentice placed anywhere
                         but the Theater — given to the first such apprentice of the round.
    Sacerdotisa (M03)    Tecer o Destino: 1 AP at the Beco Escuro, once per placement: the active
                         prophecy is discarded, a pending one of the player's choice replaces it and a
                         new one is drawn (prophecies.fate_weaving); only offered with prophecies.
    O Cavalheiro (M06)   Mágica para as Massas: the magician placed at the Centro da Cidade, Mercado or
                         Beco Escuro gains 1 Fame per trick card owned.
"""

from __future__ import annotations

from rulesets.core import Event, Rng

from ..rules import gain, kind, log, who
from ..state import State
from .facts import PERMANENT

GENTLEMAN_PLACES = ("downtown", "market", PERMANENT)


def offers(state: State, magician: str) -> bool:
    return magician != "M03" or "prophecies" in state.modules


def placed(state: State, s: int, char: str, key: str, events: list[Event]) -> None:
    p, loc = state.p[s], key.split(".")[0]
    if p.magician == "M06" and char == "mag" and loc in GENTLEMAN_PLACES:
        fame = len(p.tricks)
        gain(p, fame=fame)
        log(events, "da_gentleman", player=who(s), fame=fame)
    once = state.alley.once
    if p.magician == "M04" and kind(char) == "apprentice" and loc != "theater" and f"{s}:mech" not in once:
        once += [f"{s}:mech", f"{s}:mech:{char}"]
        log(events, "da_mechanizer", player=who(s))


def placement_ap(state: State, s: int, char: str, loc: str) -> int:
    return 1 if f"{s}:mech:{char}" in state.alley.once else 0


def tecer_opcoes(state: State, s: int) -> list[str]:
    from .. import prophecies

    return prophecies.fate_weaving_choices(state) + ["voltar"]


def tecer(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> None:
    if choice != "voltar":
        from .. import prophecies
        from .beco_escuro import cost

        state.cur.ap -= cost(state, "tecer_destino")
        state.alley.once.append(f"{s}:td")
        log(events, "da_fate_weaving", player=who(s))
        prophecies.fate_weaving(state, s, choice, rng, events)
    state.step, state.ctx = "acoes", {}


STEPS = {"da_tecer": (tecer_opcoes, tecer)}
