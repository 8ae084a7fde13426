"""Oficina (each player's own board): Arquitetar, and — once the specialist has joined — Mover Truques,
Mover Componentes, Mover Aprendiz."""

from __future__ import annotations

from rulesets.core import Event, Rng, msg

from .data import TRICKS
from .rules import MARKERS_PER_SYMBOL, acted, comp_name, cost, log, markers_in_theater, meets, owned, trick_name, who
from .state import Owned, State


def marcadores_ao_arquitetar(state: State, s: int, o: Owned) -> int:
    """Markers Arquitetar puts on a trick: its marker squares, +1 on the Engineer's slot, at most 4 of a symbol."""
    want = TRICKS[o.t].markers + (1 if o.eng else 0)
    return min(want, MARKERS_PER_SYMBOL - markers_in_theater(state, s, o.sym))


def pode_arquitetar(state: State, s: int, o: Owned) -> bool:
    """Only when the card holds no markers and the components are met (components are never spent)."""
    return o.on == 0 and meets(state.p[s], o.t) and marcadores_ao_arquitetar(state, s, o) > 0


def movable_stacks(state: State, s: int) -> list[str]:
    p = state.p[s]
    out = []
    for c, n in p.comps.items():
        if c in p.multi or n + 1 > 3:  # the bonus unit counts towards the limit of 3
            continue
        out += [f"mc:{c}:{k}" for k in range(len(p.multi))]
    return out


def menu(state: State, s: int) -> list[str]:
    p, ap = state.p[s], state.cur.ap
    out = [f"aq:{o.t}" for o in p.tricks if TRICKS[o.t].prepare_ap <= ap and pode_arquitetar(state, s, o)]
    if ap >= cost(state, "mover_truques") and "engineer" in p.specs:
        out += [f"mt:{o.t}" for o in p.tricks if not o.eng]
    if ap >= cost(state, "mover_componentes") and "manager" in p.specs and movable_stacks(state, s):
        out.append("mover_componentes")
    if ap >= cost(state, "mover_aprendiz") and "assistant" in p.specs and p.app_ext is None:
        out += [f"ma:{a}" for a in p.apps]
    return out


def surely_busy(state: State, s: int) -> bool:
    """The Workshop's own menu is quick to list."""
    return bool(menu(state, s))


def opened_by_returns(state: State, s: int) -> bool:
    """Whether giving a component back could open Mover Componentes: a regular stack of 3 that would
    fit a Manager's multi-component space with one unit less (Arquitetar needs components, never fewer)."""
    p = state.p[s]
    return (state.cur.ap >= cost(state, "mover_componentes") and "manager" in p.specs
            and any(n + 1 > 3 and c not in p.multi for c, n in p.comps.items()))


def start(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> None:
    """A choice from the Workshop's action menu."""
    if choice.startswith("aq:"):
        arquitetar(state, s, choice[3:], events)
    elif choice.startswith("mt:"):
        mover_truques(state, s, choice[3:], events)
    elif choice.startswith("ma:"):
        mover_aprendiz(state, s, choice[3:], events)
    else:
        state.step = "mover_componentes"


def arquitetar(state: State, s: int, tid: str, events: list[Event]) -> None:
    """Arquitetar (EN Prepare): markers onto the trick card, for the trick's own AP cost."""
    o = owned(state.p[s], tid)
    o.on = marcadores_ao_arquitetar(state, s, o)
    state.cur.ap -= TRICKS[o.t].prepare_ap
    log(events, "prepare", player=who(s), trick=trick_name(o.t), count=o.on)
    acted(state, s, "arquitetar", events, trick=tid)


def mover_truques(state: State, s: int, tid: str, events: list[Event]) -> None:
    """Mover Truques: this trick onto the Engineer's slot; a trick already there swaps to its place."""
    for other in state.p[s].tricks:
        other.eng = False
    owned(state.p[s], tid).eng = True
    state.cur.ap -= cost(state, "mover_truques")
    log(events, "move_trick", player=who(s), trick=trick_name(tid))
    acted(state, s, "mover_truques", events)


def mover_aprendiz(state: State, s: int, apprentice: str, events: list[Event]) -> None:
    """Mover Aprendiz: permanently onto the Assistant's apprentice space (no wage there)."""
    state.p[s].app_ext = apprentice
    state.cur.ap -= cost(state, "mover_aprendiz")
    log(events, "move_apprentice", player=who(s))
    acted(state, s, "mover_aprendiz", events)


def mover_componentes_opcoes(state: State, s: int) -> list[str]:
    return movable_stacks(state, s) + ["voltar"]


def mover_componentes(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> None:
    state.step, state.ctx = "acoes", {}
    if choice == "voltar":
        return
    _, comp, k = choice.split(":")
    p = state.p[s]
    old = p.multi[int(k)]
    p.multi[int(k)] = comp  # a stack already there goes back to a regular space
    state.cur.ap -= cost(state, "mover_componentes")
    log(events, "move_components", player=who(s), comp=comp_name(comp),
        old=comp_name(old) if old else msg("trickerion.comp.none"))
    acted(state, s, "mover_componentes", events)


STEPS = {"mover_componentes": (mover_componentes_opcoes, mover_componentes)}
