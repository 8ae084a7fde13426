"""Fase de Fim da Rodada, in the rulebook's order: Pagar Salários, Retornar os Personagens, Chegada das
Encomendas, Mover as Cartas de Apresentação, Remover os Pôsteres, Mover o Marcador de Rodadas."""

from __future__ import annotations

from rulesets.core import Event, Rng, msg
from rulesets.core.unchecked import unchecked

from . import hooks, ledger, round_summary
from .data import BOARD, CARDS
from .rules import comp_name, log, qty, wages, who
from .state import Card, State


def pagar_salarios(state: State, events: list[Event]) -> None:
    """Apprentices 1, specialists 2; idle characters and the Assistant's apprentice are free. Paying is
    mandatory while coins last; each unpaid coin costs 2 Fame (never below 0)."""
    for s in state.order:
        p = state.p[s]
        due = wages(p, p.placed)
        paid = min(due, p.coins)
        p.coins -= paid
        lost = min(p.fame, 2 * (due - paid))
        p.fame -= lost
        round_summary.wages(state, s, paid, lost)
        if due == paid and due:
            log(events, "wages", player=who(s), paid=qty("coins", paid))
        elif due:
            log(events, "wages_short", player=who(s), paid=qty("coins", paid), unpaid=qty("coins", due - paid),
                fame=lost)


def retornar_personagens(state: State, events: list[Event]) -> None:
    for s, p in enumerate(state.p):
        for hired in p.hires:
            if hired == "apprentice":
                p.apps.append(next(f"a{i}" for i in range(1, BOARD.apprentice_discs + 1) if f"a{i}" not in p.apps))
            else:
                p.specs.append(hired)  # with its extension
            log(events, "joins", player=who(s), char=msg(f"trickerion.char.{hired}"))
        p.hires = []
        p.placed, p.idle, p.plan, p.pick, p.ready, p.day = {}, [], {}, None, False, None
    state.occ = {}
    state.days = [None] * len(state.days)


def chegada_das_encomendas(state: State, events: list[Event]) -> None:
    for m in hooks.active(state):
        m.orders_arrive(state, events)
    for i, comp in enumerate(state.orders):
        if comp:
            state.stock[i] = comp
    state.orders = [None] * len(state.orders)
    state.quick = None
    log(events, "stock", comps=[comp_name(c) for c in state.stock if c])


def mover_cartas_de_apresentacao(state: State, events: list[Event]) -> None:
    """Every card moves one space; one pushed past the last space is discarded with its markers (they
    go back to the supply, not to the trick cards); the deck's top card fills the leftmost space."""
    last = state.row[-1]
    if last is not None:
        log(events, "card_discarded", count=len(last.m))
    state.row = [None, *state.row[:-1]]
    if state.deck:
        state.row[0] = unchecked(Card, id=state.deck.pop(0), m={})  # (unvalidated: a deck's str, every round)
        log(events, "card_revealed", card=msg(f"trickerion.theater.{_theater(state.row[0].id)}", id=state.row[0].id))


def _theater(cid: str) -> str:
    return CARDS[cid].theater


def run(state: State, rng: Rng, events: list[Event]) -> None:
    pagar_salarios(state, events)
    round_summary.emit(state, events)
    retornar_personagens(state, events)
    chegada_das_encomendas(state, events)
    mover_cartas_de_apresentacao(state, events)
    ledger.posters_down(state)
    for m in hooks.active(state):
        m.end_round(state, rng, events)
    log(events, "round_end", round=state.round)
